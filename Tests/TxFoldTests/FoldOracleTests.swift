import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// The streaming fold against a naive in-memory implementation, on seeded random data.
@Suite("Fold oracle")
struct FoldOracleTests {
  struct Row {
    var id: String
    var time: String
    var epoch: Int64
    var amount: String
    var currency: String
    var indicator: String
    var state: String
  }

  static func rows(seed: UInt64, count: Int) -> [Row] {
    // The library's seeded generator, so failures reproduce.
    var random = SplitMix64(seed: seed)
    return (0..<count).map { index in
      let day = 1 + random.next(below: 5)
      let hour = random.next(below: 3)
      let time = String(format: "2019-05-%02dT%02d:00:00", day, hour)
      let whole = random.next(below: 100_000)
      let fraction = random.next(below: 1000)
      let digits = random.next(below: 4)
      var amount = String(whole)
      if digits > 0 { amount += "." + String(String(format: "%03d", fraction).prefix(digits)) }
      return Row(
        id: "id-\(random.next(below: count))-\(index % 3)", time: time, epoch: Int64(day * 86_400 + hour * 3600),
        amount: amount, currency: ["EUR", "USD", "GBP"][random.next(below: 3)],
        indicator: ["CRDT", "DBIT"][random.next(below: 2)],
        state: ["PENDING", "COMPLETED", "completed", "REVERSED"][random.next(below: 4)])
    }
  }

  /// The naive implementation: dictionaries, Foundation `Decimal` sums, and a full sort for members.
  static func naive(_ rows: [Row], members memberLimit: Int) -> [String] {
    struct Key: Hashable {
      var state: String
      var day: String
      var indicator: String
    }
    var groups: [Key: [Row]] = [:]
    for row in rows {
      groups[
        Key(state: row.state.uppercased(), day: String(row.time.prefix(10)), indicator: row.indicator), default: []
      ]
      .append(row)
    }
    func stateRank(_ state: String) -> (Int, String) {
      (state == "PENDING" ? 0 : state == "COMPLETED" ? 1 : 2, state)
    }
    let keys = groups.keys.sorted { lhs, rhs in
      if stateRank(lhs.state) != stateRank(rhs.state) { return stateRank(lhs.state) < stateRank(rhs.state) }
      if lhs.day != rhs.day { return lhs.day > rhs.day }
      let leftLatest = groups[lhs, default: []].map(\.epoch).max() ?? 0
      let rightLatest = groups[rhs, default: []].map(\.epoch).max() ?? 0
      if leftLatest != rightLatest { return leftLatest > rightLatest }
      return lhs.indicator == "CRDT"
    }
    return keys.map { key in
      let members = groups[key, default: []]
      var totals: [String: (Decimal, Int)] = [:]
      for row in members {
        let scale = row.amount.split(separator: ".").dropFirst().first?.count ?? 0
        let current = totals[row.currency] ?? (Decimal(0), 0)
        totals[row.currency] = (current.0 + (Decimal(string: row.amount) ?? 0), max(current.1, scale))
      }
      let totalText = totals.keys.sorted().map { currency -> String in
        let (sum, scale) = totals[currency] ?? (0, 0)
        var rounded = Decimal()
        var value = sum
        NSDecimalRound(&rounded, &value, scale, .plain)
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.minimumFractionDigits = scale
        formatter.maximumFractionDigits = scale
        formatter.usesGroupingSeparator = false
        return currency + " " + (formatter.string(from: rounded as NSDecimalNumber) ?? "?")
      }
      let sorted = members.sorted { lhs, rhs in
        lhs.epoch != rhs.epoch
          ? lhs.epoch > rhs.epoch : Array(lhs.id.utf8).lexicographicallyPrecedes(Array(rhs.id.utf8))
      }
      let latest = sorted.first?.time ?? ""
      let kept = sorted.prefix(memberLimit).map(\.id)
      return "\(key.state) \(key.day) \(key.indicator) n=\(members.count) [\(totalText.joined(separator: ", "))] "
        + "latest=\(latest) {\(kept.joined(separator: ","))}"
    }
  }

