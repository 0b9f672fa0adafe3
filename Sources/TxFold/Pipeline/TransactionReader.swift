/// Streams `Transaction` values out of dumps on one thread: the reading half
/// of `txfold list` and `txfold summary`.
///
/// It uses the same stages as `group` — `InputOpener` (gzip detected from the
/// content), `LineFramer`, `RecordDecoder` — and the same accounting
/// (`RunStats`: every record is accepted or rejected; rejections reach
/// `onRejection` in input order with their file and physical line;
/// `strict` and `maxRejects` stop the run). Unlike `group` it materialises
/// each accepted record as a `Transaction` (strings decoded), which is what
/// sorting and filtering need; one thread is plenty for that, since the
/// consumers (sorting, writing) are the slower part.
///
/// ```swift
/// let reader = TransactionReader(options: ReadOptions())
/// reader.onRejection = { print($0.message) }
/// let stats = try reader.read(paths: ["dump.jsonl.gz"]) { (transaction, position) throws(Never) in
///   print(transaction.id, transaction.amount)
/// }
/// ```
public final class TransactionReader {
  public let options: ReadOptions
  /// Called for every rejected record, in input order, before the run goes on
  /// (or stops, under `strict` / `maxRejects`).
  public var onRejection: ((RecordRejection) throws -> Void)?
  /// Called after each chunk is read, for a progress line.
  public var onProgress: ((PipelineProgress) -> Void)?

  public init(options: ReadOptions = ReadOptions()) {
    self.options = options
  }

