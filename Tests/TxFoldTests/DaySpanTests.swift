import Testing

@testable import TxFold

/// `DaySpan`: the first and last day of transactions added one by one or merged in parts.
@Suite struct DaySpanTests {
  static func day(_ number: Int32) -> CalendarDay { CalendarDay(daysSinceEpoch: 18_000 + number) }

  static func span(_ days: [Int32]) -> DaySpan? {
    var span: DaySpan?
    for number in days { span.add(day(number)) }
    return span
  }

  @Test("Added one by one or merged in parts, the span is the days' first and last")
  func addAndMerge() {
    let days: [Int32] = [5, 3, 9, 3, 9, 7, 1, 12, 12, 1]
    for cut in 0...days.count {
      var merged = Self.span(Array(days[..<cut]))
      merged.merge(Self.span(Array(days[cut...])))
      #expect(merged == Self.span(days), "cut at \(cut)")
      #expect(merged?.period.first == Self.day(1) && merged?.period.last == Self.day(12))
    }
    #expect(Self.span([]) == nil)
    #expect(Self.span([4])?.period.first == Self.day(4) && Self.span([4])?.period.last == Self.day(4))
  }
}
