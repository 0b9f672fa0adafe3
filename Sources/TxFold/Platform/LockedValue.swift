import Foundation

/// State that threads share, read and changed only inside `withLock`: the one
/// place a lock's guarantee is taken on trust, so that a class keeping its
/// mutable state in one is `Sendable` as the compiler checks it.
///
/// The standard library's `Mutex` is the same, from macOS 15 on, past
/// `Package.swift`'s platforms; like it, a `LockedValue` is `Sendable` whatever
/// it holds, because nothing reaches the value except under the lock.
final class LockedValue<Wrapped>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Wrapped

  init(_ value: Wrapped) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held.
  func withLock<Output, Failure: Error>(_ body: (inout Wrapped) throws(Failure) -> Output) throws(Failure) -> Output {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
