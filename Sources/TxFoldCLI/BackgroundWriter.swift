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
final class BackgroundWriter: Sendable {
  private struct State {
    var waiting: [[UInt8]] = []
    var spare: [[UInt8]] = []
    var failure: OutputError?
    var closed = false
    var running = true
  }
  /// Written to only by the writing thread, until `finish` has waited for it.
  private let file: HandOff<OutputFile>
  private let state = LockedValue(State())

  /// Buffers handed over and not yet written, at most.
  static let depth = 2

  init(file: OutputFile) {
    self.file = HandOff(file)
    let thread = Thread { [self] in run() }
    thread.start()
  }

  private func run() {
    defer { state.withLockWaking { $0.running = false } }
    while true {
      let next = state.withLock(when: { !$0.waiting.isEmpty || $0.closed }) {
        (state) -> (bytes: [UInt8], failed: Bool)? in
        guard !state.waiting.isEmpty else { return nil }
        return (state.waiting.removeFirst(), state.failure != nil)
      }
      guard let (written, failed) = next else { return }
      var bytes = written
      var error: OutputError?
      if !failed {
        do throws(OutputError) {
          try file.value.write(bytes)
        } catch let caught {
          error = caught
        }
      }
      bytes.removeAll(keepingCapacity: true)
      state.withLockWaking { state in
        if let error, state.failure == nil { state.failure = error }
        state.spare.append(bytes)
      }
    }
  }

  /// Hands `buffer` over to be written and leaves an empty one in its place.
  func write(_ buffer: inout [UInt8]) throws(OutputError) {
    let depth = Self.depth
    try state.withLock(when: { $0.waiting.count < depth || $0.failure != nil }) { (state) throws(OutputError) in
      if let failure = state.failure { throw failure }
      state.waiting.append(buffer)
      buffer = state.spare.popLast() ?? []
    }
  }

  /// Writes what is waiting and stops the thread; throws the first failure.
  func finish() throws(OutputError) {
    state.withLockWaking { $0.closed = true }
    if let failure = state.withLock(when: { !$0.running }, \.failure) { throw failure }
  }
}
