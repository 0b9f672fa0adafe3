import Testing

@testable import TxFold

/// The seeds' list logic on in-memory transactions: order, filters, the
/// pinned subset, dedupe, pagination and sums.
@Suite("Transaction queries")
struct TransactionQueryTests {
  typealias Sample = TransactionSamples

  // MARK: Order

  @Test("Newest first; ties by id byte-wise, then by what the row shows (here the instant as written)")
  func order() throws {
    let transactions = [
      try Sample.make("b", "2019-05-17T10:00:00Z", "1"),
      try Sample.make("a", "2019-05-17T12:00:00+02:00", "2"),  // the same instant as "b"
      try Sample.make("z", "2019-05-18", "3"),
      try Sample.make("B", "2019-05-17T10:00:00", "4"),  // offset-less counts as UTC: same instant again
      try Sample.make("é", "2019-05-16", "5"),
      try Sample.make("e\u{301}", "2019-05-16", "6"),  // canonically equal to "é", different bytes
      try Sample.make("a", "2019-05-17T10:00:00Z", "7"),  // same instant and id as the second, written before it
    ]
    let sorted = TransactionOrder.sorted(transactions)
    #expect(sorted.map(\.amount.description) == ["3", "4", "7", "2", "1", "6", "5"])
    #expect(TransactionOrder.sorted(transactions.reversed()) == sorted)
  }

