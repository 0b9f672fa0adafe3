import Foundation

/// Opens inputs and detects their compression from their content.
///
/// An input whose first two bytes are the gzip magic `1f 8b` is inflated;
/// anything else (including an empty input) is read as it is. The file name
/// plays no part: a plain file named `dump.gz` is read as plain text, and a
/// gzip stream on standard input is inflated.
public enum InputOpener {
  /// The first two bytes of a gzip stream.
  private static let gzipMagic: [UInt8] = [0x1f, 0x8b]

  /// Opens `path` (`-` for standard input), inflating it when it is gzip.
  ///
  /// - Throws: `InputError.cannotOpen` when the file cannot be opened or is a
  ///   directory; `InputError.readFailed` when its first bytes cannot be read.
  public static func open(path: String) throws(InputError) -> any ByteSource {
    try detectCompression(FileSource.open(path: path))
  }

  /// Reads from an open descriptor, inflating it when it is gzip.
  ///
  /// - Parameters:
  ///   - fileDescriptor: An open descriptor positioned at the input's start.
  ///   - name: The input's name for messages.
  ///   - closeOnDeinit: Whether the returned source owns the descriptor.
  /// - Throws: `InputError.readFailed` when its first bytes cannot be read.
  public static func open(
    fileDescriptor: Int32, name: String, closeOnDeinit: Bool = false
  ) throws(InputError) -> any ByteSource {
    try detectCompression(FileSource(fileDescriptor: fileDescriptor, name: name, closeOnDeinit: closeOnDeinit))
  }

  /// Reads bytes in memory, inflating them when they are gzip.
  public static func open(bytes: [UInt8], name: String) throws(InputError) -> any ByteSource {
    try detectCompression(MemorySource(bytes: bytes, name: name))
  }

  /// Reads `Data` in memory (a `URLSession` response body), inflating it when it is gzip.
  public static func open(data: Data, name: String) throws(InputError) -> any ByteSource {
    try detectCompression(MemorySource(data: data, name: name))
  }

  /// Peeks at the first two bytes of `source` and wraps it accordingly.
  static func detectCompression(_ source: any ByteSource) throws(InputError) -> any ByteSource {
    let peek = UnsafeMutableRawBufferPointer.allocate(byteCount: gzipMagic.count, alignment: 1)
    defer { peek.deallocate() }
    var count = 0
    // A pipe may deliver one byte at a time; keep reading until both magic
    // bytes are here or the input has ended.
    while count < peek.count {
      let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: peek[count...]))
      if read == 0 { break }
      count += read
    }
    let prefix = Array(peek[0..<count])
    let prefixed = PrefixedSource(prefix: prefix, wrapping: source)
    if prefix == gzipMagic {
      return try GzipSource(wrapping: prefixed)
    }
    return prefixed
  }
}
