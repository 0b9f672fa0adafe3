/// A worker's sums for one chunk of a `summary` run: per key and currency, in
/// the order they first appear in the chunk, the count and the exact income
/// and expense sums; with the keys and currencies the worker met for the
/// first time, so the reader can name its numbers.
struct SummaryChunkDelta: Sendable {
  /// One key's sums in one currency.
  struct Cell: Sendable {
    /// The key's number among the worker's keys.
    var key: Int32
    /// The currency's number among the worker's currencies.
    var currency: Int32
    var sums = SummarySums()
  }

  /// The worker that folded the chunk (its numbering of keys and currencies).
  var worker: Int
  /// Keys the worker numbered while folding this chunk, in number order.
  var newKeys: [SummaryAccumulator.Slot] = []
  /// Currencies (as written) the worker numbered while folding this chunk, in number order.
  var newCurrencies: [[UInt8]] = []
  var cells: [Cell] = []
  /// The first and last day of the records summed (`nil`: none).
  var days: DaySpan?
  /// The records summed per day, when the worker counts them (`SummaryChunkFolder.countsDays`).
  var dayCounts: [(day: CalendarDay, count: Int)] = []
  /// Set when a sum of the chunk alone overflowed: then the whole input's does, and the
  /// reader reads the chunk again transaction by transaction to say where.
  var overflow = false
}

/// A `summary` worker: decodes the records of a chunk straight from its bytes
/// (no `Transaction`, no `String` per record), classifies them as `group`
/// does, applies the run's filter on the decoded bytes (`RecordSelection`),
/// and sums the selected ones per key and currency (`SummaryChunkDelta`).
/// Runs on one thread at a time (so its per-record state skips dynamic
/// exclusivity checks, as `GroupTable`'s does); the reader merges the deltas
/// in input order (`SummaryAccumulator.merge`).
///
/// Keys are the bytes `Transaction` would hold: the decoded category or
/// counterparty (absent, `null` or empty: no key), the state upper-cased
/// (ASCII) or the implied or schema's default, or the record's day (in the
/// run's zone, which the decoder already placed it in) as a day, ISO week,
/// month or year. The currency is the decoded text as written, else the schema's default.
final class SummaryChunkFolder {
  let worker: Int
  let dimension: SummaryDimension
  private var decoders: SchemaDecoders
  let fileNames: [String]
  let classifier: RecordClassifier
  let selection: RecordSelection?
  /// Per schema: its default state and currency as `Transaction` would take them.
  let defaults: SchemaDefaults
  /// Text keys by their bytes; `keyNumbers[n]` is the key number of the interner's string `n`.
  private let texts = ByteStringInterner(upperCasing: false)
  @exclusivity(unchecked) private var keyNumbers: [Int32] = []
  /// Date keys by their slot code.
  @exclusivity(unchecked) private var dateKeys: [Int32: Int32] = [:]
  @exclusivity(unchecked) private var missingKey: Int32 = -1
  /// The worker's keys, by number.
  @exclusivity(unchecked) private(set) var keys: [SummaryAccumulator.Slot] = []
  private let currencies = ByteStringInterner(upperCasing: true)
  /// Keys and currencies already handed to the reader.
  @exclusivity(unchecked) private var reportedKeys = 0
  @exclusivity(unchecked) private var reportedCurrencies = 0
  /// The current chunk's cells, and which key and currency each is.
  @exclusivity(unchecked) private var cellIndex = SummaryCellIndex()
  @exclusivity(unchecked) private var cells: [SummaryChunkDelta.Cell] = []
  /// Decoded or upper-cased text, reused across records.
  @exclusivity(unchecked) private var scratch: [UInt8] = []
  /// The last date looked up and its key, since neighbouring records share days.
  @exclusivity(unchecked) private var lastDay = CalendarDay(daysSinceEpoch: Int32.min)
  @exclusivity(unchecked) private var lastDayKey: Int32 = -1
  /// The first pass of `--dedupe`: accepted records go here as id entries too.
  var ids: IDCollector?
  /// Whether each chunk's records summed are counted per day as well (`SummaryChunkDelta.dayCounts`):
  /// both passes of `--dedupe`, whose losers are taken out of the first pass's sums and days.
  var countsDays = false
  /// The current chunk's records per day, when counted.
  @exclusivity(unchecked) private var chunkDayCounts: [CalendarDay: Int] = [:]

