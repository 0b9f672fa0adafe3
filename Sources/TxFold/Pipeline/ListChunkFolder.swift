/// A parallel `list` worker: decodes the records of a chunk straight from
/// its bytes, applies the run's filter on the decoded bytes
/// (`RecordSelection`), renders each kept record's output row (a
/// `RecordListRow`, by the list writers' own row code: `ListRowStyle`) and
/// adds it, with its sort key and what the sum line needs, as one entry
/// (`ListEntryLayout`) to the worker's `ListRunBuffer`.
/// Past its share of the memory limit the buffer is sorted and written out
/// as a run (`ListRunBuffer.spill`), or, when only the first `keepFirst` entries
/// will be read, cut to them.
///
/// Texts are the bytes `Transaction` would hold (`RecordDecoder.transaction`):
/// the id decoded, or the record's position; the state upper-cased (ASCII),
/// or the implied or schema's default; the currency as written, or the
/// schema's default. No `String` per record: the texts go through one reused buffer.
///
/// A per-account summary's workers are list workers too (`EntryPayload.summaryKey`):
/// each kept record becomes an entry with its account, sorted by account and
/// then in list order, whose payload is the record's summary key instead of
/// a row (`AccountSummaryCursor` sums each account's entries as they come).
final class ListChunkFolder {
  /// What an entry carries after its texts.
  enum EntryPayload {
    /// The list's output row, rendered in this style.
    case row(ListRowStyle)
    /// The record's key in a per-account summary's dimension (`SummaryKeyPayload`).
    case summaryKey(SummaryDimension)
  }

  let worker: Int
  private var decoders: SchemaDecoders
  /// The zone of each row's `date` (the report's).
  let dayZone: ZoneResolver
  let fileNames: [String]
  let classifier: RecordClassifier
  let selection: RecordSelection?
  let payload: EntryPayload
  /// Where each record's account comes from; with none, entries have no account.
  let accounts: AccountSource
  let buffer: ListRunBuffer
  let keepFirst: Int?
  /// With `keepFirst`: the entries at which the buffer is cut to them, as `ExternalSorter` does.
  let cutCount: Int
  /// Per schema: its default state and currency as `Transaction` would take them.
  let defaults: SchemaDefaults
  @exclusivity(unchecked) private var texts: [UInt8] = []
  @exclusivity(unchecked) private var entry: [UInt8] = []
  /// A spill that failed; reported with the next chunk's result.
  @exclusivity(unchecked) private var failure: SpillError?

  init(
    worker: Int, filter: TransactionFilter, keepFirst: Int?, read: ReadOptions, payload: EntryPayload,
    dayZone: ZoneResolver, fileNames: [String], budget: Int, store: SpillStore, readBufferSize: Int
  ) {
    self.worker = worker
    decoders = SchemaDecoders(read: read)
    self.dayZone = dayZone
    self.fileNames = fileNames
    classifier = RecordClassifier(options: read, schemas: decoders.schemas)
    selection = RecordSelection(filter)
    self.payload = payload
    accounts = read.accounts
    // A per-account list's account objects start with their counts: its runs carry them.
    var countsAccounts = false
    if case .row = payload, read.accounts != .none { countsAccounts = true }
    buffer = ListRunBuffer(
      budget: budget, spillingTo: store, readBufferSize: readBufferSize, countsAccounts: countsAccounts)
    self.keepFirst = keepFirst
    cutCount =
      keepFirst.map { end in
        let (count, overflow) = end.addingReportingOverflow(max(end, 4096))
        return overflow ? -1 : count
      } ?? -1
    defaults = SchemaDefaults(decoders.schemas)
    texts.reserveCapacity(1024)
    entry.reserveCapacity(4096)
  }

