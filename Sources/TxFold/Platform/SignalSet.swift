#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A set of signals (`sigset_t`), for blocking and waiting for them.
package struct SignalSet {
  @usableFromInline var storage = sigset_t()

  /// An empty set (`sigemptyset`).
  package init() {
    sigemptyset(&storage)
  }

  /// `SIGINT` and `SIGTERM`, the signals that end a run and whose cleanup must see every
  /// temporary name.
  package static var termination: SignalSet {
    var signals = SignalSet()
    signals.insert(SignalSet.interrupt)
    signals.insert(SignalSet.terminate)
    return signals
  }

  /// Adds `signal` (`sigaddset`).
  package mutating func insert(_ signal: Int32) {
    sigaddset(&storage, signal)
  }

  /// `SIGINT`.
  package static var interrupt: Int32 { SIGINT }
  /// `SIGTERM`.
  package static var terminate: Int32 { SIGTERM }
  /// `SIGPIPE`.
  package static var brokenPipe: Int32 { SIGPIPE }
}
