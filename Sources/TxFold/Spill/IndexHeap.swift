/// A binary min-heap of small integers — run numbers, ordered by each run's
/// current entry: the heap of every k-way merge (`KWayMerge`).
///
/// The order is passed to each call rather than stored, so it reads the
/// caller's arrays in place: no closure is kept, nothing is allocated per
/// entry, and inlined calls compare with the caller's own code.
struct IndexHeap {
  /// The items, heap-ordered: `items[0]` comes first.
  private(set) var items: [Int] = []

  init() {}

  /// The item that comes first, `nil` when the heap is empty.
  @inline(__always)
  var first: Int? { items.first }

  @inline(__always)
  mutating func push(_ item: Int, by precedes: (Int, Int) -> Bool) {
    items.append(item)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(items[child], items[parent]) else { return }
      items.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes the first item.
  @inline(__always)
  mutating func removeFirst(by precedes: (Int, Int) -> Bool) {
    let last = items.removeLast()
    guard !items.isEmpty else { return }
    items[0] = last
    firstChanged(by: precedes)
  }

  /// Restores the order after the first item's key moved later.
  @inline(__always)
  mutating func firstChanged(by precedes: (Int, Int) -> Bool) {
    var parent = 0
    let count = items.count
    while true {
      let left = 2 * parent + 1
      guard left < count else { return }
      var best = left
      if left + 1 < count && precedes(items[left + 1], items[left]) { best = left + 1 }
      guard precedes(items[best], items[parent]) else { return }
      items.swapAt(best, parent)
      parent = best
    }
  }
}

extension IndexHeap {
  /// Traps unless no item comes before its parent under `precedes` and no
  /// item stands twice: the rule every push and removal keeps. A
  /// `TXFOLD_INVARIANTS` build checks it after each step of a k-way merge.
  ///
  /// - Complexity: O(n) in the items.
  func checkInvariants(by precedes: (Int, Int) -> Bool) {
    for child in items.indices.dropFirst() {
      let parent = (child - 1) / 2
      precondition(
        !precedes(items[child], items[parent]), "heap item \(items[child]) comes before its parent \(items[parent])")
    }
    precondition(Set(items).count == items.count, "a heap item stands twice")
  }
}
