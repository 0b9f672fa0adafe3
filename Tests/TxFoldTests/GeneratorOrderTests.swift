import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// `txfold gen --order day|account|shuffled` and `--resend RATE`: the same records in every
/// order, each order as documented, deterministic for a seed; re-sends counted exactly, later
/// in the dump, exact copies or `PENDING` → `COMPLETED`.
@Suite struct GeneratorOrderTests {
  static func generate(
    count: Int, seed: UInt64 = 42, accounts: Int = 0, order: GeneratorOrder = .day, resend: Int = 0,
    flushThreshold: Int = Int.max
  ) -> [UInt8] {
    var all: [UInt8] = []
    TransactionGenerator(
      options: GeneratorOptions(count: count, seed: seed, accounts: accounts, order: order, resendPerMillion: resend),
      flushThreshold: flushThreshold
    ).generate { chunk in all += chunk }
    return all
  }

  static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    GeneratorTests.lines(of: bytes)
  }

  /// One line's id (a string or an integer, as text), account, state and wall-clock time
  /// (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS`, without fraction or offset).
  struct Record {
    var id: String
    var account: String
    var state: String
    var time: String
  }

  static func records(_ bytes: [UInt8]) throws -> [Record] {
    try GeneratorTests.records(of: bytes).map { object in
      let time = try #require(object["creationTime"] as? String)
      return Record(
        id: "\(try #require(object["id"]))", account: object["arrangementId"] as? String ?? "",
        state: try #require(object["state"] as? String), time: String(time.prefix(19)))
    }
  }

  static func report(_ bytes: [UInt8], dedupe: Bool = false) throws -> GroupReport {
    var options = GroupOptions()
    options.dedupe = dedupe
    options.threads = 2
    return try GroupPipeline(options: options).run(sources: [MemorySource(bytes)])
  }

  // MARK: - Orders

  @Test("Day order is the default's bytes, on the streaming path and the arranged one")
  func dayOrderIsTheDefault() {
    for count in [0, 1, 7, 2_000] {
      let streamed = Self.generate(count: count, accounts: 50)
      var arranged: [UInt8] = []
      TransactionGenerator(options: GeneratorOptions(count: count, accounts: 50), flushThreshold: 1_000)
        .generateArranged { chunk in arranged += chunk }
      #expect(arranged == streamed, "count \(count)")
      #expect(Self.generate(count: count, accounts: 50, order: .day) == streamed)
    }
  }

  @Test(
    "Every order holds the same lines, is the same bytes for a seed and chunking, and differs by seed",
    arguments: [GeneratorOrder.account, .shuffled])
  func sameLinesInEveryOrder(order: GeneratorOrder) {
    let day = Self.generate(count: 3_000, accounts: 200)
    let arranged = Self.generate(count: 3_000, accounts: 200, order: order)
    #expect(arranged != day)
    #expect(
      Self.lines(arranged).sorted { $0.lexicographicallyPrecedes($1) }
        == Self.lines(day).sorted {
          $0.lexicographicallyPrecedes($1)
        })
    #expect(Self.generate(count: 3_000, accounts: 200, order: order, flushThreshold: 1) == arranged)
    #expect(Self.generate(count: 3_000, seed: 43, accounts: 200, order: order) != arranged)
    #expect(Self.generate(count: 0, order: order).isEmpty)
    #expect(Self.lines(Self.generate(count: 1, order: order)) == Self.lines(Self.generate(count: 1)))
  }

  @Test("Account order: by account, each account's records in time order")
  func accountOrder() throws {
    let records = try Self.records(Self.generate(count: 5_000, accounts: 300, order: .account))
    #expect(records.count == 5_000)
    var boundaries = 0
    for (previous, next) in zip(records, records.dropFirst()) {
      #expect(previous.account <= next.account)
      if previous.account != next.account {
        boundaries += 1
        continue
      }
      // Days never go back within an account; times neither, where both lines have one.
      #expect(previous.time.prefix(10) <= next.time.prefix(10), "\(previous) then \(next)")
      if previous.time.count == 19 && next.time.count == 19 { #expect(previous.time <= next.time) }
    }
    #expect(boundaries > 100)
    // Without accounts, the records are all one account's: time order.
    let oneAccount = try Self.records(Self.generate(count: 2_000, order: .account))
    for (previous, next) in zip(oneAccount, oneAccount.dropFirst()) {
      #expect(previous.time.prefix(10) <= next.time.prefix(10))
    }
  }

  @Test("Shuffled: neighbours share little; the report is the day order's")
  func shuffledOrder() throws {
    let day = Self.generate(count: 4_000, accounts: 100)
    let shuffled = Self.generate(count: 4_000, accounts: 100, order: .shuffled)
    let records = try Self.records(shuffled)
    let sameDay = zip(records, records.dropFirst()).filter { $0.time.prefix(10) == $1.time.prefix(10) }.count
    // 731 days: two neighbours share a day about once in 700 draws, not 9 times in 10.
    #expect(sameDay < 100)
    let dayReport = try Self.report(day)
    for order in [GeneratorOrder.account, .shuffled] {
      let report = try Self.report(Self.generate(count: 4_000, accounts: 100, order: order))
      // The same records: the same sections, groups and counts (which members are kept may
      // differ on ties of instant, so members are not compared).
      #expect(report.stats.accepted == dayReport.stats.accepted)
      #expect(report.sections.map(\.state) == dayReport.sections.map(\.state))
      #expect(
        report.sections.map { $0.groups.map(\.count) } == dayReport.sections.map { $0.groups.map(\.count) },
        "\(order)")
    }
  }

  // MARK: - Re-sends

  @Test(
    "Re-sends: count + ⌊count × rate⌋ lines, count distinct ids, every copy later and as documented",
    arguments: [GeneratorOrder.day, .account, .shuffled], [0, 1, 7, 3_000])
  func resends(order: GeneratorOrder, count: Int) throws {
    for (rate, perMillion) in [("0.2", 200_000), ("5%", 50_000), ("1", 1_000_000), ("0.000001", 1)] {
      #expect(GeneratorOptions.resendPerMillion(parsing: rate) == perMillion)
      let expectedResends = count * perMillion / 1_000_000
      let options = GeneratorOptions(count: count, accounts: 40, order: order, resendPerMillion: perMillion)
      #expect(options.resendCount == expectedResends)
      let bytes = Self.generate(count: count, accounts: 40, order: order, resend: perMillion)
      let lines = Self.lines(bytes)
      let records = try Self.records(bytes)
      #expect(lines.count == count + expectedResends, "\(order), \(count), \(rate)")
      #expect(Set(records.map(\.id)).count == count)
      // The originals are the dump without re-sends, line for line.
      let plain = Set(Self.lines(Self.generate(count: count, accounts: 40)).map { Array($0) })
      #expect(plain.count == count)
      var seen: [String: Int] = [:]
      var exact = 0
      var completed = 0
      for (position, record) in records.enumerated() {
        guard let first = seen[record.id] else {
          seen[record.id] = position
          continue
        }
        var (original, copy) = (records[first], record)
        var (originalLine, copyLine) = (Array(lines[first]), Array(lines[position]))
        if order == .shuffled && !plain.contains(originalLine) {
          // Shuffled: the copy may come first.
          swap(&original, &copy)
          swap(&originalLine, &copyLine)
        }
        #expect(plain.contains(originalLine), "the original of \(record.id) is a record of the plain dump")
        if copyLine == originalLine {
          exact += 1
          #expect(original.state == "COMPLETED")
        } else {
          completed += 1
          #expect(original.state == "PENDING" && copy.state == "COMPLETED", "\(original) then \(copy)")
          #expect(original.time < copy.time || original.time.count == 10, "\(original) then \(copy)")
          #expect(original.account == copy.account)
        }
      }
      #expect(exact + completed == expectedResends, "\(order), \(count), \(rate)")
      if count == 3_000 && perMillion == 1_000_000 {
        // About 10 % of the records are PENDING, and every record is re-sent at this rate.
        #expect(completed > 100)
        #expect(exact > 2_000)
      }
    }
  }

  @Test("Deduplicated, a re-sent dump is the plain dump's count; each re-send is one duplicate")
  func dedupeCountsResends() throws {
    let bytes = Self.generate(count: 2_000, accounts: 30, order: .shuffled, resend: 250_000)
    let report = try Self.report(bytes, dedupe: true)
    #expect(report.stats.lines == 2_500)
    #expect(report.stats.duplicates == 500)
    #expect(report.stats.accepted == 2_500)
    #expect(Self.generate(count: 2_000, accounts: 30, order: .shuffled, resend: 250_000) == bytes)
  }

  @Test(
    "Rates: a share from 0 to 1 with at most six decimals, or a percentage with at most four",
    arguments: [
      ("0", 0), ("1", 1_000_000), ("0.2", 200_000), (".5", 500_000), ("0.05", 50_000), ("1.0", 1_000_000),
      ("0.1234560", 123_456), ("20%", 200_000), ("100%", 1_000_000), ("0.5%", 5_000), ("0.0001%", 1),
    ] as [(String, Int)])
  func ratesParse(text: String, expected: Int) {
    #expect(GeneratorOptions.resendPerMillion(parsing: text) == expected)
  }

  @Test(
    "Rates refused", arguments: ["", ".", "-0.1", "1.01", "2", "101%", "0.0000001", "0.2x", "1e-1", "0,2", "%", "abc"])
  func ratesRefused(text: String) {
    #expect(GeneratorOptions.resendPerMillion(parsing: text) == nil, "\(text)")
  }
}
