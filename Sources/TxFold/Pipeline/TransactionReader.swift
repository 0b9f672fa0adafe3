/// Streams `Transaction` values out of dumps on one thread: the reading half
/// of `txfold list` and `txfold summary`.
///
/// It uses the same stages as `group` — `InputOpener` (gzip detected from the
/// content), `InputFramer` (JSON lines, arrays, wrappers), the schema choice,
/// `RecordDecoder` — and the same accounting
/// (`RunStats`: every record is accepted or rejected; rejections reach
/// `onRejection` in input order with their file and physical line;
/// `strict` and `maxRejects` stop the run). Unlike `group` it materialises
/// each accepted record as a `Transaction` (strings decoded), which is what
/// sorting and filtering need; one thread is plenty for that, since the
/// consumers (sorting, writing) are the slower part. With `options.accounts`
/// set, each transaction carries its account (`Transaction.account`): the
/// decoded `account` field, or the input file's name up to its first `.`.
///
/// ```swift
/// let reader = TransactionReader(options: ReadOptions())
/// reader.onRejection = { print($0.message) }
/// let stats = try reader.read(paths: ["dump.jsonl.gz"]) { (transaction, position) throws(Never) in
///   print(transaction.id, transaction.amount)
/// }
/// ```
public final class TransactionReader {
  /// The options every read uses.
  public let options: ReadOptions
  /// Called for every rejected record, in input order, before the run goes on
  /// (or stops, under `strict` / `maxRejects`).
  public var onRejection: ((RecordRejection) throws -> Void)?
  /// Called after each chunk is read, for a progress line (and as a later read begins, `PipelineProgress.secondRead`).
  public var onProgress: ((PipelineProgress) -> Void)?

  /// Creates a reader; nothing is read until a `read`.
  public init(options: ReadOptions = ReadOptions()) {
    self.options = options
  }

  /// A reader that reports rejections and progress to the given callbacks,
  /// as the `list` and `summary` pipelines set theirs up.
  public convenience init(
    options: ReadOptions, onRejection: ((RecordRejection) throws -> Void)?,
    onProgress: ((PipelineProgress) -> Void)?
  ) {
    self.init(options: options)
    self.onRejection = onRejection
    self.onProgress = onProgress
  }

  /// Reads files (`-` is standard input) in order as one stream of records,
  /// calling `body` with each accepted transaction and its position: the
  /// 0-based index of its record among all records of all inputs (rejected
  /// ones included), which orders "later in the input".
  ///
  /// Every input is checked to open before any is read.
  /// - Throws: a `PipelineError` when reading fails, or the error `body`
  ///   threw, as it is: either stops the run.
  /// - Complexity: O(input bytes); memory O(chunk size + record limit).
  public func read(paths: [String], _ body: (Transaction, Int) throws -> Void) throws -> RunStats {
    do throws(TransactionReadError<any Error>) {
      return try read(typedPaths: paths, body)
    } catch {
      throw error.unwrapped
    }
  }

  /// Reads already opened sources, in order (see `read(paths:_:)`).
  public func read(sources: [any ByteSource], _ body: (Transaction, Int) throws -> Void) throws -> RunStats {
    do throws(TransactionReadError<any Error>) {
      return try read(typedSources: sources, body)
    } catch {
      throw error.unwrapped
    }
  }

  /// `read(paths:_:)`, with the reading's failure and `body`'s told apart by type.
  package func read<E: Error>(typedPaths paths: [String], _ body: (Transaction, Int) throws(E) -> Void)
    throws(TransactionReadError<E>) -> RunStats
  {
    var inputs: RunInputs
    do throws(PipelineError) {
      inputs = try RunInputs(paths: paths)
    } catch {
      throw .input(error)
    }
    return try read(names: inputs.names, body) { () throws(PipelineError) in try inputs.next() }
  }

  /// `read(sources:_:)`, with the reading's failure and `body`'s told apart by type.
  package func read<E: Error>(typedSources sources: [any ByteSource], _ body: (Transaction, Int) throws(E) -> Void)
    throws(TransactionReadError<E>) -> RunStats
  {
    var inputs = RunInputs(sources: sources)
    return try read(names: inputs.names, body) { () throws(PipelineError) in try inputs.next() }
  }

  func read<E: Error>(
    names: [String], _ body: (Transaction, Int) throws(E) -> Void,
    next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(TransactionReadError<E>) -> RunStats {
    var read = options
    // Records without an id take their position, which the reader needs for every schema.
    read.countPositions = true
    var decoders = SchemaDecoders(read: read)
    let classifier = RecordClassifier(options: read, schemas: decoders.schemas)
    let run = ChunkRun(read: read, names: names, onRejection: onRejection, onProgress: onProgress)
    var position = 0
    var decoded = DecodedRecord()
    var events: [ReadEvent] = []
    // The account of the current input's records (`AccountSource.fileName`).
    var accountFile = -1
    var fileAccount: [UInt8] = []
    // The reading stage's own failure (an input, `strict`, `maxRejects`, the
    // rejection callback) as the reader's error.
    func reading<T>(_ step: @autoclosure () throws(PipelineError) -> T) throws(TransactionReadError<E>) -> T {
      do throws(PipelineError) {
        return try step()
      } catch {
        throw .input(error)
      }
    }

    // No workers: each chunk is decoded here, as it is framed.
    try run.read(next: next) {
      (chunk: RecordChunk, accounting: inout ResultAccounting) throws(TransactionReadError<E>) -> Void in
      let fileName = names[chunk.fileIndex]
      if chunk.fileIndex != accountFile {
        accountFile = chunk.fileIndex
        fileAccount = read.accounts == .fileName ? ChunkFolder.accountBytes(ofFile: fileName) : []
      }
      let decoder = decoders.decoder(chunk.schemaIndex)
      // Decode the chunk first, then hand its results on in order, so a
      // `strict` stop or a consumer's error happens at the right record.
      events.removeAll(keepingCapacity: true)
      let physicalLines = fileAccount.withUnsafeBufferPointer { fileAccount in
        classifier.classify(
          chunk, decoder: decoder, file: fileName, fileAccount: fileAccount, decoded: &decoded,
          accepted: { record, decoded, account in
            var transaction = decoder.transaction(
              from: decoded, record: record.bytes, position: record.framing.position)
            if let account { transaction.account = String(decoding: account, as: UTF8.self) }
            events.append(.accepted(transaction))
          },
          rejected: { events.append(.rejected($0)) })
      }
      var accepted = 0
      for event in events {
        switch event {
        case .accepted(let transaction):
          accepted += 1
          do throws(E) {
            try body(transaction, position)
          } catch {
            throw .body(error, file: fileName)
          }
        case .rejected(let rejection):
          try reading(accounting.reject(rejection, fileIndex: chunk.fileIndex))
        }
        position += 1
      }
      accounting.finishChunk(fileIndex: chunk.fileIndex, accepted: accepted, physicalLines: physicalLines)
    }
    let stats = run.settle()
    do throws(PipelineError) {
      try run.judge()
    } catch {
      throw .input(error)
    }
    return stats
  }

  /// One record's outcome, kept until its chunk is decoded.
  enum ReadEvent {
    case accepted(Transaction)
    case rejected(RecordRejection)
  }
}
