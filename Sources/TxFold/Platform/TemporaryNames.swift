import Foundation

/// The moments when a temporary file or directory exists on disk but its
/// owner has not yet made it safe (unlinked it, or told the interrupt
/// cleanup about it).
///
/// A spill directory is made by `mkdtemp` on a worker and registered for
/// cleanup just after; a run file is created, then unlinked at once. An
/// interrupt taken on another thread in between would leave the name
/// behind. So each such moment runs under `lock`, and the command-line
/// tool's cleanup — on a thread of its own that waits for SIGINT and
/// SIGTERM, not in a signal handler — takes the same lock before it
/// removes anything and never lets it go: it sees every name either not
/// yet made or already made safe. The calling thread also blocks the two
/// signals meanwhile, for programs that handle them in a handler instead.
package enum TemporaryNames {
  /// Held while a name is made and made safe, and by interrupt cleanup.
  package static let lock = NSRecursiveLock()

  /// Runs `body` under `lock`, with SIGINT and SIGTERM blocked on this thread.
  package static func creating<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    let previous = SystemCalls.blockSignals(.termination)
    lock.lock()
    defer {
      lock.unlock()
      SystemCalls.setSignalMask(previous)
    }
    return try body()
  }
}
