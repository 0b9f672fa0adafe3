/// Tonight's state, record by record: the previous state's records that did
/// not lose, in their order, merged in account order with tonight's winners
/// (an account's previous records before its new ones). Account order holds
/// by induction: only tonight's records are sorted. It is both the second
/// pass's input (`StateSource`) and what `--state-out` writes. With a
/// `matcher`, the losers between the two sides are found here, an account at
/// a time (`AccountMatcher`), not by the first pass.
///
/// `@exclusivity(unchecked)` on what is read per record: one thread uses a
/// merge, and the runtime's dynamic check (a thread-local access set, two
/// calls per access) cost more than handing out a record.
final class StateMerge {
  private let previous: StateFileReader?
  private let winners: TonightRecords.Cursor
  /// The previous state's losers (`Deduplicated.placeKey` of input 0), ascending.
  private let losers: [UInt64]
  @exclusivity(unchecked) private var nextLoser = 0
  @exclusivity(unchecked) private var position = 0
  /// The previous state's next record that did not lose, in the reader's buffer (valid until it reads on).
  @exclusivity(unchecked) private var held: UnsafeRawBufferPointer?
  /// Whether the payload handed out last was `winners.current`, to be advanced past on the next call.
  @exclusivity(unchecked) private var tookWinner = false
  private let matcher: AccountMatcher?
  /// With several threads: the previous state read, decompressed and checked on a thread of its
  /// own (the merge's thread, which also matches and feeds the writer, set the second pass's pace).
  private let blocks: AccountPrefetcher<StateBlock>?
  /// The block being read (kept alive while its records are handed out) and its records' bytes.
  @exclusivity(unchecked) private var block: StateBlock?
  @exclusivity(unchecked) private var blockRecords = UnsafeRawBufferPointer(start: nil, count: 0)
  @exclusivity(unchecked) private var blockOffset = 0
  /// Called once after the last record, with the duplicates the matcher found.
  var ended: ((Int) -> Void)?
  /// The records the merge left out as losers (`AccountMatcher`), so far.
  var duplicates: Int { matcher?.duplicates ?? 0 }

  /// A writer the second pass's input feeds (`StateSource`: the bytes it
  /// hands the framer are the state's body), and what to do once the last
  /// record is written.
  ///
  /// It is fed on the merge's thread; the compressing is zstd's workers'
  /// (`StateFileWriter`), whose few buffers of a job each are all they hold in
  /// flight. (A thread of the tee's own, with its queue of records, raised a
  /// night's peak by a third.)
  final class Tee {
    let writer: StateFileWriter
    /// The run's stats as the header was first written with them.
    let stats: RunStats
    let header: (RunStats) -> StateHeader
    let finished: (StateHeader) -> Void

    init(
      writer: StateFileWriter, stats: RunStats, header: @escaping (RunStats) -> StateHeader,
      finished: @escaping (StateHeader) -> Void
    ) {
      self.writer = writer
      self.stats = stats
      self.header = header
      self.finished = finished
    }

    /// Appends body bytes: whole or cut records, `records` of which begin in them.
    func append(body: UnsafeRawBufferPointer, records: Int) throws(OutputError) {
      try writer.append(body: body, records: records)
    }

    /// Ends the state; the merge's `duplicates` are counted in its header, written again if there are any.
    func finish(duplicates: Int) throws(OutputError) {
      var final = stats
      final.duplicates += duplicates
      let header = header(final)
      try writer.finish(header: duplicates > 0 ? header : nil)
      finished(header)
    }
  }

  /// A merge of `previous` (read on a thread of its own with `prefetching`) and `winners`, less `losers`.
  init(
    previous: StateFileReader?, winners: TonightRecords.Cursor, losers: [UInt64], matcher: AccountMatcher? = nil,
    prefetching: Bool = false
  ) {
    self.previous = prefetching ? nil : previous
    blocks = prefetching ? previous.map(StateBlock.prefetcher) : nil
    self.winners = winners
    let stateEnd = Deduplicated.placeKey(fileIndex: 1, offset: 0)
    self.losers = Array(losers.prefix { $0 < stateEnd })
    self.matcher = matcher
  }

  deinit { blocks?.stop() }

  /// The next record's payload, valid until the next call; `nil` after the last one.
  ///
  /// - Throws: `PipelineError.state` when the previous state cannot be read
  ///   again, `PipelineError.spill` for tonight's runs.
  func next() throws(PipelineError) -> UnsafeRawBufferPointer? {
    let payload = try nextRecord()
    if payload == nil {
      ended?(duplicates)
      ended = nil
    }
    return payload
  }

  private func nextRecord() throws(PipelineError) -> UnsafeRawBufferPointer? {
    if tookWinner {
      // Advanced only now: the payload handed out last lives in the cursor until then.
      tookWinner = false
      do throws(SpillError) { try winners.advance() } catch { throw .spill(error) }
    }
    while true {
      // An account both sides hold: its tonight records once its previous ones are done.
      if let matcher, matcher.isDraining, let payload = matcher.nextTonight() { return payload }
      if held == nil { try holdPrevious() }
      guard let previous = held else { break }
      let account = StateRecord.account(of: previous)
      if let matcher, matcher.isOpen, !matcher.isOpen(for: account) {
        matcher.drain()
        continue
      }
      if let entry = winners.current, ByteOrder.compare(entry.account, account) < 0 {
        tookWinner = true
        return entry.payload
      }
      held = nil
      if let matcher {
        if !matcher.isOpen {
          do throws(SpillError) { try matcher.open(account, from: winners) } catch { throw .spill(error) }
        }
        if matcher.previousLoses(previous) { continue }
      }
      return previous
    }
    if let matcher, matcher.isOpen {
      matcher.drain()
      if let payload = matcher.nextTonight() { return payload }
    }
    guard let entry = winners.current else { return nil }
    tookWinner = true
    return entry.payload
  }

  /// Reads on to the previous state's next record that did not lose, if any.
  private func holdPrevious() throws(PipelineError) {
    while held == nil, let payload = try nextPrevious() {
      position += 1
      let place = Deduplicated.placeKey(fileIndex: 0, offset: Int64(position))
      while nextLoser < losers.count && losers[nextLoser] < place { nextLoser += 1 }
      guard nextLoser == losers.count || losers[nextLoser] != place else { continue }
      held = payload
    }
  }

  /// The previous state's next record, from the reader or its thread's blocks (valid until the next call).
  private func nextPrevious() throws(PipelineError) -> UnsafeRawBufferPointer? {
    while true {
      // From the block's bytes, touching no object: a record costs no retain.
      if let (payload, next) = StateBlock.record(in: blockRecords, at: blockOffset) {
        blockOffset = next
        return payload
      }
      guard let blocks else {
        do throws(StateFileError) { return try previous?.nextPayload() } catch { throw .state(error) }
      }
      block = try blocks.next()
      blockRecords = block?.records ?? UnsafeRawBufferPointer(start: nil, count: 0)
      blockOffset = 0
      if block == nil { return nil }
    }
  }
}
