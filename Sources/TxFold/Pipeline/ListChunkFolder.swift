/// A parallel `list` worker: decodes the records of a chunk straight from
/// its bytes, applies the run's filter on the decoded bytes
/// (`RecordSelection`), renders each kept record's output row
/// (`ListRowRenderer`) and adds it, with its sort key and what the sum line
/// needs, as one entry (`ListEntryLayout`) to the worker's `ListRunBuffer`.
/// Past its share of the memory limit the buffer is sorted and written out
/// as a run (`ListRunStore`), or, when only the first `keepFirst` entries
/// will be read, cut to them.
///
/// Texts are the bytes `Transaction` would hold (`RecordDecoder.transaction`):
/// the id decoded, or the record's position; the state upper-cased (ASCII),
/// or the implied or schema's default; the currency as written, or the
/// schema's default. No `String` per record: the texts go through one reused buffer.
final class ListChunkFolder {
  let worker: Int
  let schemas: [RecordSchema]
  private var decoders: [RecordDecoder?]
  let readZone: ZoneResolver
  /// The zone of each row's `date` (the report's).
  let dayZone: ZoneResolver
  let allowTrailingCommas: Bool
  let fileNames: [String]
  let classifier: RecordClassifier
  let selection: RecordSelection?
  let renderer: ListRowRenderer
  let buffer: ListRunBuffer
  let store: ListRunStore
  let keepFirst: Int?
  /// With `keepFirst`: the entries at which the buffer is cut to them, as `ExternalSorter` does.
  let cutCount: Int
  /// Per schema: its default state and currency as `Transaction` would take them.
  let defaultStates: [[UInt8]]
  let defaultCurrencies: [[UInt8]]
  /// Per schema: the same upper-cased, for the selection.
  let selectionStates: [[UInt8]]
  let selectionCurrencies: [[UInt8]]
  @exclusivity(unchecked) private var texts: [UInt8] = []
  @exclusivity(unchecked) private var entry: [UInt8] = []
  /// A spill that failed; reported with the next chunk's result.
  @exclusivity(unchecked) private var failure: SpillError?

  init(
    worker: Int, options: ListOptions, read: ReadOptions, style: ListRowRenderer.Style, dayZone: ZoneResolver,
    fileNames: [String], budget: Int, store: ListRunStore
  ) {
    self.worker = worker
    schemas = read.schemaCandidates
    decoders = Array(repeating: nil, count: schemas.count)
    readZone = read.zone
    self.dayZone = dayZone
    allowTrailingCommas = read.allowTrailingCommas
    self.fileNames = fileNames
    classifier = RecordClassifier(options: read, schemas: schemas)
    selection = RecordSelection(options.filter)
    renderer = ListRowRenderer(style: style)
    buffer = ListRunBuffer(budget: budget)
    self.store = store
    keepFirst = options.page.end
    cutCount =
      options.page.end.map { end in
        let (count, overflow) = end.addingReportingOverflow(max(end, 4096))
        return overflow ? -1 : count
      } ?? -1
    defaultStates = schemas.map { Array(($0.defaultState ?? KnownState.completed).utf8) }
    defaultCurrencies = schemas.map { Array(($0.defaultCurrency ?? RecordSchema.standardCurrency).utf8) }
    selectionStates = defaultStates.map { $0.map(ByteStringInterner.upper) }
    selectionCurrencies = defaultCurrencies.map { $0.map(ByteStringInterner.upper) }
    texts.reserveCapacity(1024)
    entry.reserveCapacity(4096)
  }

  /// The decoder for `schemas[index]`.
  func decoder(_ index: Int) -> RecordDecoder {
    if let decoder = decoders[index] { return decoder }
    let decoder = RecordDecoder(schema: schemas[index], zone: readZone, allowTrailingCommas: allowTrailingCommas)
    decoders[index] = decoder
    return decoder
  }

  private static let zeroHeader = [UInt8](repeating: 0, count: ListEntryLayout.headerSize)
  static let pending = Array(KnownState.pending.utf8)
  static let completed = Array(KnownState.completed.utf8)

