import Foundation
import Testing

@testable import TxFold

/// `summary --by week` (ISO 8601 weeks) and `--by year`: the week arithmetic against known
/// dates and against Foundation's ISO 8601 calendar, and the keys' text.
@Suite struct SummaryPeriodTests {
  @Test(
    "Known ISO weeks, year ends included",
    arguments: [
      ((2024, 12, 30), (2025, 1)), ((2021, 1, 3), (2020, 53)), ((2020, 12, 31), (2020, 53)),
      ((2023, 1, 1), (2022, 52)), ((2023, 1, 2), (2023, 1)), ((2004, 12, 27), (2004, 53)),
      ((2005, 1, 2), (2004, 53)), ((2026, 11, 24), (2026, 48)), ((1970, 1, 1), (1970, 1)),
      ((1, 1, 1), (1, 1)), ((9999, 12, 31), (9999, 52)),
    ])
  func knownWeeks(date: (Int, Int, Int), expected: (Int, Int)) {
    let week = SummaryAccumulator.isoWeek(of: CalendarDay(year: date.0, month: date.1, day: date.2))
    #expect(week.year == expected.0 && week.week == expected.1, "\(date) → \(week)")
  }

  @Test("Every day of 1998–2032 has Foundation's ISO 8601 week")
  func agreesWithFoundation() throws {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let first = Int(CalendarDay(year: 1998, month: 1, day: 1).daysSinceEpoch)
    let last = Int(CalendarDay(year: 2032, month: 12, day: 31).daysSinceEpoch)
    for days in first...last {
      let date = Date(timeIntervalSince1970: Double(days) * 86_400)
      let components = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
      let week = SummaryAccumulator.isoWeek(of: CalendarDay(daysSinceEpoch: Int32(days)))
      #expect(week.year == components.yearForWeekOfYear && week.week == components.weekOfYear, "day \(days)")
      if week.year != components.yearForWeekOfYear || week.week != components.weekOfYear { return }
    }
  }

  @Test func keyTexts() {
    #expect(SummaryKey.week(year: 2025, week: 1).text == "2025-W01")
    #expect(SummaryKey.week(year: 2020, week: 53).text == "2020-W53")
    #expect(SummaryKey.year(2024).text == "2024")
    #expect(SummaryKey.year(7).text == "0007")
  }
}
