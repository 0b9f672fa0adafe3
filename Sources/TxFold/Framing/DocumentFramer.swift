/// Cuts one input that is a JSON array (or a document wrapping arrays of
/// records) into chunks of whole elements, on the reader thread.
///
/// A `DocumentWalker` follows the structure as bytes arrive; each chunk holds
/// the bytes read and, in `spans`, where each complete element is, the line it
/// starts on and its position. Workers decode elements exactly as they decode
/// lines. An element still open at the end of a read is carried into the next
/// chunk; bytes outside elements (separators, the wrapper) are not carried.
/// An element that grows past `maxRecordBytes` keeps only its first bytes
/// (for the rejection) and the rest is walked and dropped, so memory stays
/// bounded by `chunkSize + maxRecordBytes` per chunk whatever the input.
///
/// The input ending inside an element, an array or the document is reported
/// as one more record, `.truncated`, which fails the run with
/// `InputError.truncatedInput` (`ResultAccounting`): never a silently shorter report.
struct DocumentFramer {
  /// Bytes read per `read` call, and the longest element kept whole.
  let limits: RecordLimits
  var chunkSize: Int { limits.chunkSize }
  var maxRecordBytes: Int { limits.maxRecordBytes }
  /// The `--items` path, split at dots; `nil` for the recognised wrappers.
  let itemsPath: [String]?
  /// Whether `,]` closes an array of records without a rejection.
  let allowTrailingCommas: Bool

  init(limits: RecordLimits, itemsPath: [String]?, allowTrailingCommas: Bool) {
    self.limits = limits
    self.itemsPath = itemsPath
    self.allowTrailingCommas = allowTrailingCommas
  }

  /// A walker configured for this framer, starting at `firstLine`, `offset` bytes into its input.
  func makeWalker(firstLine: Int, offset: Int64 = 0) -> DocumentWalker {
    DocumentWalker(
      itemsPath: itemsPath.map { $0.map { Array($0.utf8) } }, allowTrailingCommas: allowTrailingCommas,
      maxRecordBytes: maxRecordBytes, firstLine: firstLine, offset: offset)
  }

  /// What framing one input found.
  struct Outcome: Sendable, Equatable {
    /// The first recognised wrapper's kind, if any.
    var wrapper: RecordWrapper?
    /// Records (spans) in the input.
    var records: Int
  }

  /// Reads `source` to its end, starting with the bytes already in
  /// `firstChunk` (which begin at the document's first byte, on line
  /// `firstLine`, `offset` bytes into the input), calling `emit` with each chunk that holds complete
  /// elements and `nextChunk` for an empty one to fill next.
  ///
  /// `emit` takes ownership of the chunk it is given; `emit` also gets
  /// the kind of the first wrapper found so far.
  func frame<Failure: FramingFailure>(
    _ source: any ByteSource, fileIndex: Int, firstChunk: RecordChunk, firstLine: Int, offset: Int64 = 0,
    nextChunk: () throws(Failure) -> RecordChunk,
    emit: (RecordChunk, _ wrapper: RecordWrapper?) throws(Failure) -> Void
  ) throws(Failure) -> Outcome {
    var walker = makeWalker(firstLine: firstLine, offset: offset)
    var chunk = firstChunk
    let carried = chunk.count
    chunk.reset(kind: .elements, fileIndex: fileIndex)
    chunk.count = carried
    var walked = 0
    var ended = false
    while true {
      // Safe because the storage is bound to UInt8 and `count` never exceeds it.
      let base = UnsafePointer(chunk.base)
      _ = walker.walk(base, from: walked, to: chunk.count, spans: &chunk.spans)
      walked = chunk.count
      if ended {
        walker.finish(at: chunk.count, spans: &chunk.spans)
        chunk.wrapperAccounts = walker.takeAccounts()
        if !chunk.spans.isEmpty { try emit(chunk, walker.wrapper) }
        return Outcome(wrapper: walker.wrapper, records: walker.position)
      }
      walker.trimOversizedRecord(count: &chunk.count)
      walked = chunk.count
      if !chunk.spans.isEmpty {
        // Hand over the complete elements; carry the open one.
        let cut = walker.recordOpen ? walker.recordStart : chunk.count
        let next = try nextChunk()
        // The open element is at most `maxRecordBytes` long, which fits.
        chunk.moveTail(from: cut, to: next, kind: .elements, fileIndex: fileIndex)
        chunk.wrapperAccounts = walker.takeAccounts()
        try emit(chunk, walker.wrapper)
        chunk = next
        walker.relocate(by: cut)
        walked = chunk.count
      } else if !walker.recordOpen {
        // Nothing here belongs to a record: separators and wrapper text.
        walker.relocate(by: chunk.count)
        chunk.count = 0
        walked = 0
      } else if walker.recordStart > 0 {
        let start = walker.recordStart
        let mutableBase = chunk.base
        mutableBase.update(from: mutableBase + start, count: chunk.count - start)
        chunk.count -= start
        walker.relocate(by: start)
        walked = chunk.count
      }
      if try !Failure.catchingRead(try chunk.fill(from: source, upTo: chunkSize)) { ended = true }
    }
  }
}
