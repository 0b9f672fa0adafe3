import Foundation

/// A bounded hand-over of byte chunks from an async producer (a task
/// iterating an `AsyncSequence`) to a blocking reader (the pipeline's reader
/// thread, through `ChunkChannelSource`).
///
/// The producer `send`s chunks and suspends, without blocking its thread,
/// while `capacity` bytes wait unread; the reader blocks until bytes come, the
/// producer finishes, or the channel is cancelled. Cancelling makes the next
/// read throw, so the pipeline stops at its next read.
///
/// `@unchecked Sendable`: every stored property is read and written only
/// while `condition` is locked; the compiler cannot see a lock.
final class ChunkChannel: @unchecked Sendable {
  /// Why the channel stopped early.
  enum Stop {
    case cancelled
    case producerFailed
  }

  let name: String
  private let capacity: Int
  private let condition = NSCondition()
  private var chunks: [[UInt8]] = []
  private var headIndex = 0
  private var headOffset = 0
  private var buffered = 0
  private var producerFinished = false
  private var stopped: Stop?
  private var readerClosed = false
  private var spaceWaiter: CheckedContinuation<Void, Never>?
  private var bytesSent: Int64 = 0

  init(name: String, capacity: Int) {
    self.name = name
    self.capacity = max(1, capacity)
  }

  /// Why the channel stopped, if it did.
  var stop: Stop? {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  /// Hands `chunk` to the reader; suspends while the channel is full.
  /// Returns `false` once the reader is gone or the channel stopped: send no more.
  func send(_ chunk: [UInt8]) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      defer { condition.unlock() }
      guard !readerClosed, stopped == nil else {
        continuation.resume()
        return
      }
      if !chunk.isEmpty {
        chunks.append(chunk)
        buffered += chunk.count
        bytesSent += Int64(chunk.count)
        condition.broadcast()
      }
      if buffered < capacity {
        continuation.resume()
      } else {
        spaceWaiter = continuation
      }
    }
    return isOpenForSending
  }

  /// Whether the reader still takes chunks.
  private var isOpenForSending: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !readerClosed && stopped == nil
  }

  /// The producer has sent everything: the reader sees the end after the last chunk.
  func finish() {
    condition.lock()
    producerFinished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Stops the channel: the reader's next read throws, the producer's next send returns `false`.
  func stop(_ reason: Stop) {
    condition.lock()
    if stopped == nil { stopped = reason }
    let waiter = takeSpaceWaiter()
    condition.broadcast()
    condition.unlock()
    waiter?.resume()
  }

  /// The reader is done (its run ended, with or without an error): release a waiting producer.
  func closeReader() {
    condition.lock()
    readerClosed = true
    let waiter = takeSpaceWaiter()
    condition.unlock()
    waiter?.resume()
  }

  /// Bytes the producer has handed over so far.
  var bytesReceived: Int64 {
    condition.lock()
    defer { condition.unlock() }
    return bytesSent
  }

  /// Blocks until bytes are available, then copies up to `buffer.count` of
  /// them; returns 0 at the end. Throws once the channel was stopped.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard buffer.count > 0 else { return 0 }
    condition.lock()
    while headIndex == chunks.count && !producerFinished && stopped == nil { condition.wait() }
    if let stopped {
      condition.unlock()
      throw .readFailed(path: name, reason: stopped == .cancelled ? "cancelled" : "the byte stream failed")
    }
    var copied = 0
    while copied < buffer.count && headIndex < chunks.count {
      let head = chunks[headIndex]
      let count = min(buffer.count - copied, head.count - headOffset)
      head.withUnsafeBytes { bytes in
        UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[headOffset..<(headOffset + count)]))
      }
      copied += count
      headOffset += count
      if headOffset == head.count {
        headIndex += 1
        headOffset = 0
      }
    }
    // Drop consumed chunks now and then rather than shifting the array per read.
    if headIndex > 64 || headIndex == chunks.count {
      chunks.removeFirst(headIndex)
      headIndex = 0
    }
    buffered -= copied
    let waiter = buffered < capacity ? takeSpaceWaiter() : nil
    condition.unlock()
    waiter?.resume()
    return copied
  }

  /// Takes the suspended producer, if any; call with the lock held, resume after unlocking.
  private func takeSpaceWaiter() -> CheckedContinuation<Void, Never>? {
    defer { spaceWaiter = nil }
    return spaceWaiter
  }
}

/// The reading end of a `ChunkChannel` as a `ByteSource`.
final class ChunkChannelSource: ByteSource {
  let channel: ChunkChannel
  init(_ channel: ChunkChannel) { self.channel = channel }
  var name: String { channel.name }
  var storedBytesRead: Int64 { channel.bytesReceived }
  var storedSize: Int64? { nil }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    try channel.read(into: buffer)
  }
}
