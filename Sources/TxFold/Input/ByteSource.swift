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
  /// Bytes taken from the underlying storage so far (compressed bytes for gzip and zstd).
  var storedBytesRead: Int64 { get }
  /// The size of the underlying storage when known (a regular file), for progress.
  var storedSize: Int64? { get }
}

/// Why reading an input failed. The CLI maps `cannotOpen` to exit 66,
/// `unsupportedCompression` and `notTransactions` to 65 (a data error: the
/// wrong file for the job) and the rest to exit 74.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input cannot be opened (missing, a directory, no permission).
  case cannotOpen(path: String, reason: String)
  /// A read failed after the input was opened.
  case readFailed(path: String, reason: String)
  /// The gzip stream ends before its end marker.
  case gzipTruncated(path: String)
  /// The gzip stream is damaged (bad header, bad data, bad CRC or length, trailing garbage).
  case gzipCorrupt(path: String, reason: String)
  /// The zstd stream ends inside a frame.
  case zstdTruncated(path: String)
  /// The zstd stream is damaged (bad frame header or block, bad checksum, a window larger
  /// than `ZstdSource.windowLogMax` allows, a frame needing a dictionary, trailing garbage).
  case zstdCorrupt(path: String, reason: String)
  /// The input is compressed in a format TxFold does not read (`format`:
  /// `bzip2`, `xz`, `zip`, `lz4`): it must be decompressed first.
  case unsupportedCompression(path: String, format: String)
  /// The input is one of TxFold's own files that hold no transactions (`format`: `state`, a
  /// `NightlyState` file, or `partial`, a partial state to merge): it goes where such a file goes.
  case notTransactions(path: String, format: String)
  /// The input ends inside a record (JSON lines: a last line without its
  /// newline that is not complete JSON), or inside a JSON array or document
  /// never closed (`insideDocument`): a file cut off mid-write, or still being
  /// written. `line` is the physical line of the cut record, or the last line.
  case truncatedInput(path: String, line: Int, insideDocument: Bool)

  /// The sentence the CLI prints: which input and what went wrong.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): return "Cannot open '\(path)': \(reason)."
    case .readFailed(let path, let reason): return "Read error in '\(path)': \(reason)."
    case .gzipTruncated(let path):
      return "Truncated gzip stream in '\(path)': the file ends before the compressed data does."
    case .gzipCorrupt(let path, let reason): return "Corrupt gzip stream in '\(path)': \(reason)."
    case .zstdTruncated(let path):
      return "Truncated zstd stream in '\(path)': the file ends before the compressed data does."
    case .zstdCorrupt(let path, let reason): return "Corrupt zstd stream in '\(path)': \(reason)."
    case .truncatedInput(let path, let line, let insideDocument):
      let place = insideDocument ? "a JSON document that is never closed, at line" : "a record at line"
      return "Truncated input '\(path)': ends inside \(place) \(line) (cut off mid-write?); no report is written."
    case .unsupportedCompression(let path, let format):
      let source = path == "-" ? "" : " " + Self.shellQuoted(path)
      let command = CompressionFormat(rawValue: format)?.decompressCommand ?? "\(format) -d"
      return "'\(path)' is compressed with \(format), which TxFold does not read; "
        + "decompress it first: \(command)\(source), then read its output."
    case .notTransactions(let path, let format):
      if format == TxFoldFileFormat.state.rawValue {
        return "'\(path)' is a TxFold state file, not transactions: "
          + "pass it as the previous state (NightlyState(previous:)), not as an input."
      }
      return "'\(path)' is a TxFold \(format) state, not transactions: "
        + "merge it with the other partials (PartialMerger), not as an input."
    }
  }

  /// `path` as one shell word: as it is when it holds only safe characters, else in single quotes.
  static func shellQuoted(_ path: String) -> String {
    let safe = path.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        || "-_./+,:@%".utf8.contains(byte)
    }
    // A path that starts with `-` would read as an option.
    let word = path.hasPrefix("-") ? "./" + path : path
    if safe && !path.isEmpty { return word }
    var quoted = "'"
    for character in word { quoted += character == "'" ? "'\\''" : String(character) }
    return quoted + "'"
  }
}
