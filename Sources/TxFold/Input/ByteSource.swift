/// A source of raw input bytes: a file, standard input, or a decompressor over one.
///
/// Sources are read by one thread at a time (the pipeline's reader), so they
/// are classes with mutable state and no locking.
public protocol ByteSource: AnyObject {
  /// The input's name for messages (`-` for standard input).
  var name: String { get }
  /// Reads up to `buffer.count` bytes into `buffer` and returns how many were
  /// read; returns 0 only at the end of the input.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
  /// Bytes taken from the underlying storage so far (compressed bytes for gzip).
  var storedBytesRead: Int64 { get }
  /// The size of the underlying storage when known (a regular file), for progress.
  var storedSize: Int64? { get }
}

/// Why reading an input failed. The CLI maps `cannotOpen` to exit 66 and the
/// rest to exit 74.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input cannot be opened (missing, a directory, no permission).
  case cannotOpen(path: String, reason: String)
  /// A read failed after the input was opened.
  case readFailed(path: String, reason: String)
  /// The gzip stream ends before its end marker.
  case gzipTruncated(path: String)
  /// The gzip stream is damaged (bad header, bad data, bad CRC or length, trailing garbage).
  case gzipCorrupt(path: String, reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): return "Cannot open '\(path)': \(reason)."
    case .readFailed(let path, let reason): return "Read error in '\(path)': \(reason)."
    case .gzipTruncated(let path):
      return "Truncated gzip stream in '\(path)': the file ends before the compressed data does."
    case .gzipCorrupt(let path, let reason): return "Corrupt gzip stream in '\(path)': \(reason)."
    }
  }
}
