#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary output files to remove if the process is interrupted, as a
/// null-terminated array of C strings, because a signal handler may only
/// call async-signal-safe functions such as `unlink` and `_exit`.
nonisolated(unsafe) private var pendingTemporaryFiles: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// The temporary directory to remove too: the external sort's, whose run
/// files have no names on disk (`SpillDirectory`), so `rmdir` is enough.
nonisolated(unsafe) private var pendingTemporaryDirectory: UnsafeMutablePointer<CChar>?

/// Makes SIGINT and SIGTERM leave no partial output file, and lets a closed
/// output pipe surface as `EPIPE` instead of killing the process.
enum SignalGuard {
  /// Installs the handlers; call once at start.
  static func install() {
    // A parent may start us with these signals blocked (test runners and some
    // schedulers do); an interrupt must still reach the handler.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    sigaddset(&unblock, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT, handleTermination)
    signal(SIGTERM, handleTermination)
  }

  /// Runs `body` with SIGINT and SIGTERM held back (delivered when it
  /// returns), so a temporary file it creates is protected before an
  /// interrupt can find it unprotected.
  static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    var held = sigset_t()
    sigemptyset(&held)
    sigaddset(&held, SIGINT)
    sigaddset(&held, SIGTERM)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &held, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }

  /// The temporary file the handler should remove (or `nil`).
  static func protect(temporaryFile path: String?) {
    protect(temporaryFiles: path.map { [$0] } ?? [])
  }

  /// The temporary files the handler should remove, replacing the earlier list.
  static func protect(temporaryFiles paths: [String]) {
    let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: paths.count + 1)
    for (index, path) in paths.enumerated() { list[index] = strdup(path) }
    list[paths.count] = nil
    // The handler sees the old list or the new one, each complete.
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

  /// The (empty) temporary directory the handler should remove (or `nil`).
  static func protect(temporaryDirectory path: String?) {
    let previous = pendingTemporaryDirectory
    pendingTemporaryDirectory = path.map { strdup($0) } ?? nil
    free(previous)
  }
}

private func handleTermination(_ signalNumber: Int32) {
  if let list = pendingTemporaryFiles {
    var index = 0
    while let path = list[index] {
      unlink(path)
      index += 1
    }
  }
  if let path = pendingTemporaryDirectory {
    // A worker may be between creating a run and unlinking it (its own thread
    // blocks the signal only there): the directory is not empty for those few
    // instructions. Retry for up to 100 ms; `rmdir` and `nanosleep` are safe here.
    var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
    var tries = 0
    while rmdir(path) != 0 && errno == ENOTEMPTY && tries < 20 {
      nanosleep(&pause, nil)
      tries += 1
    }
  }
  // 128 + signal number, the shell's convention: 130 for SIGINT.
  _exit(128 + signalNumber)
}