  /// Reads files (`-` is standard input) in order as one stream of records,
  /// calling `body` with each accepted transaction and its position: the
  /// 0-based index of its record among all records of all inputs (rejected
  /// ones included), which orders "later in the input".
  ///
  /// Every input is checked to open before any is read. An error thrown by
  /// `body` stops the run and comes back as `.body`.
  /// - Complexity: O(input bytes); memory O(chunk size + record limit).
  public func read<E: Error>(paths: [String], _ body: (Transaction, Int) throws(E) -> Void)
    throws(TransactionReadError<E>) -> RunStats
  {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.open(path: path)
      } catch {
        throw .input(.input(error))
      }
    }
    var index = 0
    return try read(names: paths, body) { () throws(PipelineError) -> (any ByteSource)? in
      guard index < paths.count else { return nil }
      defer { index += 1 }
      do throws(InputError) {
        return try InputOpener.open(path: paths[index])
      } catch {
        throw .input(error)
      }
    }
  }

  /// Reads already opened sources, in order (see `read(paths:_:)`).
  public func read<E: Error>(sources: [any ByteSource], _ body: (Transaction, Int) throws(E) -> Void)
    throws(TransactionReadError<E>) -> RunStats
  {
    var index = 0
    return try read(names: sources.map(\.name), body) { () throws(PipelineError) -> (any ByteSource)? in
      guard index < sources.count else { return nil }
      defer { index += 1 }
      return sources[index]
    }
  }

  func read<E: Error>(
    names: [String], _ body: (Transaction, Int) throws(E) -> Void,
    next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(TransactionReadError<E>) -> RunStats {
    let framer = LineFramer(chunkSize: options.chunkSize, maxRecordBytes: options.maxRecordBytes)
    let decoder = RecordDecoder(schema: options.schema, allowTrailingCommas: options.allowTrailingCommas)
    var accountingOptions = GroupOptions()
    accountingOptions.strict = options.strict
    accountingOptions.maxRejects = options.maxRejects
    var accounting = ResultAccounting(options: accountingOptions, onRejection: onRejection)
    // The framer fills one chunk while it still holds the other, whose tail it copies.
    let chunks = [RecordChunk(capacity: framer.chunkCapacity), RecordChunk(capacity: framer.chunkCapacity)]
    var turn = 0
    var position = 0
    var bodyError: E?
    var stats = RunStats()
    stats.schema = options.schema.name
    var fileIndex = 0

    do throws(PipelineError) {
      while let source = try next() {
        let counting = CountingSource(source)
        let file = fileIndex
        let framing = try framer.frame(
          counting, fileIndex: fileIndex, firstChunk: chunks[turn],
          nextChunk: { () throws(PipelineError) -> RecordChunk in
            turn ^= 1
            return chunks[turn]
          }
        ) { (chunk: RecordChunk) throws(PipelineError) -> Void in
          try readChunk(
            chunk, fileName: names[file], decoder: decoder, accounting: &accounting, position: &position
          ) { (transaction, position) throws(PipelineError) in
            do throws(E) {
              try body(transaction, position)
            } catch {
              bodyError = error
              // Unwinds the framer; replaced by `bodyError` below.
              throw .rejectOutput("stopped by the consumer")
            }
          }
          onProgress?(
            PipelineProgress(
              storedBytesRead: stats.bytesRead + source.storedBytesRead,
              storedBytesTotal: names.count == 1 ? source.storedSize : nil))
        }
        if framing == .array {
          throw .unsupportedFraming(
            file: source.name, detail: "it is a JSON array; this version reads JSON lines (one object per line)")
        }
        stats.bytesRead += source.storedBytesRead
        stats.bytesDecoded += counting.count
        fileIndex += 1
      }
    } catch {
      if let bodyError { throw .body(bodyError) }
      throw .input(error)
    }
    stats.lines = accounting.records
    stats.accepted = accounting.accepted
    stats.rejected = accounting.rejected
    stats.rejectedByReason = accounting.byReason
    return stats
  }

  /// Decodes every record of one chunk, in order: accepted ones go to `emit`,
  /// rejected ones to the accounting at once (so `strict` stops right there).
  func readChunk(
    _ chunk: RecordChunk, fileName: String, decoder: RecordDecoder, accounting: inout ResultAccounting,
    position: inout Int, emit: (Transaction, Int) throws(PipelineError) -> Void
  ) throws(PipelineError) {
    func reject(_ rejection: RecordRejection) throws(PipelineError) {
      var result = ChunkResult(sequence: 0, fileIndex: chunk.fileIndex)
      result.records = 1
      result.rejections = [rejection]
      try accounting.apply(result)
    }
    if chunk.kind == .oversized {
      position += 1
      try reject(
        RecordRejection(
          reason: .recordTooLarge, field: nil,
          detail:
            "Record of \(chunk.oversizedLength) bytes is larger than the limit of \(options.maxRecordBytes) bytes",
          file: fileName, line: 1, raw: Array(chunk.bytes)))
      var done = ChunkResult(sequence: 0, fileIndex: chunk.fileIndex)
      done.physicalLines = 1
      try accounting.apply(done)
      return
    }
    let bytes = chunk.bytes
    guard let base = bytes.baseAddress else { return }
    var accepted = 0
    var line = 0
    var start = 0
    while start < bytes.count {
      line += 1
      // Safe because start < bytes.count.
      let newline =
        LineFramer.firstIndex(of: .newline, in: base + start, count: bytes.count - start).map { start + $0 }
        ?? bytes.count
      var end = newline
      if end > start && bytes[end - 1] == .carriageReturn { end -= 1 }
      let length = newline - start
      defer { start = newline + 1 }
      // Blank lines are skipped and not counted as records.
      guard bytes[start..<end].contains(where: { !$0.isJSONWhitespace }) else { continue }
      let record = UnsafeBufferPointer(rebasing: bytes[start..<end])
      let recordPosition = position
      position += 1
      if length > options.maxRecordBytes {
        try reject(
          RecordRejection(
            reason: .recordTooLarge, field: nil,
            detail: "Record of \(length) bytes is larger than the limit of \(options.maxRecordBytes) bytes",
            file: fileName, line: line, raw: RejectionDescriber.rawPrefix(record)))
        continue
      }
      switch decoder.decode(record) {
      case .success(let decoded):
        accepted += 1
        try emit(Self.materializeTransaction(decoded, record: record, decoder: decoder), recordPosition)
      case .failure(let failure):
        try reject(
          RejectionDescriber.rejection(
            for: failure, record: record, schema: decoder.schema, file: fileName, line: line))
      }
    }
    var done = ChunkResult(sequence: 0, fileIndex: chunk.fileIndex)
    done.physicalLines = line
    done.records = accepted
    done.accepted = accepted
    try accounting.apply(done)
  }

  /// Builds the `Transaction` of a decoded record. The one place that does;
  /// to be replaced by the schemas' own materialiser
  /// (`RecordDecoder.transaction(from:record:position:)`) once it exists.
  ///
  /// id, instant (as written; offset-less as UTC), signed amount, currency,
  /// indicator, state (upper-cased; the schema's default, else `COMPLETED`),
  /// description and fee come from the decoder. Category and counterparty
  /// are read from the schema's fields when the record has them as strings
  /// (a category may also be an integer, kept as its text); other values
  /// leave them `nil`.
  static func materializeTransaction(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, decoder: RecordDecoder
  ) -> Transaction {
    func text(_ ref: ValueRef) -> String {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(ref.end - ref.start)
      GroupTable.appendDecoded(ref, record, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    func optionalText(slot: Int, integers: Bool) -> String? {
      guard slot >= 0 else { return nil }
      let ref = decoder.scanner.value(slot)
      switch ref.kind {
      case .string: return text(ref)
      case .escapedString:
        var bytes: [UInt8] = []
        let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
        return StringDecoder.decode(raw, into: &bytes) ? String(decoding: bytes, as: UTF8.self) : nil
      case .number:
        guard integers, !record[ref.start..<ref.end].contains(where: { $0 == .dot || $0 | 0x20 == .lowerE }) else {
          return nil
        }
        return text(ref)
      default: return nil
      }
    }
    let schema = decoder.schema
    let state =
      decoded.state.kind == .absent
      ? (schema.defaultState ?? KnownState.completed)
      : String(decoding: Array(text(decoded.state).utf8).map(ByteStringInterner.upper), as: UTF8.self)
    let currency = decoded.currency.kind == .absent ? (schema.defaultCurrency ?? "") : text(decoded.currency)
    return Transaction(
      id: text(decoded.id), instant: decoded.instant, amount: decoded.amount, currency: currency,
      creditDebitIndicator: decoded.indicator, state: state,
      description: decoded.description.kind == .absent ? nil : text(decoded.description),
      category: optionalText(slot: schema.categorySlot, integers: true),
      counterparty: optionalText(slot: schema.counterpartySlot, integers: false), fee: decoded.fee)
  }
}