  @Test("The PAYBACK seed: sorted by booking date, newest on top")
  func paybackOrder() throws {
    let sorted = TransactionOrder.sorted(try Sample.payback())
    #expect(
      sorted.map(\.id) == [
        "491779356655580", "075903074248681", "795357452000810", "094844835601044", "098193809705561",
        "554854339484901", "053297453069759",
      ])
  }

  // MARK: Filters and sums (PAYBACK, tech challenge)

  @Test(
    "Filter by category, and the sum of the filtered list",
    arguments: [
      (["1"], ["795357452000810", "098193809705561", "554854339484901"], "1717"),
      (["2"], ["491779356655580", "094844835601044", "053297453069759"], "2270"),
      (["2", "3"], ["491779356655580", "075903074248681", "094844835601044", "053297453069759"], "2356"),
      (["all"], [], "4073"),
      (["9"], [], "0"),
    ])
  func categoryAndSum(categories: [String], ids: [String], sum: String) throws {
    let result = TransactionQuery(filter: TransactionFilter(categories: categories)).run(try Sample.payback())
    if !ids.isEmpty || categories != ["all"] { #expect(result.transactions.map(\.id) == ids) }
    let total = try SelectionSum.of(result.transactions)
    #expect(total.count == result.transactions.count)
    if result.transactions.isEmpty {
      #expect(total.currencies.isEmpty)
    } else {
      #expect(total.currencies.map(\.currency) == ["PBP"])
      #expect(total.currencies.first?.amount.description == sum)
    }
  }

  @Test("Currencies are kept by code in any case; no currency list keeps all")
  func currencies() throws {
    let transactions = [
      try Sample.make("1", "2019-05-17", "-10.00", "EUR"), try Sample.make("2", "2019-05-16", "-5.50", "usd"),
      try Sample.make("3", "2019-05-15", "-1", "GBP"),
    ]
    #expect(TransactionFilter(currencies: nil).keepsEverything)
    #expect(!TransactionFilter(currencies: ["EUR"]).keepsEverything)
    let kept = TransactionQuery(filter: TransactionFilter(currencies: ["eur", "USD"])).run(transactions)
    #expect(kept.transactions.map(\.id) == ["1", "2"])
    #expect(TransactionQuery(filter: TransactionFilter(currencies: [])).run(transactions).matched == 0)
  }

  @Test("'all' keeps every category, and transactions without one; '(none)' keeps only those")
  func allAndNone() throws {
    let transactions = [
      try Sample.make("1", "2019-05-17", "-10.00", category: "Food"),
      try Sample.make("2", "2019-05-16", "-5.50", category: nil),
      try Sample.make("3", "2019-05-15", "-1", category: ""),
      try Sample.make("4", "2019-05-14", "200", category: "Salary"),
    ]
    #expect(TransactionQuery(filter: TransactionFilter(categories: ["all"])).run(transactions).matched == 4)
    #expect(TransactionQuery(filter: TransactionFilter(categories: nil)).run(transactions).matched == 4)
    let none = TransactionQuery(filter: TransactionFilter(categories: ["(none)"])).run(transactions)
    #expect(none.transactions.map(\.id) == ["2", "3"])
    let foodOrNone = TransactionQuery(filter: TransactionFilter(categories: ["Food", "(none)"])).run(transactions)
    #expect(foodOrNone.transactions.map(\.id) == ["1", "2", "3"])
    #expect(try SelectionSum.of(foodOrNone.transactions).currencies.first?.amount.description == "-16.50")
  }

  @Test("The tech-challenge seed: the sum follows the category, then only pinned transactions count")
  func pinnedSum() throws {
    let transactions = [
      try Sample.make("t1", "2021-03-01T10:00:00Z", "-12.99", category: "entertainment"),
      try Sample.make("t2", "2021-03-02T10:00:00Z", "-34.50", category: "food"),
      try Sample.make("t3", "2021-03-03T10:00:00Z", "-7.25", category: "food"),
      try Sample.make("t4", "2021-03-04T10:00:00Z", "-120", category: "shopping"),
      try Sample.make("t5", "2021-03-05T10:00:00Z", "-3.10", category: "food"),
    ]
    func sum(_ filter: TransactionFilter) throws -> String? {
      try SelectionSum.of(TransactionQuery(filter: filter).run(transactions).transactions).currencies.first?.amount
        .description
    }
    #expect(try sum(TransactionFilter(categories: ["food"])) == "-44.85")
    #expect(try sum(TransactionFilter(categories: ["all"])) == "-177.84")
    // Unpin t3: only pinned transactions count, in the category and in "all".
    let pinned = ["t1", "t2", "t4", "t5"]
    #expect(try sum(TransactionFilter(categories: ["food"], onlyIDs: pinned)) == "-37.60")
    #expect(try sum(TransactionFilter(onlyIDs: pinned)) == "-170.59")
    #expect(try sum(TransactionFilter(excludedIDs: ["t3"])) == "-170.59")
    #expect(try sum(TransactionFilter(onlyIDs: [])) == nil)
  }

  @Test("State, date range (inclusive days) and time zone")
  func stateAndDates() throws {
    let transactions = [
      try Sample.make("1", "2019-05-17T23:30:00Z", "1", state: "PENDING"),
      try Sample.make("2", "2019-05-16T08:00:00", "2"),
      try Sample.make("3", "2019-05-15", "3"),
      try Sample.make("4", "2019-05-14T23:59:59+02:00", "4"),
    ]
    func ids(_ filter: TransactionFilter) -> [String] {
      TransactionQuery(filter: filter).run(transactions).transactions.map(\.id)
    }
    #expect(ids(TransactionFilter(states: ["pending"])) == ["1"])
    var lowerCased = transactions[0]
    lowerCased.state = "pending"
    #expect(TransactionFilter(states: ["PENDING"]).matches(lowerCased))
    #expect(ids(TransactionFilter(states: ["COMPLETED"])) == ["2", "3", "4"])
    let may15 = CalendarDay(year: 2019, month: 5, day: 15)
    let may16 = CalendarDay(year: 2019, month: 5, day: 16)
    #expect(ids(TransactionFilter(since: may15, until: may16)) == ["2", "3"])
    #expect(ids(TransactionFilter(since: may16)) == ["1", "2"])
    #expect(ids(TransactionFilter(until: may15)) == ["3", "4"])
    // In Amsterdam (UTC+2 in May) the first is on the 18th and the last on the 14th as written.
    let amsterdam = try #require(ZoneResolver(identifier: "Europe/Amsterdam"))
    #expect(ids(TransactionFilter(since: may16, until: may16, zone: amsterdam)) == ["2"])
    #expect(ids(TransactionFilter(until: CalendarDay(year: 2019, month: 5, day: 14), zone: amsterdam)) == ["4"])
  }

  // MARK: Dedupe (Spanish ledger seed)

  @Test("The Spanish seed: same id keeps the most recent; latest first; totals including fees")
  func spanishLedger() throws {
    let result = TransactionQuery(dedupe: true).run(try Sample.spanishLedger())
    #expect(result.duplicates == 1)
    #expect(result.matched == 10)
    #expect(
      result.transactions.map(\.id) == ["2911", "2117", "9745", "6068", "3371", "1442", "6595", "3369", "2210", "4734"])
    let latest = try #require(result.latest)
    #expect(latest.id == "2911")
    #expect(latest.amount.description == "87.84")
    #expect(try latest.amount.adding(#require(latest.fee))?.description == "86.73")
    let sum = try SelectionSum.of(result.transactions)
    #expect(sum.hasFees)
    let euro = try #require(sum.currencies.first)
    #expect(euro.amount.description == "189.61")
    #expect(euro.fees.description == "-9.24")
    #expect(euro.feeCount == 3)
    #expect(euro.total.description == "180.37")
  }

  @Test("Dedupe: a tie on the instant keeps the later record; it decides before filters")
  func dedupeRules() throws {
    let transactions = [
      try Sample.make("x", "2019-05-17T10:00:00Z", "-1.00", state: "PENDING"),
      try Sample.make("x", "2019-05-17T12:00:00+02:00", "-1.50", state: "COMPLETED"),  // same instant, later: wins
      try Sample.make("y", "2019-05-18", "2", state: "PENDING"),
      try Sample.make("y", "2019-05-17", "3", state: "PENDING"),  // earlier: loses
    ]
    let all = TransactionQuery(dedupe: true).run(transactions)
    #expect(all.transactions.map(\.amount.description) == ["2", "-1.50"])
    #expect(all.duplicates == 2)
    // The superseded PENDING record of x does not come back under a PENDING filter.
    let pending = TransactionQuery(filter: TransactionFilter(states: ["PENDING"]), dedupe: true).run(transactions)
    #expect(pending.transactions.map(\.amount.description) == ["2"])
    let (kept, duplicates) = TransactionDeduplication.latestPerID(transactions)
    #expect(kept.map(\.amount.description) == ["-1.50", "2"])
    #expect(duplicates == 2)
  }

  // MARK: Pagination (Swile seed)

  @Test(
    "Pagination edges",
    arguments: [
      (PageRequest(offset: 0, limit: 3), ["9", "8", "7"]),
      (PageRequest(offset: 3, limit: 3), ["6", "5", "4"]),
      (PageRequest(offset: 8, limit: 3), ["1"]),
      (PageRequest(offset: 9, limit: 3), []),
      (PageRequest(offset: 100, limit: 3), []),
      (PageRequest(offset: 2, limit: 0), []),
      (PageRequest(offset: 7), ["2", "1"]),
      (PageRequest(), ["9", "8", "7", "6", "5", "4", "3", "2", "1"]),
      (PageRequest(offset: -4, limit: -1), []),
    ])
  func pages(page: PageRequest, ids: [String]) throws {
    let transactions = try (1...9).map { try Sample.make(String($0), "2019-05-0\($0)", "1") }
    let result = TransactionQuery(page: page).run(transactions)
    #expect(result.transactions.map(\.id) == ids)
    #expect(result.matched == 9)
    #expect(result.latest?.id == "9")
  }

  @Test("Pages by number and size")
  func pageNumbers() {
    #expect(PageRequest.page(1, size: 20) == PageRequest(offset: 0, limit: 20))
    #expect(PageRequest.page(3, size: 20) == PageRequest(offset: 40, limit: 20))
    #expect(PageRequest.page(0, size: 20) == nil)
    #expect(PageRequest.page(1, size: 0) == nil)
    #expect(PageRequest.page(Int.max, size: 2) == nil)
    #expect(PageRequest(offset: Int.max, limit: 5).end == Int.max)
    #expect(PageRequest.page(2, size: 4)?.apply([1, 2, 3, 4, 5, 6]) == [5, 6])
  }

  // MARK: Sums

  @Test("Sums are exact, per currency, with the largest scale of their addends")
  func sums() throws {
    let sum = try SelectionSum.of([
      try Sample.make("1", "2019-05-17", "10.5", "USD"),
      try Sample.make("2", "2019-05-17", "1.25", "USD"),
      try Sample.make("3", "2019-05-17", "0.10", "EUR"),
      try Sample.make("4", "2019-05-17", "0.20", "EUR", fee: "-0.005"),
      try Sample.make("5", "2019-05-17", "124", "PBP"),
      try Sample.make("6", "2019-05-17", "53", "PBP"),
    ])
    #expect(sum.count == 6)
    #expect(sum.currencies.map(\.currency) == ["EUR", "PBP", "USD"])
    #expect(sum.currencies.map(\.amount.description) == ["0.30", "177", "11.75"])
    #expect(sum.currencies.map(\.fees.description) == ["-0.005", "0", "0"])
    #expect(sum.currencies.map(\.total.description) == ["0.295", "177", "11.75"])
    #expect(sum.currencies.map(\.count) == [2, 2, 2])
  }

  @Test("A sum that no longer fits in 128 bits is an error, never a wrap-around")
  func overflow() throws {
    let huge = ExactDecimal(wide: WideInt.max - 1, scale: 0)
    let big = Transaction(
      id: "1", instant: try #require(TimestampParser.parse("2019-05-17")), amount: huge, currency: "EUR",
      creditDebitIndicator: .credit, state: "COMPLETED")
    #expect(throws: SumOverflow(currency: "EUR")) { try SelectionSum.of([big, big]) }
  }
}
