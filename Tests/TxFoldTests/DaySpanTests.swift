import Testing

@testable import TxFold

/// `DaySpan`: the first and last day of transactions added, merged and taken
/// out again, against the span of the days that remain.
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
  }

  @Test("Taking days out keeps the span while both ends keep a day, and says when one does not")
  func subtract() {
    // Every way to take some of these days out (as --dedupe's losers, in two parts).
    let days: [Int32] = [4, 4, 6, 8, 8, 8]
    for mask in 1..<(1 << days.count) {
      let out = days.indices.filter { mask & (1 << $0) != 0 }.map { days[$0] }
      let kept = days.indices.filter { mask & (1 << $0) == 0 }.map { days[$0] }
      var span = Self.span(days)!
      let half = out.count / 2
      var known = true
      for part in [Array(out[..<half]), Array(out[half...])] {
        guard let taken = Self.span(part) else { continue }
        known = span.subtract(taken) && known
      }
      let expected = Self.span(kept)
      let endsKept = kept.contains(4) && kept.contains(8)
      #expect(known == endsKept, "out \(out)")
      if known { #expect(span.period.first == expected?.period.first && span.period.last == expected?.period.last) }
    }
  }
}
