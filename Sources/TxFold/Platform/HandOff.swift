/// A value carried into another thread, which from then on one thread at a
/// time uses: a worker's own state moved into its thread, a cursor advanced
/// by one task after another, a table that two threads only read while
/// neither changes it.
///
/// The compiler cannot follow such a move for a class (a `sending` parameter
/// says it of one call, not of a thread's life), so this is the one place
/// that takes it on trust, besides `LockedValue`'s lock; each use says why
/// no two threads use the value at once.
package struct HandOff<Wrapped>: @unchecked Sendable {
  package let value: Wrapped

  package init(_ value: Wrapped) {
    self.value = value
  }
}
