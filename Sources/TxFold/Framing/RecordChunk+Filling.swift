// What both framers do to a chunk between looking for record ends: read more
// input into it, and hand the open record at its end on to the next chunk.

extension RecordChunk {
  /// Reads from `source` into the buffer at `offset`, at most `limit` bytes
  /// (less where the buffer ends); returns how many, 0 at the input's end.
  @inline(__always)
  func read(from source: any ByteSource, at offset: Int, upTo limit: Int) throws(InputError) -> Int {
    let room = min(limit, storage.count - offset)
    return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[offset..<(offset + room)]))
  }

  /// Reads at most `limit` more bytes from `source` after the chunk's bytes;
  /// false when the source has ended (or the buffer is full, which the
  /// framers' record limits rule out).
  @inline(__always)
  func fill(from source: any ByteSource, upTo limit: Int) throws(InputError) -> Bool {
    let read = try read(from: source, at: count, upTo: limit)
    count += read
    return read > 0
  }

  /// Keeps the first `cut` bytes and moves the rest — the record still open
  /// at the chunk's end — to the front of `next`, which is reset to hold
  /// `kind` records of input `fileIndex`, its input offset `cut` bytes on.
  @inline(__always)
  func moveTail(from cut: Int, to next: RecordChunk, kind: Kind, fileIndex: Int) {
    next.reset(kind: kind, fileIndex: fileIndex)
    next.inputOffset = inputOffset + Int64(cut)
    next.count = count - cut
    if next.count > 0 {
      // Safe because the tail is at most one record limit plus one read, which fits.
      next.base.update(from: base + cut, count: next.count)
    }
    count = cut
  }
}