  /// Creates worker number `worker` of a run with `options` (read options
  /// already placed in the run's zone) over the inputs `fileNames`.
  init(worker: Int, options: SummaryOptions, read: ReadOptions, fileNames: [String]) {
    self.worker = worker
    dimension = options.dimension
    decoders = SchemaDecoders(read: read)
    self.fileNames = fileNames
    classifier = RecordClassifier(options: read, schemas: decoders.schemas)
    selection = RecordSelection(options.filter)
    defaults = SchemaDefaults(decoders.schemas)
    scratch.reserveCapacity(256)
  }

  /// Decodes, selects and sums every record of `chunk`.
  ///
  /// - Complexity: O(n) in the chunk's bytes; allocates per chunk, for new
  ///   keys and currencies, and for rejections, never per record.
  func fold(_ chunk: RecordChunk) -> ChunkResult<SummaryChunkDelta> {
    var result = ChunkResult(of: chunk, output: SummaryChunkDelta(worker: worker))
    let fileName = fileNames[chunk.fileIndex]
    let schemaIndex = chunk.schemaIndex
    let decoder = decoders.decoder(schemaIndex)
    cellIndex.startChunk()
    cells.removeAll(keepingCapacity: true)
    chunkDayCounts.removeAll(keepingCapacity: true)
    let countsDays = countsDays
    var decoded = DecodedRecord()
    // Unowned, as `ChunkFolder`'s: binding it per record retained and released it.
    let ids = ids.map { Unmanaged.passUnretained($0) }
    let fileIndex = chunk.fileIndex
    result.physicalLines = classifier.classify(
      chunk, decoder: decoder, file: fileName, fileAccount: UnsafeBufferPointer(start: nil, count: 0),
      decoded: &decoded,
      accepted: { record, decoded, _ in
        result.records += 1
        result.accepted += 1
        // Every accepted record competes for its id, the selection's or not.
        if let ids, decoded.id.kind != .absent {
          ids._withUnsafeGuaranteedRef {
            $0.add(
              id: decoded.id, record: record.bytes, account: nil, instant: decoded.instant,
              place: Deduplicated.placeKey(fileIndex: fileIndex, offset: record.framing.offset))
          }
        }
        if let selection,
          !selection.matches(
            decoded, record: record.bytes, defaultState: defaults.selectionStates[schemaIndex],
            currency: defaults.selectionCurrencies[schemaIndex], position: record.framing.position)
        {
          return
        }
        let key = keyNumber(decoded, record: record.bytes, schemaIndex: schemaIndex)
        let currency = currencyNumber(decoded, record: record.bytes, schemaIndex: schemaIndex)
        if !add(decoded.amount, key: key, currency: currency) { result.output.overflow = true }
        result.output.days.add(decoded.day)
        if countsDays { chunkDayCounts[decoded.day, default: 0] += 1 }
      },
      rejected: { rejection in
        result.records += 1
        result.rejections.append(rejection)
      })
    result.output.cells = cells
    if !chunkDayCounts.isEmpty { result.output.dayCounts = chunkDayCounts.map { (day: $0.key, count: $0.value) } }
    if reportedKeys < keys.count {
      result.output.newKeys = Array(keys[reportedKeys...])
      reportedKeys = keys.count
    }
    if reportedCurrencies < currencies.count {
      result.output.newCurrencies = Array(currencies.strings[reportedCurrencies...])
      reportedCurrencies = currencies.count
    }
    return result
  }

  /// Adds `amount` to the chunk's cell of `key` in `currency`; `false` on overflow.
  @inline(__always)
  private func add(_ amount: ExactDecimal, key: Int32, currency: Int32) -> Bool {
    let next = Int32(truncatingIfNeeded: cells.count)
    let cell = cellIndex.cell(key: key, currency: currency, newCell: next)
    if cell == next { cells.append(SummaryChunkDelta.Cell(key: key, currency: currency)) }
    return cells[Int(cell)].sums.add(amount)
  }

