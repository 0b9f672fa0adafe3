import TxFold

/// A `ByteSource` over bytes already in memory, so a pipeline benchmark measures TxFold rather
/// than the page cache and `read(2)`.
///
/// It hands out at most `readSize` bytes a call, as `FileSource` does with its read buffer.
public final class MemorySource: ByteSource {
  public let name: String
  private let bytes: [UInt8]
  private let readSize: Int
  private var offset = 0

  /// A source reading `bytes` from the start, `readSize` bytes at most a call (1 MiB by default).
  public init(_ bytes: [UInt8], name: String = "memory", readSize: Int = 1 << 20) {
    self.bytes = bytes
    self.name = name
    self.readSize = max(1, readSize)
  }

  public var storedBytesRead: Int64 { Int64(offset) }
  public var storedSize: Int64? { Int64(bytes.count) }

  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(buffer.count, readSize, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
    }
    offset += count
    return count
  }
}
