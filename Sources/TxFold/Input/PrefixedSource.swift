/// A source that first returns bytes already taken from another source, then
/// the rest of that source.
///
/// Compression is detected by peeking at an input's first bytes, and standard
/// input cannot seek back; this puts the peeked bytes in front again.
final class PrefixedSource: ByteSource {
  private let source: any ByteSource
  private let prefix: [UInt8]
  private var prefixOffset = 0

  /// The input's name for messages: the underlying source's.
  var name: String { source.name }
  /// The underlying source's count, which already includes the prefix.
  var storedBytesRead: Int64 { source.storedBytesRead }
  /// The underlying source's size when known.
  var storedSize: Int64? { source.storedSize }

  /// Returns `prefix`, then whatever `source` has left.
  init(prefix: [UInt8], wrapping source: any ByteSource) {
    self.prefix = prefix
    self.source = source
  }

  /// Copies what is left of the prefix, or reads from the source once it is used up.
  ///
  /// A read that returns prefix bytes returns only those, so it never waits on
  /// the source (a pipe) for bytes the caller may not need yet.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard prefixOffset < prefix.count else { return try source.read(into: buffer) }
    let count = min(buffer.count, prefix.count - prefixOffset)
    for index in 0..<count {
      buffer[index] = prefix[prefixOffset + index]
    }
    prefixOffset += count
    return count
  }
}
