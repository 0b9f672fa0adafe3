/// Cuts a stream of length-prefixed records (each a little-endian `u32`
/// length, then that many bytes) into `.elements` chunks: what a nightly
/// run's second pass reads, tonight's state record by record, so that no
/// record is written as JSON only to be scanned again.
///
/// Not for inputs: only a run that asks for it (`InputFramer.lengthPrefixed`)
/// frames this way, never one whose bytes merely look like it. The records
/// come from the run itself, so a record longer than the chunk can hold, or
/// a stream that ends inside one, fails the read instead of being rejected:
/// it is never dropped.
struct LengthPrefixedFramer {
  let limits: RecordLimits

  /// Reads `source` to its end, calling `emit` with each filled chunk and
  /// `nextChunk` for an empty one to fill next. `name` is the source's, for messages.
  /// `emit` takes ownership of the chunk it is given.
  ///
  /// - Complexity: O(n) in the stream's bytes; each byte is copied once, by the read.
  func frame<Failure: FramingFailure>(
    _ source: any ByteSource, name: String, fileIndex: Int, firstChunk: RecordChunk,
    nextChunk: () throws(Failure) -> RecordChunk,
    emit: (RecordChunk) throws(Failure) -> Void
  ) throws(Failure) {
    var chunk = firstChunk
    chunk.reset(kind: .elements, fileIndex: fileIndex)
    var position = 0
    // Where `chunk`'s first byte is in the stream.
    var chunkOffset: Int64 = 0
    // Bytes of `chunk` already split into records.
    var framed = 0
    var ended = false
    while true {
      let base = chunk.base
      while chunk.count - framed >= 4 {
        let length = Int(UInt32(littleEndian: UnsafeRawPointer(base + framed).loadUnaligned(as: UInt32.self)))
        // A record within the limit fits in a chunk it starts (`RecordLimits.chunkCapacity`).
        guard length <= limits.maxRecordBytes else {
          throw .reading(
            .readFailed(
              path: name,
              reason: "a record of \(length) bytes is longer than maxRecordBytes (\(limits.maxRecordBytes))"
            ))
        }
        guard chunk.count - framed - 4 >= length else { break }
        position += 1
        chunk.spans.append(
          RecordSpan(
            start: framed + 4, end: framed + 4 + length,
            framing: RecordFraming(line: position, position: position, offset: chunkOffset + Int64(framed))))
        framed += 4 + length
      }
      if ended {
        guard framed == chunk.count else {
          throw .reading(.readFailed(path: name, reason: "it ends inside a record"))
        }
        if !chunk.spans.isEmpty { try emit(chunk) }
        return
      }
      // A chunk goes on once it holds a read's worth of records, or is full.
      if framed > 0 && (framed >= limits.chunkSize || chunk.count == chunk.storage.count) {
        let next = try nextChunk()
        // The tail fits: it is one record, shorter than a chunk.
        chunk.moveTail(from: framed, to: next, kind: .elements, fileIndex: fileIndex)
        try emit(chunk)
        chunk = next
        chunkOffset += Int64(framed)
        framed = 0
      }
      if try !Failure.catchingRead(try chunk.fill(from: source, upTo: limits.chunkSize)) { ended = true }
    }
  }
}
