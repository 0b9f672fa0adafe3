import Testing

@_spi(Benchmarks) @testable import TxFold

@Suite("Group table report")
struct GroupTableReportTests {
  @Test("Currency ranks order as the names' UTF-8 bytes do; equal names share a rank")
  func byteOrderRanks() {
    let names = ["USD", "EUR", "€", "EUR", "AB", "ABC", "eur", "", "Ä", "A"]
    let ranks = GroupTable.byteOrderRanks(names)
    #expect(ranks.count == names.count)
    for left in names.indices {
      for right in names.indices {
        let precedes = Array(names[left].utf8).lexicographicallyPrecedes(Array(names[right].utf8))
        #expect((ranks[left] < ranks[right]) == precedes, "\(names[left]) vs \(names[right])")
        #expect((ranks[left] == ranks[right]) == (names[left] == names[right]))
      }
    }
    #expect(GroupTable.byteOrderRanks([]).isEmpty)
  }

  @Test("A group's totals are listed by currency code, byte-wise; codes are upper-cased, so `usd` is `USD`")
  func totalsByCurrency() throws {
    let table = GroupTable(memberLimit: 2)
    let instant = try #require(TimestampParser.parse("2019-05-17T10:00:00Z"))
    // "usd" is "USD" (Transaction.init upper-cases codes); "US$" sorts before it, byte-wise.
    for (index, currency) in ["USD", "EUR", "usd", "GBP", "EUR", "CHF", "US$"].enumerated() {
      let transaction = Transaction(
        id: "t\(index)", instant: instant, amount: ExactDecimal("1.5"), currency: currency,
        creditDebitIndicator: .credit, state: "COMPLETED")
      #expect(table.fold(transaction))
    }
    let report = table.report(stats: RunStats())
    let group = try #require(report.sections.first?.groups.first)
    #expect(group.totals.map(\.currency) == ["CHF", "EUR", "GBP", "US$", "USD"])
    #expect(group.totals.map(\.amount) == ["1.5", "3.0", "1.5", "1.5", "3.0"].compactMap { ExactDecimal($0) })
    #expect(group.transactions.map(\.id) == ["t0", "t1"])
  }
}
