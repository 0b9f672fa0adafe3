/// A group's exact totals per currency, in the order their currencies came:
/// the first kept inline in the group, the others in an array made when a
/// second currency comes.
///
/// Most groups hold one currency, and a per-account fold makes and frees
/// hundreds of thousands of groups of a record or two: an array of their own
/// was one allocation, release and free more per group, and one cache miss
/// more for the fold and the render to wait on.
@_spi(Benchmarks) public struct GroupTotals: RandomAccessCollection, MutableCollection {
  /// A currency's number, its exact sum and how many transactions it sums.
  public typealias Element = (currency: Int, sum: ExactDecimal, count: Int)
  /// A total's position, from 0 in the order their currencies came.
  public typealias Index = Int
  /// The totals' positions.
  public typealias Indices = Range<Int>

  /// The first currency's total; its currency is -1 while there is none.
  @usableFromInline var head: Element
  /// The totals after the first, in the order their currencies came.
  @usableFromInline var rest: [Element] = []

  /// No totals.
  @inlinable public init() {
    head = (-1, .zero, 0)
  }

  /// The first total's position.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last total: how many there are.
  @inlinable public var endIndex: Int { head.currency < 0 ? 0 : 1 &+ rest.count }
  /// Every total's position.
  @inlinable public var indices: Range<Int> { 0..<endIndex }
  /// The next position.
  @inlinable public func index(after position: Int) -> Int { position + 1 }
  /// The previous position.
  @inlinable public func index(before position: Int) -> Int { position - 1 }

  /// The total at `position` (the first one inline).
  @inlinable public subscript(position: Int) -> Element {
    get {
      precondition(position >= 0 && position < endIndex, "a total's position out of range")
      return position == 0 ? head : rest[position - 1]
    }
    set {
      precondition(position >= 0 && position < endIndex, "a total's position out of range")
      if position == 0 { head = newValue } else { rest[position - 1] = newValue }
    }
  }

  /// Adds `amount`, the sum of `count` transactions, to the total in
  /// `currency` (a new total when there is none); `false` on overflow, when
  /// nothing changes.
  @inlinable @inline(__always)
  mutating func add(_ amount: ExactDecimal, currency: Int, count: Int) -> Bool {
    guard head.currency == currency else { return addBeyondFirst(amount, currency: currency, count: count) }
    // `adding` is inlined with its fast path for the usual amount (no more
    // decimals than the sum, a 64-bit significand).
    guard let sum = head.sum.adding(amount) else { return false }
    head.sum = sum
    head.count &+= count
    return true
  }

  /// `add` for a currency other than the first (or the first total of all).
  @inlinable
  mutating func addBeyondFirst(_ amount: ExactDecimal, currency: Int, count: Int) -> Bool {
    if head.currency < 0 {
      head = (currency, amount, count)
      return true
    }
    for position in rest.indices where rest[position].currency == currency {
      guard let sum = rest[position].sum.adding(amount) else { return false }
      rest[position].sum = sum
      rest[position].count &+= count
      return true
    }
    // A second currency is rare: the array grows from one (doubling) as they come.
    rest.append((currency, amount, count))
    return true
  }

  /// Appends a total for a currency that has none yet.
  @inlinable
  mutating func append(_ total: Element) {
    if head.currency < 0 { head = total } else { rest.append(total) }
  }

  /// Removes the total at `position`; those after it keep their order.
  mutating func remove(at position: Int) {
    precondition(position >= 0 && position < endIndex, "a total's position out of range")
    if position > 0 {
      rest.remove(at: position - 1)
    } else if rest.isEmpty {
      head = (-1, .zero, 0)
    } else {
      head = rest.removeFirst()
    }
  }

  /// Removes every total, keeping the array's room.
  @inlinable
  mutating func removeAllKeepingRoom() {
    head = (-1, .zero, 0)
    rest.removeLastFew()
  }

  /// Whether the totals hold no room beyond the inline first one.
  @inlinable var hasInlineRoomOnly: Bool { rest.capacity == 0 }

  /// Calls `body` with the first total and the others where they lie, with
  /// no array made and nothing retained: the totals of the group at `group`
  /// must not change or go away while `body` runs. Not a method: read through
  /// a pointer, a call on `pointer.pointee` would copy the totals first.
  @inline(__always)
  static func withTotals<R>(
    of group: UnsafePointer<GroupAccumulator>, _ body: (Element?, UnsafeBufferPointer<Element>) -> R
  ) -> R {
    let head = group.pointee.totals.head
    let rest = group.pointee.totals.rest.elementsInPlace
    return body(head.currency < 0 ? nil : head, rest)
  }
}
