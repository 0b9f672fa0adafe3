/// The N members of a group that come first in report order, kept in a binary
/// heap whose top is the one that would be dropped next.
///
/// Bounded memory: with `limit` N it never holds more than N members, and the
/// choice depends only on the set of members offered, never on their order, so
/// per-thread heaps merge to the same result as one heap over all the input.
public struct MemberHeap: Sendable, Hashable {
  /// The most members kept (`Int.max` for `--members all`).
  public let limit: Int
  @usableFromInline var storage: [KeptMember] = []

  public init(limit: Int) {
    self.limit = limit
  }

  @inlinable public var count: Int { storage.count }
  @inlinable public var isFull: Bool { storage.count >= limit }

  /// The kept member that comes last in report order (the next to be dropped).
  @inlinable public var last: KeptMember? { storage.first }

  /// Whether a member with this instant would be kept, judged on the instant
  /// alone: `true` or `false` when that decides it, `nil` on a tie that needs
  /// the whole member.
  @inlinable
  public func wouldKeep(instant: Timestamp) -> Bool? {
    guard limit > 0 else { return false }
    guard isFull, let last = storage.first else { return true }
    let order = instant.compareInstant(last.instant)
    if order == 0 { return nil }
    return order > 0
  }

  /// Offers a member: kept when the heap has room or it comes before the last kept one.
  @inlinable
  public mutating func offer(_ member: KeptMember) {
    guard limit > 0 else { return }
    if storage.count < limit {
      storage.append(member)
      siftUp(storage.count - 1)
    } else if let last = storage.first, member.compareReportOrder(last) < 0 {
      storage[0] = member
      siftDown(0)
    }
  }

  /// Overwrites the last kept member in place (reusing its storage) and
  /// restores the heap. Call only when the heap is full and the new member is
  /// known to come before the last one in report order.
  @inlinable
  public mutating func replaceLast(_ fill: (inout KeptMember) -> Void) {
    guard !storage.isEmpty else { return }
    fill(&storage[0])
    siftDown(0)
  }

  /// The kept members in report order.
  public func sorted() -> [KeptMember] {
    storage.sorted { $0.compareReportOrder($1) < 0 }
  }

  /// True when `a` should sit above `b`: `a` comes later in report order.
  @inlinable @inline(__always)
  func isAbove(_ a: Int, _ b: Int) -> Bool {
    // Instants decide almost always; compare them without copying the members.
    let byInstant = storage[a].instant.compareInstant(storage[b].instant)
    if byInstant != 0 { return byInstant < 0 }
    return storage[a].compareReportOrder(storage[b]) > 0
  }

  @inlinable
  mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard isAbove(child, parent) else { return }
      storage.swapAt(child, parent)
      child = parent
    }
  }

  @inlinable
  mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var top = parent
      if left < storage.count && isAbove(left, top) { top = left }
      if right < storage.count && isAbove(right, top) { top = right }
      if top == parent { return }
      storage.swapAt(parent, top)
      parent = top
    }
  }
}
