#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// `pthread_sigmask(SIG_BLOCK)`: adds `signals` to the calling thread's mask (threads started
  /// later inherit it) and returns the mask as it was.
  @discardableResult
  package static func blockSignals(_ signals: SignalSet) -> SignalSet {
    var block = signals.storage
    var previous = SignalSet()
    pthread_sigmask(SIG_BLOCK, &block, &previous.storage)
    return previous
  }

  /// `pthread_sigmask(SIG_SETMASK)`: makes `signals` the calling thread's mask.
  package static func setSignalMask(_ signals: SignalSet) {
    var mask = signals.storage
    pthread_sigmask(SIG_SETMASK, &mask, nil)
  }

  /// `sigwait(3)` until it succeeds: the signal of `signals` that arrived (they must be blocked).
  package static func waitForSignal(in signals: SignalSet) -> Int32 {
    var set = signals.storage
    var received: Int32 = 0
    while sigwait(&set, &received) != 0 {}
    return received
  }

  /// `signal(signalNumber, SIG_IGN)`.
  package static func ignoreSignal(_ signalNumber: Int32) {
    signal(signalNumber, SIG_IGN)
  }

  /// `signal(2)`: runs `handler` when `signalNumber` arrives. The handler may call only
  /// async-signal-safe functions (here: `removeFile(_:)`, `removeDirectory(_:)` on C strings,
  /// `lastError`, `pause(nanoseconds:)`, `exitImmediately`).
  package static func setSignalHandler(_ signalNumber: Int32, _ handler: @convention(c) (Int32) -> Void) {
    signal(signalNumber, handler)
  }

  /// `_exit(2)`: ends the process at once, without running `atexit` handlers or flushing
  /// streams; async-signal-safe (inlined).
  @inlinable @inline(__always)
  package static func exitImmediately(_ status: Int32) -> Never {
    _exit(status)
  }

  /// `nanosleep(2)` for less than a second; async-signal-safe (inlined). Returns 0, or -1 with
  /// `errno` set when a signal cut it short.
  @inlinable @inline(__always) @discardableResult
  package static func pause(nanoseconds: Int) -> Int32 {
    var interval = timespec(tv_sec: 0, tv_nsec: nanoseconds)
    return nanosleep(&interval, nil)
  }

  /// `strdup(3)`: a copy of `text` as a C string that `releaseCString` frees (for a signal
  /// handler, which may not convert a `String`), or `nil` when memory ran out.
  package static func copyCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    strdup(text)
  }

  /// `free(3)` of a C string from `copyCString` (nothing for `nil`).
  package static func releaseCString(_ pointer: UnsafeMutablePointer<CChar>?) {
    free(pointer)
  }
}
