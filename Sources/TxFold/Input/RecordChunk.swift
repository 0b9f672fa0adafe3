/// A block of whole JSON lines handed from the reader to a worker.
///
/// The buffer is allocated once and reused through the pipeline's pool, so
/// reading allocates nothing per chunk. A chunk is owned by one thread at a
/// time and handed over through the pipeline's queues, which is what makes
/// the unchecked `Sendable` safe.
public final class RecordChunk: @unchecked Sendable {
  /// What the chunk holds.
  public enum Kind: Sendable {
    /// Whole lines, each ending in `\n` except perhaps the last line of a file.
    case lines
    /// One line longer than `--max-record-bytes`: the buffer holds its first
    /// bytes (at most 4 KiB) and `oversizedLength` its full length.
    case oversized
  }

  /// The storage, `capacity` bytes.
  public let storage: UnsafeMutableRawBufferPointer
  /// Bytes in use, from the start of `storage`.
  public var count = 0
  public var kind = Kind.lines
  /// The full length of an oversized line.
  public var oversizedLength: Int64 = 0
  /// Which input (by position in the run's list) the chunk comes from.
  public var fileIndex = 0
  /// The chunk's position in the whole run, from 0; results are applied in this order.
  public var sequence = 0

  /// Allocates a chunk buffer of `capacity` bytes.
  public init(capacity: Int) {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 64)
    storage.bindMemory(to: UInt8.self)
  }

  deinit { storage.deallocate() }

  /// The bytes in use.
  @inlinable public var bytes: UnsafeBufferPointer<UInt8> {
    // Safe because `count` never exceeds the allocation and the memory is bound to UInt8 on first use.
    UnsafeBufferPointer(start: storage.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
  }
}
