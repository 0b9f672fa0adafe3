/// The first and last day of the transactions a report covers, gathered one
/// day at a time without keeping the days: what an `html` page names as its
/// period (`HTMLPage.Heading`).
///
/// It also counts the transactions on its first and on its last day, so that
/// transactions taken back out (`summary --dedupe` subtracts the versions
/// that lose) can be taken out of the span too, as long as the span's ends
/// keep a transaction: when one end loses its last, the new end is unknown
/// (`subtract` says so) and the caller gathers the span anew.
package struct DaySpan: Sendable, Hashable {
  /// The earliest day added.
  package private(set) var first: CalendarDay
  /// The latest day added.
  package private(set) var last: CalendarDay
  /// Transactions on `first`.
  private var onFirst: Int
  /// Transactions on `last` (the same as `onFirst` when `first == last`).
  private var onLast: Int

  /// The span of one transaction on `day`.
  package init(_ day: CalendarDay) {
    first = day
    last = day
    onFirst = 1
    onLast = 1
  }

  /// The first and the last day, as a page heading names them.
  package var period: (first: CalendarDay, last: CalendarDay) { (first, last) }

  /// Adds one transaction on `day`: O(1), no allocation.
  @inline(__always)
  package mutating func add(_ day: CalendarDay) {
    if day < first {
      first = day
      onFirst = 1
    } else if day == first {
      onFirst &+= 1
    }
    if day > last {
      last = day
      onLast = 1
    } else if day == last {
      onLast &+= 1
    }
  }

  /// Adds the transactions `other` spans.
  package mutating func merge(_ other: DaySpan) {
    if other.first < first {
      first = other.first
      onFirst = other.onFirst
    } else if other.first == first {
      onFirst &+= other.onFirst
    }
    if other.last > last {
      last = other.last
      onLast = other.onLast
    } else if other.last == last {
      onLast &+= other.onLast
    }
  }

  /// Takes out transactions `other` spans, all of them added before; `false`
  /// when an end of the span lost its last transaction (its new end is unknown).
  package mutating func subtract(_ other: DaySpan) -> Bool {
    if other.first == first { onFirst &-= other.onFirst }
    if other.last == last { onLast &-= other.onLast }
    return onFirst > 0 && onLast > 0
  }
}

extension Optional where Wrapped == DaySpan {
  /// Adds one transaction on `day` to the span, starting it when there is none.
  @inline(__always)
  package mutating func add(_ day: CalendarDay) {
    guard var span = self else {
      self = DaySpan(day)
      return
    }
    span.add(day)
    self = span
  }

  /// Adds `other`'s transactions to the span.
  package mutating func merge(_ other: DaySpan?) {
    guard let other else { return }
    guard var span = self else {
      self = other
      return
    }
    span.merge(other)
    self = span
  }
}
