import Foundation

/// A byte source over bytes already in memory: a response body, a test's
/// fixture, a buffer an app decrypted.
///
/// Reading copies from the buffer, which is kept as given (no copy of a
/// `Data` or an array up front). Pass it through `InputOpener.open(bytes:name:)`
/// or `open(data:name:)` to have gzip detected, as for a file.
package final class MemorySource: ByteSource {
  private enum Storage {
    case bytes([UInt8])
    case data(Data)
  }

  /// The input's name for messages.
  package let name: String
  private let storage: Storage
  private var offset = 0

  /// Reads `bytes`.
  package init(bytes: [UInt8], name: String) {
    storage = .bytes(bytes)
    self.name = name
  }

  /// Reads `data`.
  package init(data: Data, name: String) {
    storage = .data(data)
    self.name = name
  }

  /// Bytes handed out so far.
  package var storedBytesRead: Int64 { Int64(offset) }

  /// The buffer's size.
  package var storedSize: Int64? {
    switch storage {
    case .bytes(let bytes): return Int64(bytes.count)
    case .data(let data): return Int64(data.count)
    }
  }

  /// Copies the next bytes into `buffer`; returns 0 at the end.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    func copy(from source: UnsafeRawBufferPointer) -> Int {
      let count = min(buffer.count, source.count - offset)
      guard count > 0 else { return 0 }
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
      offset += count
      return count
    }
    switch storage {
    case .bytes(let bytes): return bytes.withUnsafeBytes(copy)
    case .data(let data): return data.withUnsafeBytes(copy)
    }
  }
}