  /// Decodes, selects and renders every record of `chunk` into the buffer.
  ///
  /// - Complexity: O(n) in the chunk's bytes, plus a sort of the buffer when
  ///   it is full; allocates for rejections, never per record.
  func fold(_ chunk: RecordChunk) -> ChunkResult {
    var result = ChunkResult(sequence: chunk.sequence, fileIndex: chunk.fileIndex)
    let schemaIndex = chunk.schemaIndex
    let decoder = decoder(schemaIndex)
    var decoded = DecodedRecord()
    var index = 0
    result.physicalLines = classifier.classify(
      chunk, decoder: decoder, file: fileNames[chunk.fileIndex], fileAccount: UnsafeBufferPointer(start: nil, count: 0),
      decoded: &decoded,
      accepted: { record, decoded, _ in
        index += 1
        result.records += 1
        result.accepted += 1
        if let selection {
          let state: [UInt8] =
            switch decoded.impliedState {
            case .none: selectionStates[schemaIndex]
            case .pending: Self.pending
            case .completed: Self.completed
            }
          guard
            selection.matches(
              decoded, record: record.bytes, state: state, currency: selectionCurrencies[schemaIndex],
              position: record.position)
          else { return }
        }
        result.selected += 1
        add(
          decoded, record: record.bytes, position: record.position, schemaIndex: schemaIndex,
          order: ListEntryLayout.order(sequence: chunk.sequence, index: index))
        if buffer.isFull || buffer.count == cutCount { relieve(sequence: chunk.sequence) }
      },
      rejected: { rejection in
        index += 1
        result.records += 1
        result.rejections.append(rejection)
      })
    if let failure {
      result.spillFailure = failure
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
      try store.spill(buffer, order: sequence)
    } catch {
      if failure == nil { failure = error }
      buffer.removeAll()
    }
  }

  /// Appends a value's text to `texts` as `RecordDecoder.text` gives it (a
  /// string decoded, a number as written); `nil` when it has none.
  @inline(__always)
  private func text(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    let start = texts.count
    switch ref.kind {
    case .string, .number:
      texts.append(contentsOf: UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]))
    case .escapedString:
      guard StringDecoder.decode(UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]), into: &texts) else {
        texts.removeSubrange(start...)
        return nil
      }
    default:
      return nil
    }
    return start..<texts.count
  }

  /// Appends `bytes` to `texts`.
  @inline(__always)
  private func text(_ bytes: [UInt8]) -> Range<Int> {
    let start = texts.count
    texts.append(contentsOf: bytes)
    return start..<texts.count
  }

  /// Renders one kept record as an entry and adds it to the buffer.
  @inline(__always)
  private func add(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int, schemaIndex: Int, order: UInt64
  ) {
    texts.removeAll(keepingCapacity: true)
    let id: Range<Int>
    if let written = text(decoded.id, record) {
      id = written
    } else {
      let start = texts.count
      RecordExtender.appendDecimal(position, to: &texts)
      id = start..<texts.count
    }
    let currency = text(decoded.currency, record) ?? text(defaultCurrencies[schemaIndex])
    let state: Range<Int>
    if let written = text(decoded.state, record) {
      for index in written { texts[index] = texts[index] &- .lowerA < 26 ? texts[index] &- 32 : texts[index] }
      state = written
    } else {
      switch decoded.impliedState {
      case .none: state = text(defaultStates[schemaIndex])
      case .pending: state = text(Self.pending)
      case .completed: state = text(Self.completed)
      }
    }
    let fields = ListRowRenderer.Fields(
      id: id, state: state, currency: currency, description: text(decoded.description, record),
      category: text(decoded.category, record), counterparty: text(decoded.counterparty, record))
    let sum = decoded.fee.flatMap { decoded.amount.adding($0) }
    let overflows = decoded.fee != nil && sum == nil
    let values = ListRowRenderer.Values(
      instant: decoded.instant, day: dayZone.day(of: decoded.instant), indicator: decoded.indicator,
      amount: decoded.amount, fee: decoded.fee, total: sum ?? decoded.amount)

    entry.removeAll(keepingCapacity: true)
    entry.append(contentsOf: Self.zeroHeader)
    texts.withUnsafeBufferPointer { texts in
      entry.append(contentsOf: UnsafeBufferPointer(rebasing: texts[id]))
      entry.append(contentsOf: UnsafeBufferPointer(rebasing: texts[currency]))
      renderer.append(texts: texts, fields: fields, values: values, to: &entry)
    }
    let length = entry.count
    entry.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      ListEntryLayout.writeHeader(
        base, length: length, instant: decoded.instant, order: order, idCount: id.count,
        currencyCount: currency.count, amount: decoded.amount, fee: decoded.fee, totalOverflows: overflows)
    }
    entry.withUnsafeBytes { buffer.append($0) }
  }
}
