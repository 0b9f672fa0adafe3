/// The compressed side of a decompressing source (`GzipSource`, `ZstdSource`):
/// the underlying source, read through one fixed buffer, so memory stays
/// bounded whatever the stream holds.
final class CompressedInput {
  let source: any ByteSource
  /// `buffer[start..<end]` are read and not yet consumed.
  private let buffer: UnsafeMutableRawPointer
  private let capacity: Int
  private var start = 0
  private var end = 0
  /// Whether the underlying source has reported its end.
  private(set) var sourceEnded = false

  /// A buffer of `capacity` bytes (at least 16) over `source`, empty until `refill()`.
  init(_ source: any ByteSource, capacity: Int) {
    self.source = source
    self.capacity = capacity
    buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
  }

  deinit {
    buffer.deallocate()
  }

  /// The bytes read and not yet consumed.
  var unread: UnsafeRawBufferPointer {
    // Safe because start...end lie within the buffer.
    UnsafeRawBufferPointer(start: buffer + start, count: end - start)
  }

  /// Marks the first `count` bytes of `unread` as consumed.
  func consume(_ count: Int) {
    start += count
  }

  /// Moves the unconsumed bytes to the front of the buffer and reads more
  /// after them; returns how many bytes were read (0 at the source's end).
  @discardableResult
  func refill() throws(InputError) -> Int {
    guard !sourceEnded else { return 0 }
    let leftover = end - start
    if leftover > 0 && start > 0 {
      // Safe because buffer[start..<end] are valid bytes; copyMemory is a
      // memmove, so the overlap is fine.
      buffer.copyMemory(from: buffer + start, byteCount: leftover)
    }
    start = 0
    end = leftover
    // Safe because leftover < 2 < capacity whenever refill is called (an
    // empty buffer, or one byte of a following gzip member's magic).
    let count = try source.read(
      into: UnsafeMutableRawBufferPointer(start: buffer + leftover, count: capacity - leftover))
    if count == 0 { sourceEnded = true }
    end += count
    return count
  }
}

/// A decompressing source's first failure, thrown again by every later read:
/// after an error the decompressor's state is unknown.
struct StickyFailure {
  private var failure: InputError?

  /// What `read` returns, or the failure of this read or of an earlier one.
  mutating func read(_ read: () throws(InputError) -> Int) throws(InputError) -> Int {
    if let failure { throw failure }
    do {
      return try read()
    } catch {
      failure = error
      throw error
    }
  }
}
