/// The flush rule every streaming writer follows (reports, lists, partial state): bytes collect
/// in one buffer that is handed on whenever it passes `threshold`, so memory stays bounded by
/// the threshold plus one group, whatever the report's size.
enum BufferFlushing {
  /// The buffer size past which a writer hands its bytes on.
  static let threshold = 64 * 1024

  /// Hands `buffer` to `flush` and empties it once it has passed `threshold`.
  @inline(__always)
  static func flushIfFull<E: Error>(
    _ buffer: inout [UInt8], _ flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    if buffer.count >= threshold {
      try flush(&buffer)
      buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Everything `write` flushes, as one array: the one way the `…ToBytes`
  /// conveniences (tests, small reports) turn a streaming writer into bytes.
  static func collect<E: Error>(_ write: (_ flush: (inout [UInt8]) -> Void) throws(E) -> Void) throws(E) -> [UInt8] {
    var result: [UInt8] = []
    try write { chunk in
      result.append(contentsOf: chunk)
      chunk.removeAll(keepingCapacity: true)
    }
    return result
  }
}
