import Foundation
import TxFold

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary output files to remove if the process is interrupted, as a
/// null-terminated array of C strings (the fallback handler below may only
/// call async-signal-safe functions such as `unlink` and `_exit`).
nonisolated(unsafe) private var pendingTemporaryFiles: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// The temporary directory to remove too: the external sort's, whose run
/// files have no names on disk (`SpillDirectory`), so `rmdir` is enough.
nonisolated(unsafe) private var pendingTemporaryDirectory: UnsafeMutablePointer<CChar>?

/// Makes SIGINT and SIGTERM leave no partial output file and no spill
/// directory, and lets a closed output pipe surface as `EPIPE` instead of
/// killing the process.
///
/// The two signals are blocked in every thread (the mask is set before any
/// other thread starts, and threads inherit it) and taken by a thread of
/// their own with `sigwait`. That thread cleans up as ordinary code: it first
/// takes `TemporaryNames.lock`, under which every temporary name is made and
/// made known (`deferringSignals` here; spill directories and runs in the
/// library), and never releases it, so it can neither miss a directory a
/// worker has just made nor race one being made. A signal handler could not
/// take a lock; the one that remains is a fallback for a thread that
/// unblocked the signals, and does what it safely can.
enum SignalGuard {
  /// Blocks the signals, starts the thread that waits for them and installs
  /// the fallback handlers; call once at start, before any other thread.
  static func install() {
    signal(SIGPIPE, SIG_IGN)
    // A handler rather than the default: an ignored signal (a job started in
    // the background by a script) would otherwise be discarded, not waited for.
    signal(SIGINT, handleTermination)
    signal(SIGTERM, handleTermination)
    var signals = terminationSignals
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let waiter = Thread {
      var signals = terminationSignals
      var received: Int32 = 0
      while sigwait(&signals, &received) != 0 {}
      TemporaryNames.lock.lock()
      removeTemporaryNames()
      // 128 + signal number, the shell's convention: 130 for SIGINT.
      _exit(128 + received)
    }
    waiter.start()
  }

  private static var terminationSignals: sigset_t {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    return signals
  }

  /// Runs `body` so that an interrupt is taken only before or after it, so a
  /// temporary file it creates is protected before cleanup can look for it.
  static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    try TemporaryNames.creating(body)
  }

  /// The temporary file the cleanup should remove (or `nil`).
  static func protect(temporaryFile path: String?) {
    protect(temporaryFiles: path.map { [$0] } ?? [])
  }

  /// The temporary files the cleanup should remove, replacing the earlier list.
  static func protect(temporaryFiles paths: [String]) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
    for (index, path) in paths.enumerated() { list[index] = strdup(path) }
    list[paths.count] = nil
    // The fallback handler sees the old list or the new one, each complete.
    let previous = pendingTemporaryFiles
    pendingTemporaryFiles = list
    if let previous {
      var index = 0
      while let path = previous[index] {
        free(path)
        index += 1
      }
      previous.deallocate()
    }
  }

  /// The (empty) temporary directory the cleanup should remove (or `nil`).
  static func protect(temporaryDirectory path: String?) {
    TemporaryNames.lock.lock()
    defer { TemporaryNames.lock.unlock() }
    let previous = pendingTemporaryDirectory
    pendingTemporaryDirectory = path.map { strdup($0) } ?? nil
    free(previous)
  }
}

/// Removes the registered files and directory; async-signal-safe.
private func removeTemporaryNames() {
  if let list = pendingTemporaryFiles {
    var index = 0
    while let path = list[index] {
      unlink(path)
      index += 1
    }
  }
  if let path = pendingTemporaryDirectory {
    // Only the fallback handler can find a run that still has its name (a
    // worker between creating and unlinking it, outside the lock's reach):
    // retry for up to 100 ms. `rmdir` and `nanosleep` are safe here.
    var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
    var tries = 0
    while rmdir(path) != 0 && errno == ENOTEMPTY && tries < 20 {
      nanosleep(&pause, nil)
      tries += 1
    }
  }
}

/// The fallback, for a signal delivered to a thread that unblocked it.
private func handleTermination(_ signalNumber: Int32) {
  removeTemporaryNames()
  _exit(128 + signalNumber)
}
