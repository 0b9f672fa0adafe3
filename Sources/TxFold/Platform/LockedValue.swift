import Foundation

/// State that threads share, read and changed only under its lock: the one
/// place a lock's guarantee is taken on trust, so that a class keeping its
/// mutable state in one is `Sendable` as the compiler checks it.
///
/// The standard library's `Mutex` is the same, from macOS 15 on, past
/// `Package.swift`'s platforms; like it, a `LockedValue` is `Sendable` whatever
/// it holds, because nothing reaches the value except under the lock. Unlike
/// it, a thread can wait for the value to change (`withLock(when:_:)`): the
/// queues between the reader and the workers, and the threads that prefetch
/// accounts, wait on it rather than each on a condition of its own.
package final class LockedValue<Wrapped>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Wrapped

  package init(_ value: Wrapped) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held.
  package func withLock<Output, Failure: Error>(_ body: (inout Wrapped) throws(Failure) -> Output) throws(Failure)
    -> Output
  {
    condition.lock()
    defer { condition.unlock() }
    return try body(&value)
  }

  /// Runs `body` on the value with the lock held, then wakes the threads
  /// waiting in `withLock(when:_:)` to look at the value again.
  package func withLockWaking<Output, Failure: Error>(_ body: (inout Wrapped) throws(Failure) -> Output)
    throws(Failure) -> Output
  {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return try body(&value)
  }

  /// Waits until `ready` holds for the value, then runs `body` on it with
  /// the lock held and wakes the other waiters (`body` may have changed what
  /// they wait for).
  package func withLock<Output, Failure: Error>(
    when ready: (Wrapped) -> Bool, _ body: (inout Wrapped) throws(Failure) -> Output
  ) throws(Failure) -> Output {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    while !ready(value) { condition.wait() }
    return try body(&value)
  }
}
