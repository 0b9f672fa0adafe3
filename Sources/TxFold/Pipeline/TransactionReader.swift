/// Reads inputs on the calling thread and materialises every accepted record
/// as a `Transaction`: the same framing, schema choice and rejections as
/// `GroupPipeline`, for jobs that need whole transactions (`list`,
/// `summary`) or a library caller with a small file.
///
/// ```swift
/// let reader = TransactionReader(options: GroupOptions())
/// let stats = try reader.read(paths: ["PBTransactions.json"]) { transaction, place in
///   print(place.position, transaction.id, transaction.amount)
/// } onRejection: { rejection in
///   print(rejection.message)
/// }
/// ```
///
/// - Complexity: O(input bytes); memory O(chunk size), plus what `body` keeps.
public final class TransactionReader {
  public let options: GroupOptions

  /// Where a transaction was read.
  public struct Place: Sendable, Hashable {
    /// The input, by its index in the list read.
    public var fileIndex: Int
    /// The record's 1-based position in that input (rejected records count).
    public var position: Int
  }

  public init(options: GroupOptions) {
    var adjusted = options
    adjusted.countPositions = true
    self.options = adjusted
  }

  /// Reads files (`-` is standard input) in order, as `GroupPipeline.run(paths:)` does.
  public func read(
    paths: [String], _ body: (Transaction, Place) -> Void, onRejection: (RecordRejection) -> Void = { _ in }
  ) throws(PipelineError) -> RunStats {
    var sources: [any ByteSource] = []
    for path in paths {
      do throws(InputError) {
        sources.append(try InputOpener.open(path: path))
      } catch {
        throw .input(error)
      }
    }
    return try read(sources: sources, body, onRejection: onRejection)
  }

  /// Reads already opened sources in order; `body` gets each accepted
  /// transaction and `onRejection` each rejected record, in input order.
  public func read(
    sources: [any ByteSource], _ body: (Transaction, Place) -> Void,
    onRejection: (RecordRejection) -> Void = { _ in }
  ) throws(PipelineError) -> RunStats {
    let framer = InputFramer(
      chunkSize: options.chunkSize, maxRecordBytes: options.maxRecordBytes, itemsPath: options.itemsPath,
      allowTrailingCommas: options.allowTrailingCommas)
    let schemas = options.schemaCandidates
    let rejector = RecordRejector(options: options, schemas: schemas)
    var decoders: [RecordDecoder?] = Array(repeating: nil, count: schemas.count)
    var choice = SchemaChoice(options: options)
    let chunks = [RecordChunk(capacity: framer.chunkCapacity), RecordChunk(capacity: framer.chunkCapacity)]
    var turn = 0
    var stats = RunStats()
    for (fileIndex, source) in sources.enumerated() {
      let counting = CountingSource(source)
      var lineBase = 0
      choice.startInput()
      let outcome = try framer.frame(
        counting, fileIndex: fileIndex, firstChunk: chunks[0],
        nextChunk: { () throws(PipelineError) -> RecordChunk in
          turn ^= 1
          return chunks[turn]
        }
      ) { (chunk: RecordChunk, hint: String?) throws(PipelineError) in
        choice.stamp(chunk, wrapperHint: hint)
        let decoder =
          decoders[chunk.schemaIndex]
          ?? RecordDecoder(
            schema: schemas[chunk.schemaIndex], zone: options.zone, allowTrailingCommas: options.allowTrailingCommas)
        decoders[chunk.schemaIndex] = decoder
        var seen = 0
        func reject(_ rejection: RecordRejection) {
          var placed = rejection
          placed.line += lineBase
          stats.rejected += 1
          stats.rejectedByReason[placed.reason, default: 0] += 1
          onRejection(placed)
        }
        lineBase += chunk.forEachRecord(maxRecordBytes: options.maxRecordBytes) { record in
          seen += 1
          stats.lines += 1
          if record.problem != .none {
            reject(rejector.rejection(for: record, file: source.name))
          } else if seen <= chunk.undecidedRecords {
            reject(rejector.rejectionBeforeSchema(record, decoder: decoder, file: source.name))
          } else {
            switch decoder.decode(record.bytes, impliedState: record.impliedState) {
            case .success(let decoded):
              stats.accepted += 1
              body(
                decoder.transaction(from: decoded, record: record.bytes, position: record.position),
                Place(fileIndex: fileIndex, position: record.position))
            case .failure(let failure):
              reject(
                RejectionDescriber.rejection(
                  for: failure, record: record.bytes, schema: decoder.schema, file: source.name, line: record.line))
            }
          }
        }
      }
      choice.finishInput(wrapperHint: outcome.schemaHint)
      stats.bytesRead += source.storedBytesRead
      stats.bytesDecoded += counting.count
    }
    stats.schema = choice.summary
    return stats
  }
}