  static func outline(_ report: GroupReport) -> [String] {
    report.sections.flatMap { section in
      section.groups.map { group in
        let totals = group.totals.map { "\($0.currency) \($0.amount)" }
        return "\(section.state) \(group.date) \(group.creditDebitIndicator) n=\(group.count) "
          + "[\(totals.joined(separator: ", "))] latest=\(group.latest) "
          + "{\(group.transactions.map(\.id).joined(separator: ","))}"
      }
    }
  }

  static func dump(_ rows: [Row]) -> [UInt8] {
    Array(
      rows.map { row in
        backbaseRecord(
          id: "\"\(row.id)\"", amount: "\"\(row.amount)\"", currency: "\"\(row.currency)\"",
          indicator: "\"\(row.indicator)\"", time: "\"\(row.time)\"", state: "\"\(row.state)\"")
      }.joined(separator: "\n").utf8)
  }

  @Test("Streaming fold equals the naive fold on every thread count", arguments: [1, 2, 3, 4, 5])
  func matchesNaive(seed: UInt64) throws {
    let rows = Self.rows(seed: seed, count: 600 + Int(seed) * 100)
    // Duplicate ids tie on instant only rarely; keep the tie-break on id meaningful.
    let expected = Self.naive(rows, members: 3)
    let dump = Self.dump(rows)
    var outputs: [[UInt8]] = []
    for threads in [1, 2, 4] {
      var options = GroupOptions()
      options.threads = threads
      options.memberLimit = 3
      options.read.limits.chunkSize = 512 + Int(seed) * 37
      let report = try GroupPipeline(options: options).run(sources: [MemorySource(dump, step: 1000)])
      #expect(Self.outline(report) == expected, "seed \(seed), \(threads) threads")
      outputs.append(ReportRenderer.renderToBytes(report, format: .json))
    }
    #expect(Set(outputs).count == 1, "every thread count gives the same bytes")
  }

  @Test("Without members the report keeps every count, total and latest instant, and the CSV bytes")
  func reportWithoutMembers() throws {
    let dump = Self.dump(Self.rows(seed: 12, count: 700))
    var options = GroupOptions()
    options.memberLimit = 3
    let full = try GroupPipeline(options: options).run(sources: [MemorySource(dump)])
    options.reportMembers = false
    let bare = try GroupPipeline(options: options).run(sources: [MemorySource(dump)])
    let groups = full.sections.flatMap(\.groups)
    let bareGroups = bare.sections.flatMap(\.groups)
    #expect(groups.count > 10 && groups.allSatisfy { !$0.transactions.isEmpty })
    #expect(bareGroups.allSatisfy { $0.transactions.isEmpty })
    // The outline without its member list is the same line for line.
    let strip = { (line: String) in line.prefix { $0 != "{" } }
    #expect(Self.outline(bare).map(strip) == Self.outline(full).map(strip))
    let bareCSV = ReportRenderer.renderToBytes(bare, format: .csv)
    let fullCSV = ReportRenderer.renderToBytes(full, format: .csv)
    #expect(bareCSV == fullCSV)
  }

  @Test("The in-memory API equals the streaming fold")
  func inMemoryMatchesStreaming() throws {
    let rows = Self.rows(seed: 11, count: 500)
    let transactions = rows.map { row in
      Transaction(
        id: row.id, instant: TimestampParser.parse(row.time).unsafelyUnwrapped,
        amount: ExactDecimal(row.amount).unsafelyUnwrapped, currency: row.currency,
        creditDebitIndicator: CreditDebitIndicator(code: row.indicator).unsafelyUnwrapped, state: row.state)
    }
    var options = GroupOptions()
    options.memberLimit = 4
    let streamed = try GroupPipeline(options: options).run(sources: [MemorySource(Self.dump(rows))])
    let inMemory = try TransactionGrouping.group(transactions, memberLimit: 4)
    #expect(Self.outline(inMemory) == Self.outline(streamed))
  }
}