  /// Decodes, selects and renders every record of `chunk` into the buffer.
  ///
  /// - Complexity: O(n) in the chunk's bytes, plus a sort of the buffer when
  ///   it is full; allocates for rejections, never per record.
  func fold(_ chunk: RecordChunk) -> ChunkResult<Void> {
    var result = ChunkResult(of: chunk)
    let schemaIndex = chunk.schemaIndex
    let decoder = decoders.decoder(schemaIndex)
    var decoded = DecodedRecord()
    var index = 0
    let fileAccount = accounts == .fileName ? ChunkFolder.accountBytes(ofFile: fileNames[chunk.fileIndex]) : []
    result.physicalLines = fileAccount.withUnsafeBufferPointer { fileAccount in
      classifier.classify(
        chunk, decoder: decoder, file: fileNames[chunk.fileIndex], fileAccount: fileAccount,
        decoded: &decoded,
        accepted: { record, decoded, account in
          index += 1
          result.records += 1
          result.accepted += 1
          if let selection,
            !selection.matches(
              decoded, record: record.bytes, defaultState: defaults.selectionStates[schemaIndex],
              currency: defaults.selectionCurrencies[schemaIndex], position: record.framing.position)
          {
            return
          }
          result.selected += 1
          let order = ListEntryLayout.order(sequence: chunk.sequence, index: index)
          switch payload {
          case .row(let style):
            add(
              decoded, record: record.bytes, position: record.framing.position, schemaIndex: schemaIndex, order: order,
              style: style, account: account)
          case .summaryKey(let dimension):
            addKeyed(
              decoded, record: record.bytes, position: record.framing.position, schemaIndex: schemaIndex, order: order,
              account: account, dimension: dimension)
          }
          if buffer.isFull || buffer.count == cutCount { relieve(sequence: chunk.sequence) }
        },
        rejected: { rejection in
          index += 1
          result.records += 1
          result.rejections.append(rejection)
        })
    }
    if let failure {
      result.spillFailure = .spill(failure)
      self.failure = nil
    }
    return result
  }

  /// Makes room in the full buffer: cuts it to `keepFirst`, or spills it.
  private func relieve(sequence: Int) {
    if let keepFirst {
      buffer.keepFirst(keepFirst)
      if buffer.heldBytes <= buffer.budget / 2 { return }
    }
    do throws(SpillError) {
      try buffer.spill(rank: sequence)
    } catch {
      if failure == nil { failure = error }
      buffer.removeAll()
    }
  }

  /// Where a field's text lies: nowhere (absent), in the record (a string
  /// without escapes, a number as written), or in `texts` (decoded, upper-cased or made up).
  enum Place {
    case none
    case record(Range<Int>)
    case texts(Range<Int>)
  }

