import Testing

@testable import TxFold

/// Per-key summaries (the tech-challenge seed's insights): counts, income and
/// expense per currency, the order, and the missing key.
@Suite("Transaction summaries")
struct TransactionSummaryTests {
  typealias Sample = TransactionSamples

  /// `key currency count income expense` per line, in order.
  static func rows(_ report: SummaryReport) -> [String] {
    report.entries.flatMap { entry in
      entry.currencies.map { "\(entry.key.text ?? "-") \($0.currency) \($0.count) \($0.income) \($0.expense)" }
    }
  }

  @Test("By category: expense first, largest first; income-only keys by name; missing key last")
  func byCategory() throws {
    let transactions = [
      try Sample.make("1", "2019-05-17", "-12.80", category: "Food"),
      try Sample.make("2", "2019-05-17", "-7.5", category: "Food"),
      try Sample.make("3", "2019-05-16", "-1250.00", category: "Housing"),
      try Sample.make("4", "2019-05-16", "1919.95", category: "Salary"),
      try Sample.make("5", "2019-05-15", "4.20", category: "Food"),
      try Sample.make("6", "2019-05-15", "10", category: nil),
      try Sample.make("7", "2019-05-15", "0.37", category: "Interest"),
      try Sample.make("8", "2019-05-14", "-3", category: ""),
    ]
    let report = try TransactionSummary.summarize(transactions, by: .category)
    #expect(
      Self.rows(report) == [
        "Housing EUR 1 0.00 -1250.00",
        "Food EUR 3 4.20 -20.30",
        "- EUR 2 10 -3",
        "Interest EUR 1 0.37 0.00",
        "Salary EUR 1 1919.95 0.00",
      ])
    #expect(report.entries.map(\.count) == [1, 3, 2, 1, 1])
    #expect(report.totals.map { "\($0.currency) \($0.count) \($0.income) \($0.expense)" } == ["EUR 8 1934.52 -1273.30"])
    #expect(report.stats.accepted == 8)
  }

  @Test("Several currencies: ranked by total expense, keys compared currency by currency")
  func currencies() throws {
    let transactions = [
      try Sample.make("1", "2019-05-17", "-100", "USD", category: "A"),
      try Sample.make("2", "2019-05-17", "-5", "EUR", category: "B"),
      try Sample.make("3", "2019-05-17", "-60", "USD", category: "B"),
      try Sample.make("4", "2019-05-17", "-5", "EUR", category: "C"),
      try Sample.make("5", "2019-05-17", "-70", "USD", category: "C"),
      try Sample.make("6", "2019-05-17", "-9", "EUR", category: "D"),
    ]
    let report = try TransactionSummary.summarize(transactions, by: .category)
    // USD has the larger total expense (230 against 19), so it ranks first.
    #expect(report.rankedCurrencies == ["USD", "EUR"])
    #expect(report.entries.map { $0.key.text ?? "-" } == ["A", "C", "B", "D"])
  }

  @Test("By day and month, in a time zone; by state and counterparty")
  func otherDimensions() throws {
    let transactions = [
      try Sample.make("1", "2019-05-31T23:30:00Z", "-1", state: "PENDING", counterparty: "Tesco"),
      try Sample.make("2", "2019-05-31T10:00:00Z", "-2", counterparty: "Tesco"),
      try Sample.make("3", "2019-06-01", "-4", counterparty: "Albert Heijn"),
      try Sample.make("4", "2019-04-30", "8"),
    ]
    let byDay = try TransactionSummary.summarize(transactions, by: .day)
    #expect(Self.rows(byDay) == ["2019-06-01 EUR 1 0 -4", "2019-05-31 EUR 2 0 -3", "2019-04-30 EUR 1 8 0"])
    let amsterdam = try #require(ZoneResolver(identifier: "Europe/Amsterdam"))
    let byDayThere = try TransactionSummary.summarize(transactions, by: .day, zone: amsterdam)
    #expect(
      Self.rows(byDayThere) == [
        "2019-06-01 EUR 2 0 -5", "2019-05-31 EUR 1 0 -2", "2019-04-30 EUR 1 8 0",
      ])
    let byMonth = try TransactionSummary.summarize(transactions, by: .month)
    #expect(Self.rows(byMonth) == ["2019-06 EUR 1 0 -4", "2019-05 EUR 2 0 -3", "2019-04 EUR 1 8 0"])
    let byState = try TransactionSummary.summarize(transactions, by: .state)
    #expect(Self.rows(byState) == ["COMPLETED EUR 3 8 -6", "PENDING EUR 1 0 -1"])
    let byCounterparty = try TransactionSummary.summarize(transactions, by: .counterparty)
    #expect(Self.rows(byCounterparty) == ["Albert Heijn EUR 1 0 -4", "Tesco EUR 2 0 -3", "- EUR 1 8 0"])
  }

  @Test("The insights view counts only pinned transactions")
  func pinnedInsights() throws {
    let transactions = [
      try Sample.make("t1", "2021-03-01", "-12.99", category: "entertainment"),
      try Sample.make("t2", "2021-03-02", "-34.50", category: "food"),
      try Sample.make("t3", "2021-03-03", "-7.25", category: "food"),
      try Sample.make("t4", "2021-03-04", "-20", category: "shopping"),
    ]
    let pinned = TransactionQuery(filter: TransactionFilter(excludedIDs: ["t2"])).run(transactions).transactions
    let report = try TransactionSummary.summarize(pinned, by: .category)
    #expect(Self.rows(report) == ["shopping EUR 1 0 -20", "entertainment EUR 1 0.00 -12.99", "food EUR 1 0.00 -7.25"])
  }

  @Test("A total that no longer fits in 128 bits names its key")
  func overflow() throws {
    let huge = ExactDecimal(wide: WideInt.min + 1, scale: 0)
    let transaction = Transaction(
      id: "1", instant: try #require(TimestampParser.parse("2019-05-17")), amount: huge, currency: "EUR",
      creditDebitIndicator: .debit, state: "COMPLETED", category: "Rent")
    #expect(throws: SumOverflow(currency: "EUR", key: "Rent")) {
      try TransactionSummary.summarize([transaction, transaction], by: .category)
    }
  }

  @Test("Currencies rank alike whether a report holds a few or more than a look-up along an array takes")
  func manyCurrencies() throws {
    for count in [3, 16, 17, 40] {
      // Currency n has an expense of n % 7 (so ties, broken by code) in each of two entries.
      let codes = (0..<count).map { "C\(String(format: "%02d", $0))" }.shuffled()
      let entries = (0..<2).map { number in
        SummaryEntry(
          key: .text("k\(number)"), count: count,
          currencies: codes.map { code in
            let value = Int(code.dropFirst())! % 7
            return SummaryCurrencyTotals(
              currency: code, count: 1, income: .zero, expense: ExactDecimal(stringLiteral: "\(-value)"))
          })
      }
      let expected = codes.sorted {
        let (left, right) = (Int($0.dropFirst())! % 7, Int($1.dropFirst())! % 7)
        return left != right ? left > right : $0 < $1
      }
      #expect(TransactionSummary.rankCurrencies(entries) == expected, "\(count) currencies")
    }
  }
}
