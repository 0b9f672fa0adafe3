import Glibc

/// The temporary output file to remove if the process is interrupted. A C
/// string, because a signal handler may only call async-signal-safe
/// functions such as `unlink` and `_exit`.
nonisolated(unsafe) private var pendingTemporaryFile: UnsafeMutablePointer<CChar>?

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
  static func deferringSignals<T>(_ body: () throws -> T) rethrows -> T {
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
    let previous = pendingTemporaryFile
    pendingTemporaryFile = path.map { strdup($0) } ?? nil
    free(previous)
  }
}

private func handleTermination(_ signalNumber: Int32) {
  if let path = pendingTemporaryFile { unlink(path) }
  // 128 + signal number, the shell's convention: 130 for SIGINT.
  _exit(128 + signalNumber)
}
