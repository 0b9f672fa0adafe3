import Foundation
import Testing
import TxFold

/// One zone governs every command: `ReadOptions.zone`, which `group` reads and the docs set.
/// `y1` of `app-edge-cases.jsonl`, `2019-12-31T23:30:00Z`, is on `2020-01-01` in Amsterdam.
@Suite("read.zone dates list, summary and group alike")
struct ZoneSettingTests {
  static let path = Fixture.path("app-edge-cases.jsonl")
  static let newYear = CalendarDay(year: 2020, month: 1, day: 1)
  static let oldYear = CalendarDay(year: 2019, month: 12, day: 31)

  static func amsterdam() throws -> ZoneResolver { try ZoneResolver.named("Europe/Amsterdam") }

  static func y1Date(_ options: ListOptions) throws -> CalendarDay? {
    try ListPipeline(options: options).run(paths: [path]).remainingTransactions().first { $0.id == "y1" }?.date
  }

  static func days(_ options: SummaryOptions) throws -> Set<CalendarDay> {
    var options = options
    options.dimension = .day
    return Set(
      try SummaryPipeline(options: options).run(paths: [path]).entries.compactMap {
        if case .day(let day) = $0.key { day } else { nil }
      })
  }

  @Test("Setting read.zone alone changes list's and summary's days, their since/until and a filter set after it")
  func readZoneGoverns() throws {
    var list = ListOptions()
    #expect(try Self.y1Date(list) == Self.oldYear)
    list.read.zone = try Self.amsterdam()
    #expect(list.filter.zone.zone == list.read.zone.zone)
    #expect(try Self.y1Date(list) == Self.newYear)
    // A filter without a zone, set after, keeps the run's zone; its days are the zone's.
    list.filter = TransactionFilter(since: Self.newYear, until: Self.newYear)
    let kept = try ListPipeline(options: list).run(paths: [Self.path]).remainingTransactions()
    #expect(kept.map(\.id) == ["y1"])
    #expect(kept.map(\.date) == [Self.newYear])

    var summary = SummaryOptions()
    #expect(try !Self.days(summary).contains(Self.newYear))
    summary.read.zone = try Self.amsterdam()
    #expect(try Self.days(summary).contains(Self.newYear))
    summary.read.accounts = .field
    summary.dimension = .day
    let cursor = try SummaryPipeline(options: summary).runPerAccount(paths: [Self.path])
    var perAccountDays: [CalendarDay] = []
    while let account = try cursor.next() {
      perAccountDays += account.report.entries.compactMap { if case .day(let day) = $0.key { day } else { nil } }
    }
    #expect(perAccountDays.contains(Self.newYear))
  }

  @Test("A zone set on the filter, as before, is the run's zone: read.zone reads it back, group takes it too")
  func filterZoneIsTheSameSetting() throws {
    var list = ListOptions()
    list.filter = TransactionFilter(zone: try Self.amsterdam())
    #expect(list.read.zone.zone == list.filter.zone.zone)
    #expect(try Self.y1Date(list) == Self.newYear)

    var group = GroupOptions()
    group.filter = TransactionFilter(zone: try Self.amsterdam())
    var zoned = GroupOptions()
    zoned.read.zone = try Self.amsterdam()
    let report = try GroupPipeline(options: group).run(paths: [Self.path])
    #expect(report.sections == (try GroupPipeline(options: zoned).run(paths: [Self.path]).sections))
    #expect(report.sections.flatMap(\.groups).contains { $0.date == Self.newYear })
  }
}