  /// The number of the record's key in this run's dimension, made when new.
  @inline(__always)
  private func keyNumber(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, schemaIndex: Int) -> Int32 {
    switch dimension {
    case .category:
      return textKey(decoded.category, record)
    case .counterparty:
      return textKey(decoded.counterparty, record)
    case .state:
      if Self.hasText(decoded.state) {
        scratch.removeAll(keepingCapacity: true)
        GroupTable.withDecoded(decoded.state, record) { scratch.append(contentsOf: $0) }
        for index in scratch.indices { scratch[index] = ByteStringInterner.upper(scratch[index]) }
        return scratch.withUnsafeBufferPointer { textNumber($0) }
      }
      let state = decoded.impliedState.stateBytes(else: defaults.states[schemaIndex])
      return state.withUnsafeBufferPointer { textNumber($0) }
    case .day, .month, .week, .year:
      let day = decoded.day
      if day == lastDay { return lastDayKey }
      let slot = SummaryAccumulator.slot(of: day, in: dimension)
      let code: Int32
      switch slot {
      case .day(let value), .month(let value), .week(let value), .year(let value): code = value
      case .missing, .text: code = 0
      }
      let number: Int32
      if let found = dateKeys[code] {
        number = found
      } else {
        number = newKey(slot)
        dateKeys[code] = number
      }
      lastDay = day
      lastDayKey = number
      return number
    }
  }

  /// The key of a category or counterparty: its decoded text, or no key when absent, `null` or empty.
  @inline(__always)
  private func textKey(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard Self.hasText(ref), ref.end > ref.start else { return missingNumber() }
    // Unescaped text is its bytes: no closure (whose context costs a retain per record).
    if ref.kind != .escapedString { return textNumber(GroupTable.bytes(ref, record)) }
    return GroupTable.withDecoded(ref, record) { $0.isEmpty ? missingNumber() : textNumber($0) }
  }

  /// Whether a value has text, as `RecordDecoder.text` reads it (a string or a number as written).
  @inline(__always)
  private static func hasText(_ ref: ValueRef) -> Bool {
    switch ref.kind {
    case .string, .number, .escapedString: return true
    default: return false
    }
  }

  private func missingNumber() -> Int32 {
    if missingKey < 0 { missingKey = newKey(.missing) }
    return missingKey
  }

  @inline(__always)
  private func textNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    let string = texts.intern(bytes)
    if string < keyNumbers.count { return keyNumbers[string] }
    let number = newKey(.text(Array(bytes)))
    keyNumbers.append(number)
    return number
  }

  private func newKey(_ slot: SummaryAccumulator.Slot) -> Int32 {
    keys.append(slot)
    return Int32(truncatingIfNeeded: keys.count - 1)
  }

  /// The number of the record's currency: its decoded text as written, else the schema's default.
  @inline(__always)
  private func currencyNumber(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, schemaIndex: Int)
    -> Int32
  {
    if Self.hasText(decoded.currency) {
      if decoded.currency.kind != .escapedString {
        return Int32(truncatingIfNeeded: currencies.intern(GroupTable.bytes(decoded.currency, record)))
      }
      return Int32(truncatingIfNeeded: GroupTable.withDecoded(decoded.currency, record) { currencies.intern($0) })
    }
    return Int32(truncatingIfNeeded: defaults.currencies[schemaIndex].withUnsafeBufferPointer { currencies.intern($0) })
  }

  /// One record of a chunk read again in order (`replay`).
  enum ReplayEvent {
    case accepted(Transaction)
    case rejected(RecordRejection)
  }

  /// Reads `chunk` again as `TransactionReader` does: each record in order,
  /// accepted ones as `Transaction`s. For the rare chunk whose sums overflow,
  /// so the run stops at the same transaction, after the same rejections, as
  /// adding one by one. Returns the chunk's physical lines.
  func replay(_ chunk: RecordChunk, _ body: (ReplayEvent) -> Void) -> Int {
    let decoder = decoders.decoder(chunk.schemaIndex)
    var decoded = DecodedRecord()
    return classifier.classify(
      chunk, decoder: decoder, file: fileNames[chunk.fileIndex], fileAccount: UnsafeBufferPointer(start: nil, count: 0),
      decoded: &decoded,
      accepted: { record, decoded, _ in
        body(.accepted(decoder.transaction(from: decoded, record: record.bytes, position: record.framing.position)))
      },
      rejected: { body(.rejected($0)) })
  }
}
