/// The first and last day of the transactions a report covers, gathered one
/// day at a time without keeping the days: what an `html` page names as its
/// period (`HTMLPage.Heading`).
package struct DaySpan: Sendable, Hashable {
  /// The earliest day added.
  package private(set) var first: CalendarDay
  /// The latest day added.
  package private(set) var last: CalendarDay

  /// The span of one day.
  package init(_ day: CalendarDay) {
    first = day
    last = day
  }

  /// The first and the last day, as a page heading names them.
  package var period: (first: CalendarDay, last: CalendarDay) { (first, last) }

  /// Adds one transaction on `day`: O(1), no allocation.
  @inline(__always)
  package mutating func add(_ day: CalendarDay) {
    if day < first { first = day }
    if day > last { last = day }
  }

  /// Adds the days `other` spans.
  package mutating func merge(_ other: DaySpan) {
    add(other.first)
    add(other.last)
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

  /// Adds `other`'s days to the span.
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
