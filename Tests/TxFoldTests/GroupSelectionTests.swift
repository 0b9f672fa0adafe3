import Testing

@testable import TxFold
@testable import TxFoldGen

/// `GroupOptions.filter`: the report of a selection equals the report of the
/// transactions `TransactionFilter.matches` keeps (read whole by
/// `TransactionReader` and folded in memory), on 1 and 3 threads, in small
/// chunks, with and without dedupe and per account.
@Suite("Group selection")
struct GroupSelectionTests {
  static let dump: [UInt8] = GeneratorTests.generate(count: 4_000, seed: 31)

  static let ids: [String] = {
    var ids: [String] = []
    let reader = TransactionReader()
    _ = try? reader.read(sources: [MemorySource(dump)]) { (transaction, position) throws(Never) in
      if position % 7 == 0 { ids.append(transaction.id) }
    }
    return ids
  }()

  static let filters: [(String, TransactionFilter)] = [
    ("categories", TransactionFilter(categories: ["Groceries", "Transfers", TransactionFilter.uncategorized])),
    ("states", TransactionFilter(states: ["pending"])),
    ("currencies", TransactionFilter(currencies: ["usd", "CHF"])),
    (
      "days",
      TransactionFilter(
        since: CalendarDay(year: 2023, month: 3, day: 1), until: CalendarDay(year: 2023, month: 9, day: 30))
    ),
    ("only ids", TransactionFilter(onlyIDs: ids)),
    ("excluded ids", TransactionFilter(excludedIDs: ids)),
    (
      "all at once",
      TransactionFilter(
        categories: ["Groceries", "Shopping", "Food Drinks"], states: ["COMPLETED"], currencies: ["EUR"],
        since: CalendarDay(year: 2022, month: 1, day: 1), excludedIDs: Array(ids.prefix(50)))
    ),
  ]

  /// The oracle: every transaction the filter keeps, folded in memory.
  static func expected(_ filter: TransactionFilter, dedupe: Bool) throws -> GroupReport {
    var transactions: [Transaction] = []
    _ = try TransactionReader().read(sources: [MemorySource(dump)]) { (transaction, _) throws(Never) in
      transactions.append(transaction)
    }
    if dedupe {
      // Dedupe decides among all records first; the selection keeps winners (as `list`).
      var latest: [String: Int] = [:]
      for (position, transaction) in transactions.enumerated() {
        if let current = latest[transaction.id],
          transaction.instant.compareInstant(transactions[current].instant) < 0
        {
          continue
        }
        latest[transaction.id] = position
      }
      transactions = latest.values.sorted().map { transactions[$0] }
    }
    return try TransactionGrouping.group(transactions.filter(filter.matches), memberLimit: 20)
  }

  static func run(_ filter: TransactionFilter, threads: Int, chunkSize: Int, dedupe: Bool) throws -> GroupReport {
    var options = GroupOptions()
    options.filter = filter
    options.threads = threads
    options.dedupe = dedupe
    options.read.limits.chunkSize = chunkSize
    return try GroupPipeline(options: options).run(sources: [MemorySource(dump)])
  }

  @Test("A selected report is the report of the selected transactions", arguments: 0..<7)
  func matchesOracle(index: Int) throws {
    let (name, filter) = Self.filters[index]
    for dedupe in [false, true] {
      let expected = try Self.expected(filter, dedupe: dedupe)
      for (threads, chunkSize) in [(1, 1 << 20), (3, 4096)] {
        let report = try Self.run(filter, threads: threads, chunkSize: chunkSize, dedupe: dedupe)
        #expect(report.sections == expected.sections, "\(name), dedupe \(dedupe), \(threads) threads")
        let kept = expected.sections.reduce(0) { $0 + $1.groups.reduce(0) { $0 + $1.count } }
        #expect(report.stats.selected == kept, "\(name), dedupe \(dedupe)")
        #expect(report.stats.accepted == 4_000)
        #expect(kept > 0 && kept < 4_000, "\(name): the test's filter should select some, not all")
      }
    }
  }

  @Test("No selection: no `selected` in the stats, and the same report as before")
  func noSelection() throws {
    let report = try Self.run(TransactionFilter(), threads: 2, chunkSize: 1 << 20, dedupe: false)
    #expect(report.stats.selected == nil)
    let bytes = ReportRenderer.renderToBytes(report, format: .json)
    #expect(!String(decoding: bytes, as: UTF8.self).contains("selected"))
  }
}
