import Foundation
import TxFold

/// Writes a report's bytes to its file on a thread of its own, one buffer
/// behind the thread that renders them.
///
/// A per-account run writes hundreds of megabytes from its main thread while
/// a second thread merges the next accounts; the kernel's copy of each
/// buffer into the page cache took as long as rendering it, with the other
/// core idle. Here the renderer hands over a full buffer and takes an empty
/// one back, waiting only when two are already waiting to be written.
///
/// The first failure is kept: the next `write` or `finish` throws it, and
/// nothing more is written.
final class BackgroundWriter: @unchecked Sendable {
  // Unchecked: every field below `condition` is read and written under it;
  // `file` is written only by the thread until `finish` has waited for it.
  private let file: OutputFile
  private let condition = NSCondition()
  private var waiting: [[UInt8]] = []
  private var spare: [[UInt8]] = []
  private var failure: OutputError?
  private var closed = false
  private var running = true

  /// Buffers handed over and not yet written, at most.
  static let depth = 2

  init(file: OutputFile) {
    self.file = file
    let thread = Thread { [self] in run() }
    thread.start()
  }

  private func run() {
    condition.lock()
    defer {
      running = false
      condition.broadcast()
      condition.unlock()
    }
    while true {
      while waiting.isEmpty && !closed { condition.wait() }
      guard !waiting.isEmpty else { return }
      var bytes = waiting.removeFirst()
      let failed = failure != nil
      condition.unlock()
      var error: OutputError?
      if !failed {
        do throws(OutputError) {
          try file.write(bytes)
        } catch let caught {
          error = caught
        }
      }
      bytes.removeAll(keepingCapacity: true)
      condition.lock()
      if let error, failure == nil { failure = error }
      spare.append(bytes)
      condition.broadcast()
    }
  }

  /// Hands `buffer` over to be written and leaves an empty one in its place.
  func write(_ buffer: inout [UInt8]) throws(OutputError) {
    condition.lock()
    defer { condition.unlock() }
    while waiting.count >= Self.depth && failure == nil { condition.wait() }
    if let failure { throw failure }
    waiting.append(buffer)
    buffer = spare.popLast() ?? []
    condition.broadcast()
  }

  /// Writes what is waiting and stops the thread; throws the first failure.
  func finish() throws(OutputError) {
    condition.lock()
    closed = true
    condition.broadcast()
    while running { condition.wait() }
    let failure = failure
    condition.unlock()
    if let failure { throw failure }
  }
}
