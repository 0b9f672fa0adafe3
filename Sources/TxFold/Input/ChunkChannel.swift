import Foundation

/// A bounded hand-over of byte chunks from an async producer (a task
/// iterating an `AsyncSequence`) to a blocking reader (the pipeline's reader
/// thread, through `ChunkChannelSource`).
///
/// The producer `send`s chunks and suspends, without blocking its thread,
/// while `capacity` bytes wait unread; the reader blocks until bytes come, the
/// producer finishes, or the channel is cancelled. Cancelling makes the next
/// read throw, so the pipeline stops at its next read.
final class ChunkChannel: Sendable {
  /// Why the channel stopped early.
  enum Stop {
    case cancelled
    case producerFailed
  }

  private struct State {
    var chunks: [[UInt8]] = []
    var headIndex = 0
    var headOffset = 0
    var buffered = 0
    var producerFinished = false
    var stopped: Stop?
    var readerClosed = false
    /// The producer suspended on a full channel: resumed after the lock is let go.
    var spaceWaiter: CheckedContinuation<Void, Never>?
    var bytesSent: Int64 = 0

    var isOpenForSending: Bool { !readerClosed && stopped == nil }

    /// Whether a read has something to return: bytes, the end, or the stop.
    var isReadable: Bool { headIndex < chunks.count || producerFinished || stopped != nil }

    mutating func takeSpaceWaiter() -> CheckedContinuation<Void, Never>? {
      defer { spaceWaiter = nil }
      return spaceWaiter
    }
  }

  let name: String
  private let capacity: Int
  private let state = LockedValue(State())

  init(name: String, capacity: Int) {
    self.name = name
    self.capacity = max(1, capacity)
  }

  /// Why the channel stopped, if it did.
  var stop: Stop? { state.withLock { $0.stopped } }

  /// Hands `chunk` to the reader; suspends while the channel is full.
  /// Returns `false` once the reader is gone or the channel stopped: send no more.
  func send(_ chunk: [UInt8]) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLockWaking { state in
        guard state.isOpenForSending else { return true }
        if !chunk.isEmpty {
          state.chunks.append(chunk)
          state.buffered += chunk.count
          state.bytesSent += Int64(chunk.count)
        }
        if state.buffered < capacity { return true }
        state.spaceWaiter = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
    return state.withLock { $0.isOpenForSending }
  }

  /// The producer has sent everything: the reader sees the end after the last chunk.
  func finish() {
    state.withLockWaking { $0.producerFinished = true }
  }

  /// Stops the channel: the reader's next read throws, the producer's next send returns `false`.
  func stop(_ reason: Stop) {
    let waiter = state.withLockWaking { state in
      if state.stopped == nil { state.stopped = reason }
      return state.takeSpaceWaiter()
    }
    waiter?.resume()
  }

  /// The reader is done (its run ended, with or without an error): release a waiting producer.
  func closeReader() {
    let waiter = state.withLock { state in
      state.readerClosed = true
      return state.takeSpaceWaiter()
    }
    waiter?.resume()
  }

  /// Bytes the producer has handed over so far.
  var bytesReceived: Int64 { state.withLock { $0.bytesSent } }

  /// Blocks until bytes are available, then copies up to `buffer.count` of
  /// them; returns 0 at the end. Throws once the channel was stopped.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard buffer.count > 0 else { return 0 }
    let (copied, waiter) = try state.withLock(when: \.isReadable) {
      (state) throws(InputError) -> (Int, CheckedContinuation<Void, Never>?) in
      if let stopped = state.stopped {
        throw .readFailed(path: name, reason: stopped == .cancelled ? "cancelled" : "the byte stream failed")
      }
      var copied = 0
      while copied < buffer.count && state.headIndex < state.chunks.count {
        let head = state.chunks[state.headIndex]
        let offset = state.headOffset
        let count = min(buffer.count - copied, head.count - offset)
        head.withUnsafeBytes { bytes in
          UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        copied += count
        state.headOffset += count
        if state.headOffset == head.count {
          state.headIndex += 1
          state.headOffset = 0
        }
      }
      // Drop consumed chunks now and then rather than shifting the array per read.
      if state.headIndex > 64 || state.headIndex == state.chunks.count {
        state.chunks.removeFirst(state.headIndex)
        state.headIndex = 0
      }
      state.buffered -= copied
      return (copied, state.buffered < capacity ? state.takeSpaceWaiter() : nil)
    }
    waiter?.resume()
    return copied
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
