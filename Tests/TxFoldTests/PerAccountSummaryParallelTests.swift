import Foundation
import Testing

@testable import TxFold

/// `summary --per-account` on every core (workers key each record into an
/// entry sorted by account, `ListChunkFolder` with `EntryPayload.summaryKey`;
/// `AccountSummaryCursor` sums each account's entries) against the
/// `Transaction` path kept as the oracle (`runPerAccountOneByOne`): the same
/// accounts, counts, reports, days (the period an account's page names),
/// stats and rejections, or the same error, for
/// every dimension, filter, thread count and memory limit — down to a run per
/// handful of entries, merged in several passes.
@Suite("summary --per-account on every core")
struct PerAccountSummaryParallelTests {
  /// What a run gave: its accounts' summaries and days, its stats, its rejections, or its error.
  struct Outcome: Equatable {
    var accounts: [AccountSummary] = []
    var days: [DaySpan?] = []
    /// Each account's `report.stats` as handed out, which `AccountSummary`'s `==` leaves out.
    var accountStats: [RunStats] = []
    var stats: RunStats?
    var rejections: [String] = []
    var error: String?
    var spilled = 0
  }

  /// A record of the Backbase shape `txfold gen` writes, with `extra` fields
  /// at the end; the amount as the schema wants it (unsigned), its sign in `debit`.
  static func record(
    account: String, id: String, instant: String = "2024-03-01T10:00:00Z", amount: String = "12.50",
    currency: String = "EUR", debit: Bool = true, state: String = "COMPLETED", extra: String = ""
  ) -> String {
    "{\"arrangementId\":\(account),\"id\":\"\(id)\",\"transactionAmountCurrency\":{\"amount\":\"\(amount)\","
      + "\"currencyCode\":\"\(currency)\"},\"creditDebitIndicator\":\"\(debit ? "DBIT" : "CRDT")\","
      + "\"creationTime\":\"\(instant)\",\"state\":\"\(state)\"\(extra)}"
  }

  /// Accounts that sort only by their bytes past the sort key's first sixteen
  /// (`ListEntryLayout.AccountKey`), that share those and differ in length,
  /// that end in a NUL (which the key pads with), and that are written as a
  /// JSON number or escaped; keys that are absent, `null`, empty, a number or
  /// escaped; states in lower case; currencies in lower case; instants tied,
  /// with ids apart or shared.
  static let crafted: [String] = {
    let accounts = [
      "\"ACCOUNT-PREFIX-0001-B\"", "\"ACCOUNT-PREFIX-0001-A\"", "\"ACCOUNT-PREFIX-0\"", "\"ACCOUNT-PREFIX-0\\u0000\"",
      "\"ACCOUNT-\"", "\"ACCOUNT-\\u0000\"", "\"ACCOUNT\"", "12345", "\"\\u00e9-account\"", "\"é-account-2\"",
    ]
    let extras = [
      "", ",\"category\":null", ",\"category\":\"\"", ",\"category\":7", ",\"category\":\"Caf\\u00e9\"",
      ",\"category\":\"Café\",\"counterPartyName\":\"Shop\"", ",\"counterPartyName\":\"\\\"quoted\\\"\"", "",
    ]
    var lines: [String] = []
    for (number, account) in accounts.enumerated() {
      for (index, extra) in extras.enumerated() {
        let day = 1 + (number + index) % 27
        let instant = "2024-0\(1 + index % 9)-\(day < 10 ? "0" : "")\(day)T1\(index % 10):00:00+01:00"
        lines.append(
          record(
            account: account, id: "id-\(number)-\(index)", instant: instant, amount: "\(index + 1).2\(number)",
            currency: index % 3 == 0 ? "eur" : "USD", debit: index % 4 != 1,
            state: index == 7 ? "pending" : "COMPLETED",
            extra: extra))
      }
      // Tied instants (one written in another offset): ids apart and an id shared, amounts of other scales.
      lines.append(
        record(account: account, id: "z-tie", instant: "2024-05-05T05:05:05Z", amount: "3.000", debit: false))
      lines.append(record(account: account, id: "a-tie", instant: "2024-05-05T05:05:05Z", amount: "3"))
      lines.append(record(account: account, id: "a-tie", instant: "2024-05-05T07:05:05+02:00", amount: "100.5"))
    }
    lines.append("{\"arrangementId\":\"ACCOUNT\",\"id\":\"broken\"")
    return lines
  }()

  /// 2,000 records over 30 accounts from `txfold gen`, then the crafted ones, interleaved.
  static let dump: [UInt8] = {
    let generated = GeneratorTests.lines(of: GeneratorTests.generate(count: 2_000, seed: 31, accounts: 30))
    var out: [UInt8] = []
    var next = 0
    for (index, line) in generated.enumerated() {
      out += line
      out.append(.newline)
      if index % 20 == 0, next < crafted.count {
        out += Array(crafted[next].utf8)
        out.append(.newline)
        next += 1
      }
    }
    for line in crafted[next...] {
      out += Array(line.utf8)
      out.append(.newline)
    }
    return out
  }()

