import Foundation

/// Opens inputs and detects their compression from their content.
///
/// An input whose first two bytes are the gzip magic `1f 8b` is inflated, one
/// that starts with a zstd frame (`28 B5 2F FD`) or a skippable frame
/// (`5? 2A 4D 18`) is decompressed with libzstd; one compressed with bzip2, xz,
/// zip or lz4 is refused with the command that decompresses it; anything else
/// (including an empty input) is read as it is. The file name plays no part:
/// a plain file named `dump.gz` is read as plain text, and a gzip or zstd
/// stream on standard input is decompressed.
public enum InputOpener {
  /// Opens `path` (`-` for standard input), decompressing it when it is gzip or zstd.
  ///
  /// - Throws: `InputError.cannotOpen` when the file cannot be opened or is a
  ///   directory; `InputError.readFailed` when its first bytes cannot be read.
  public static func open(path: String) throws(InputError) -> any ByteSource {
    try detectCompression(FileSource.open(path: path))
  }

  /// Opens `path` as `open(path:)` does, for a run's input of transactions: one of TxFold's
  /// state or partial files is refused too (`InputError.notTransactions`), as `checkInput` does
  /// for a regular file before the run; standard input and a FIFO are known only here.
  package static func openTransactions(path: String) throws(InputError) -> any ByteSource {
    try detectCompression(FileSource.open(path: path), refusingTxFoldFiles: true)
  }

  /// Reads from an open descriptor, decompressing it when it is gzip or zstd.
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

  /// Reads `Data` in memory (a `URLSession` response body), decompressing it when it is gzip or zstd.
  public static func open(data: Data, name: String) throws(InputError) -> any ByteSource {
    try detectCompression(MemorySource(data: data, name: name))
  }

  /// Peeks at the first bytes of `source` and wraps it accordingly: gzip is
  /// inflated, zstd decompressed, plain text read as it is, and another compression format
  /// refused (`CompressionFormat`); with `refusingTxFoldFiles`, a TxFold state or partial file
  /// too (`TxFoldFileFormat`: the partial mergers and `--only-ids` read theirs through here).
  static func detectCompression(
    _ source: any ByteSource, refusingTxFoldFiles: Bool = false
  ) throws(InputError) -> any ByteSource {
    let prefix = try peek(source, count: refusingTxFoldFiles ? longestMagic : CompressionFormat.longestMagic)
    let prefixed = PrefixedSource(prefix: prefix, wrapping: source)
    switch CompressionFormat.detect(prefix) {
    case nil:
      if refusingTxFoldFiles, let own = TxFoldFileFormat.detect(prefix) {
        throw .notTransactions(path: source.name, format: own.rawValue)
      }
      return prefixed
    case .gzip: return try GzipSource(wrapping: prefixed)
    case .zstd: return try ZstdSource(wrapping: prefixed)
    case let format?: throw .unsupportedCompression(path: source.name, format: format.rawValue)
    }
  }

  /// Refuses a regular file compressed in a format TxFold does not read, or
  /// one of TxFold's state or partial files, from its first bytes, before a run reads anything. Other files (pipes,
  /// devices) are not opened here (`FileSource.openToCheck`): they are
  /// opened once, by the reading, and bytes taken from them could not be put back.
  static func checkInput(path: String) throws(InputError) {
    guard let source = try FileSource.openToCheck(path: path), source.storedSize != nil else { return }
    let prefix = try peek(source, count: longestMagic)
    if let format = CompressionFormat.detect(prefix), !format.isRead {
      throw .unsupportedCompression(path: path, format: format.rawValue)
    }
    if let own = TxFoldFileFormat.detect(prefix) { throw .notTransactions(path: path, format: own.rawValue) }
  }

  /// The most first bytes the checks look at: a compression format's magic or a TxFold file's.
  private static let longestMagic = max(CompressionFormat.longestMagic, TxFoldFileFormat.longestMagic)

  /// Reads up to `count` first bytes, fewer only when the input ends first.
  private static func peek(_ source: any ByteSource, count wanted: Int) throws(InputError) -> [UInt8] {
    let peek = UnsafeMutableRawBufferPointer.allocate(byteCount: wanted, alignment: 1)
    defer { peek.deallocate() }
    var count = 0
    // A pipe may deliver one byte at a time; keep reading until every byte
    // is here or the input has ended.
    while count < peek.count {
      let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: peek[count...]))
      if read == 0 { break }
      count += read
    }
    return Array(peek[0..<count])
  }
}