  /// A value's text as `RecordDecoder.text` gives it (a string decoded, a
  /// number as written); `.none` when it has none.
  @inline(__always)
  private func place(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>) -> Place {
    switch ref.kind {
    case .string, .number:
      return .record(ref.start..<ref.end)
    case .escapedString:
      let start = texts.count
      guard StringDecoder.decode(UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]), into: &texts) else {
        texts.removeSubrange(start...)
        return .none
      }
      return .texts(start..<texts.count)
    default:
      return .none
    }
  }

  /// `bytes` appended to `texts`.
  @inline(__always)
  private func place(_ bytes: [UInt8]) -> Place {
    let start = texts.count
    texts.append(contentsOf: bytes)
    return .texts(start..<texts.count)
  }

  @inline(__always)
  private static func resolve(_ place: Place, _ record: UnsafeBufferPointer<UInt8>, _ texts: UnsafeBufferPointer<UInt8>)
    -> UnsafeBufferPointer<UInt8>?
  {
    switch place {
    case .none: return nil
    case .record(let range): return UnsafeBufferPointer(rebasing: record[range])
    case .texts(let range): return UnsafeBufferPointer(rebasing: texts[range])
    }
  }

  /// The state as written, upper-cased (ASCII) as `Transaction` holds it:
  /// copied to `texts` only when it has a lower-case letter.
  @inline(__always)
  private func upperCased(_ place: Place, _ record: UnsafeBufferPointer<UInt8>) -> Place {
    var range: Range<Int>
    switch place {
    case .none:
      return .none
    case .record(let written):
      guard record[written].contains(where: { $0 &- .lowerA < 26 }) else { return place }
      let start = texts.count
      texts.append(contentsOf: UnsafeBufferPointer(rebasing: record[written]))
      range = start..<texts.count
    case .texts(let decoded):
      range = decoded
    }
    for index in range { texts[index] = ByteStringInterner.upper(texts[index]) }
    return .texts(range)
  }

  /// The id as `Transaction` holds it (the position when it has none) and
  /// the currency upper-cased (the schema's when it has none), placed in `texts`.
  @inline(__always)
  private func idAndCurrency(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int, schemaIndex: Int
  ) -> (id: Place, currency: Place) {
    var id = place(decoded.id, record)
    if case .none = id {
      let start = texts.count
      RecordExtender.appendDecimal(position, to: &texts)
      id = .texts(start..<texts.count)
    }
    var currency = upperCased(place(decoded.currency, record), record)
    if case .none = currency { currency = place(defaults.currencies[schemaIndex]) }
    return (id, currency)
  }

  /// Adds one kept record of a per-account summary as an entry: its id,
  /// currency and account, and its key in `dimension` as the payload.
  @inline(__always)
  private func addKeyed(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int, schemaIndex: Int, order: UInt64,
    account: UnsafeBufferPointer<UInt8>?, dimension: SummaryDimension
  ) {
    texts.removeAll(keepingCapacity: true)
    let (id, currency) = idAndCurrency(decoded, record: record, position: position, schemaIndex: schemaIndex)
    var key: Place = .none
    var code: Int32 = 0
    switch dimension {
    case .category:
      key = place(decoded.category, record)
    case .counterparty:
      key = place(decoded.counterparty, record)
    case .state:
      key = statePlace(decoded, record: record, schemaIndex: schemaIndex)
    case .day, .month, .week, .year:
      code = SummaryKeyPayload.code(of: SummaryAccumulator.slot(of: decoded.day, in: dimension))
    }
    entry.removeAll(keepingCapacity: true)
    // Not a shared array of zeros: appending one retained and released it for every record.
    entry.append(contentsOf: repeatElement(0, count: ListEntryLayout.headerSize))
    var idCount = 0
    var currencyCount = 0
    texts.withUnsafeBufferPointer { texts in
      let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
      let idBytes = Self.resolve(id, record, texts) ?? empty
      let currencyBytes = Self.resolve(currency, record, texts) ?? empty
      idCount = idBytes.count
      currencyCount = currencyBytes.count
      entry.append(contentsOf: idBytes)
      entry.append(contentsOf: currencyBytes)
      if let account { entry.append(contentsOf: account) }
      SummaryKeyPayload.append(
        day: decoded.day, dimension: dimension, text: Self.resolve(key, record, texts), code: code, to: &entry)
    }
    commitEntry(
      decoded, order: order, idCount: idCount, currencyCount: currencyCount, accountCount: account?.count ?? 0,
      fee: nil, totalOverflows: false)
  }

  /// Renders one kept record as an entry and adds it to the buffer.
  @inline(__always)
  private func add(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int, schemaIndex: Int, order: UInt64,
    style rowStyle: ListRowStyle, account: UnsafeBufferPointer<UInt8>?
  ) {
    texts.removeAll(keepingCapacity: true)
    let (id, currency) = idAndCurrency(decoded, record: record, position: position, schemaIndex: schemaIndex)
    let state = statePlace(decoded, record: record, schemaIndex: schemaIndex)
    let description = place(decoded.description, record)
    let category = place(decoded.category, record)
    let counterparty = place(decoded.counterparty, record)
    let sum = decoded.fee.flatMap { decoded.amount.adding($0) }
    let overflows = decoded.fee != nil && sum == nil

    entry.removeAll(keepingCapacity: true)
    entry.append(contentsOf: repeatElement(0, count: ListEntryLayout.headerSize))
    var idCount = 0
    var currencyCount = 0
    var textMarks: UInt8 = 0
    var controls = false
    texts.withUnsafeBufferPointer { texts in
      let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
      let row = RecordListRow(
        id: Self.resolve(id, record, texts) ?? empty, state: Self.resolve(state, record, texts) ?? empty,
        currency: Self.resolve(currency, record, texts) ?? empty,
        description: Self.resolve(description, record, texts), category: Self.resolve(category, record, texts),
        counterparty: Self.resolve(counterparty, record, texts), instant: decoded.instant,
        day: dayZone.day(of: decoded.instant), indicator: decoded.indicator, amount: decoded.amount, fee: decoded.fee,
        total: sum ?? decoded.amount)
      idCount = row.id.count
      currencyCount = row.currency.count
      if case .csv = rowStyle { textMarks = Self.textMarks(row) }
      entry.append(contentsOf: row.id)
      entry.append(contentsOf: row.currency)
      if let account { entry.append(contentsOf: account) }
      controls = rowStyle.append(row, to: &entry)
    }
    let rowFlags: UInt8 =
      (decoded.indicator == .credit ? ListEntryLayout.credit : 0)
      | (rowStyle == .csv ? ListEntryLayout.csvRow : ListEntryLayout.jsonRow)
      | (controls ? ListEntryLayout.csvControls : 0)
    commitEntry(
      decoded, order: order, idCount: idCount, currencyCount: currencyCount, accountCount: account?.count ?? 0,
      fee: decoded.fee, totalOverflows: overflows, rowFlags: rowFlags, textMarks: textMarks)
  }

  /// What a csv row cannot tell of its texts (`ListEntryLayout.textMarks`), for the tie-break.
  @inline(__always)
  private static func textMarks(_ row: RecordListRow) -> UInt8 {
    var marks: UInt8 = CSVReportWriter.neutralises(row.state) ? ListEntryLayout.neutralisedState : 0
    if let text = row.description {
      marks |= ListEntryLayout.hasDescription
      if CSVReportWriter.neutralises(text) { marks |= ListEntryLayout.neutralisedDescription }
    }
    if let text = row.category {
      marks |= ListEntryLayout.hasCategory
      if CSVReportWriter.neutralises(text) { marks |= ListEntryLayout.neutralisedCategory }
    }
    if let text = row.counterparty {
      marks |= ListEntryLayout.hasCounterparty
      if CSVReportWriter.neutralises(text) { marks |= ListEntryLayout.neutralisedCounterparty }
    }
    return marks
  }

  /// Fills in the header of the entry built in `entry` (its texts and payload
  /// after the zeroed header) and adds it to the buffer.
  @inline(__always)
  private func commitEntry(
    _ decoded: DecodedRecord, order: UInt64, idCount: Int, currencyCount: Int, accountCount: Int,
    fee: ExactDecimal?, totalOverflows: Bool, rowFlags: UInt8 = 0, textMarks: UInt8 = 0
  ) {
    let length = entry.count
    entry.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      ListEntryLayout.writeHeader(
        base, length: length, instant: decoded.instant, order: order, idCount: idCount,
        currencyCount: currencyCount, accountCount: accountCount, amount: decoded.amount, fee: fee,
        totalOverflows: totalOverflows, rowFlags: rowFlags, textMarks: textMarks)
    }
    entry.withUnsafeBytes { buffer.append($0) }
  }

  /// The state upper-cased as `Transaction` holds it, or the implied or schema's default.
  @inline(__always)
  private func statePlace(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, schemaIndex: Int) -> Place {
    let written = upperCased(place(decoded.state, record), record)
    if case .none = written { return place(decoded.impliedState.stateBytes(else: defaults.states[schemaIndex])) }
    return written
  }
}