  static func run(_ options: SummaryOptions, dump: [UInt8], oneByOne: Bool) -> Outcome {
    var outcome = Outcome()
    var options = options
    options.read.accounts = .field
    let pipeline = SummaryPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    do throws(PipelineError) {
      let sources: [any ByteSource] = [MemorySource(dump, name: "dump.jsonl")]
      let cursor =
        oneByOne
        ? try pipeline.runPerAccountOneByOne(sources: sources) : try pipeline.runPerAccount(sources: sources)
      defer { cursor.close() }
      while let account = try cursor.next() {
        outcome.accounts.append(account)
        outcome.days.append(cursor.days)
        outcome.accountStats.append(account.report.stats)
      }
      outcome.stats = cursor.stats
      outcome.spilled = cursor.spilledRuns
    } catch {
      outcome.error = "\(error)"
    }
    return outcome
  }

  static let filters: [TransactionFilter] = [
    TransactionFilter(),
    TransactionFilter(categories: ["Food Drinks", "Café", TransactionFilter.uncategorized]),
    TransactionFilter(
      since: CalendarDay(year: 2024, month: 2, day: 1), until: CalendarDay(year: 2024, month: 6, day: 30)),
    TransactionFilter(states: ["pending"], currencies: ["eur"]),
  ]

  @Test("the same accounts, reports, days, stats and rejections as the Transaction path, spilled or not")
  func equivalence() throws {
    var spilledSomewhere = false
    // Days in a zone of their own too: a record's day is then not as written (offsets +01:00, +02:00, Z).
    let filters = Self.filters + [TransactionFilter(zone: try ZoneResolver.named("Pacific/Kiritimati"))]
    for dimension in SummaryDimension.allCases {
      for (number, filter) in filters.enumerated() {
        for (threads, memoryLimit, dedupe) in [(1, 64 << 20, false), (3, 24 << 10, false), (2, 24 << 10, true)]
        where number == 0 || dimension == .category {
          var options = SummaryOptions()
          options.dedupe = dedupe
          options.dimension = dimension
          options.filter = filter
          options.threads = threads
          options.memoryLimit = memoryLimit
          options.maxFanIn = 3
          let expected = Self.run(options, dump: Self.dump, oneByOne: true)
          var parallel = Self.run(options, dump: Self.dump, oneByOne: false)
          #expect(expected.error == nil, "\(dimension) filter \(number): \(expected.error ?? "")")
          if number == 0 && !dedupe {
            #expect(expected.accounts.count > 30)
            #expect(expected.days.count == expected.accounts.count && expected.days.allSatisfy { $0 != nil })
            // The crafted records are valid but the one cut short.
            #expect(expected.rejections.count == 1, "\(expected.rejections.prefix(3))")
          }
          if parallel.spilled > 0 { spilledSomewhere = true }
          parallel.spilled = expected.spilled
          #expect(
            parallel == expected, "\(dimension), filter \(number), \(threads) threads, limit \(memoryLimit), \(dedupe)")
        }
      }
    }
    #expect(spilledSomewhere)
  }

  @Test("Accounts apart only past their first sixteen bytes, or by a NUL, come in byte order")
  func accountOrder() throws {
    let outcome = Self.run(SummaryOptions(), dump: Self.dump, oneByOne: false)
    let accounts = outcome.accounts.map { Array($0.account.utf8) }
    #expect(accounts == accounts.sorted { $0.lexicographicallyPrecedes($1) })
    let names = Set(outcome.accounts.map(\.account))
    for name in [
      "ACCOUNT-PREFIX-0001-A", "ACCOUNT-PREFIX-0001-B", "ACCOUNT-PREFIX-0", "ACCOUNT-PREFIX-0\u{0}", "ACCOUNT-",
      "ACCOUNT-\u{0}", "ACCOUNT", "12345", "é-account", "é-account-2",
    ] {
      #expect(names.contains(name), "\(name)")
    }
  }

  @Test("A sum that overflows stops both paths with the same error")
  func overflow() {
    let huge = String(repeating: "9", count: 38)
    let lines = [
      Self.record(account: "\"A\"", id: "1", amount: "1"),
      Self.record(account: "\"B\"", id: "2", instant: "2024-03-02T10:00:00Z", amount: huge),
      Self.record(account: "\"B\"", id: "3", amount: huge, extra: ",\"category\":\"Rent\""),
      Self.record(account: "\"B\"", id: "4", amount: huge, extra: ",\"category\":\"Rent\""),
    ]
    let dump = Array((lines.joined(separator: "\n") + "\n").utf8)
    for threads in [1, 2] {
      var options = SummaryOptions()
      options.threads = threads
      let expected = Self.run(options, dump: dump, oneByOne: true)
      let parallel = Self.run(options, dump: dump, oneByOne: false)
      #expect(expected.error != nil)
      #expect(parallel.error == expected.error)
      #expect(parallel.accounts == expected.accounts)
    }
  }
}
