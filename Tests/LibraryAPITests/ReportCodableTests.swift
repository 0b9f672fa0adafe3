import Foundation
import Testing
import TxFold

/// The report types encode to the same JSON as the CLI's `--format json`
/// (the renderers' `json` output), compared as parsed JSON values.
@Suite("Codable reports equal the json format")
struct ReportCodableTests {
  static let inputs = [
    Fixture.path("corpus.jsonl"), Fixture.path("corpus-one-malformed.jsonl"), Fixture.path("duplicates.jsonl"),
    Fixture.sample("user-10015-grouped-mixed.jsonl"), Fixture.sample("user-10000-empty.jsonl"),
    Fixture.sample("ledger-account.json"), Fixture.sample("payback-points.json"), Fixture.sample("psd2-account.json"),
    Fixture.sample("swile-wallet.json"),
  ]

  @Test("GroupReport encodes to the json format", arguments: inputs)
  func groupReport(path: String) throws {
    var options = GroupOptions()
    options.memberLimit = 3
    let report = try GroupPipeline(options: options).run(paths: [path])
    let rendered = ReportRenderer.renderToBytes(report, format: .json)
    #expect(try JSONValue(encoding: report) == JSONValue(parsing: rendered))
  }

  @Test("Each group encodes to its jsonl line", arguments: inputs)
  func groupLines(path: String) throws {
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    let lines = ReportRenderer.renderToBytes(report, format: .jsonl).split(separator: UInt8(ascii: "\n"))
    let groups = report.sections.flatMap(\.groups)
    #expect(lines.count == groups.count)  // rows only: no stats line
    for (group, line) in zip(groups, lines) {
      #expect(try JSONValue(encoding: group) == JSONValue(parsing: line))
    }
  }

  @Test("A report without members encodes empty transaction lists, as rendered")
  func withoutMembers() throws {
    var options = GroupOptions()
    options.reportMembers = false
    let report = try GroupPipeline(options: options).run(paths: [Fixture.path("corpus.jsonl")])
    #expect(try JSONValue(encoding: report) == JSONValue(parsing: ReportRenderer.renderToBytes(report, format: .json)))
  }

  @Test(
    "SummaryReport encodes to the summary json format",
    arguments: [SummaryDimension.category, .day, .month, .counterparty, .state])
  func summaryReport(dimension: SummaryDimension) throws {
    var options = SummaryOptions()
    options.dimension = dimension
    for path in [Fixture.sample("user-10015-grouped-mixed.jsonl"), Fixture.sample("ledger-account.json")] {
      let report = try SummaryPipeline(options: options).run(paths: [path])
      let rendered = ReportRenderer.renderToBytes(report, format: .json)
      #expect(try JSONValue(encoding: report) == JSONValue(parsing: rendered), "\(path)")
    }
  }

  @Test(
    "Transactions and their sum encode to the list json format",
    arguments: [
      Fixture.sample("ledger-account.json"), Fixture.sample("user-10015-grouped-mixed.jsonl"),
      Fixture.sample("psd2-account.json"),
    ])
  func listDocument(path: String) throws {
    let transactions = try ListPipeline(options: ListOptions()).run(paths: [path]).remainingTransactions()
    let cursor = try ListPipeline(options: ListOptions()).run(paths: [path])
    var rendered: [UInt8] = []
    let sum = try ReportRenderer.render(cursor, format: .json) { (chunk: inout [UInt8]) in
      rendered.append(contentsOf: chunk)
      chunk.removeAll(keepingCapacity: true)
    }
    guard case .object(let document) = try JSONValue(parsing: rendered) else {
      Issue.record("not an object")
      return
    }
    #expect(try document["transactions"] == JSONValue(encoding: transactions))
    #expect(try document["sum"] == JSONValue(encoding: sum))
    #expect(try document["sum"] == JSONValue(encoding: SelectionSum.of(transactions)))
    #expect(try document["stats"] == JSONValue(encoding: cursor.stats))
  }

  @Test("Transactions round-trip through JSON exactly", arguments: inputs)
  func transactionRoundTrip(path: String) throws {
    let cursor = try ListPipeline(options: ListOptions()).run(paths: [path])
    let transactions = try cursor.remainingTransactions()
    let decoded = try JSONDecoder().decode([Transaction].self, from: JSONEncoder().encode(transactions))
    #expect(decoded == transactions)
    // `==` on amounts is numeric: the printed forms must survive too.
    #expect(decoded.map(\.amount.description) == transactions.map(\.amount.description))
    #expect(decoded.map(\.instant.description) == transactions.map(\.instant.description))
    #expect(decoded.map(\.instant.epochSeconds) == transactions.map(\.instant.epochSeconds))
  }

  @Test("Plain values round-trip: totals, summary cells, days, indicators, reasons, dimensions")
  func plainValues() throws {
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [Fixture.path("corpus.jsonl")])
    let totals = report.sections.flatMap(\.groups).flatMap(\.totals)
    #expect(!totals.isEmpty)
    let decodedTotals = try JSONDecoder().decode([CurrencyTotal].self, from: JSONEncoder().encode(totals))
    // The json format has no per-currency count: it decodes as unknown.
    #expect(totals.allSatisfy { $0.count != nil })
    #expect(decodedTotals.allSatisfy { $0.count == nil })
    #expect(decodedTotals == totals.map { CurrencyTotal(currency: $0.currency, amount: $0.amount) })
    #expect(decodedTotals.map(\.amount.description) == totals.map(\.amount.description))

    let days = report.sections.flatMap(\.groups).map(\.date)
    #expect(try JSONDecoder().decode([CalendarDay].self, from: JSONEncoder().encode(days)) == days)
    let latest = report.sections.flatMap(\.groups).map(\.latest)
    #expect(try JSONDecoder().decode([Timestamp].self, from: JSONEncoder().encode(latest)) == latest)

    let summary = try SummaryPipeline(options: SummaryOptions()).run(paths: [Fixture.path("corpus.jsonl")])
    #expect(
      try JSONDecoder().decode([SummaryCurrencyTotals].self, from: JSONEncoder().encode(summary.totals))
        == summary.totals)
    let codes = [CreditDebitIndicator.credit, .debit]
    #expect(try JSONDecoder().decode([CreditDebitIndicator].self, from: JSONEncoder().encode(codes)) == codes)
    #expect(String(decoding: try JSONEncoder().encode(codes), as: UTF8.self) == #"["CRDT","DBIT"]"#)
    let reasons = RejectReason.allCases
    #expect(try JSONDecoder().decode([RejectReason].self, from: JSONEncoder().encode(reasons)) == reasons)
    let dimensions = SummaryDimension.allCases
    #expect(try JSONDecoder().decode([SummaryDimension].self, from: JSONEncoder().encode(dimensions)) == dimensions)
  }

  @Test(
    "Impossible days and timestamps do not decode",
    arguments: [
      #"["2019-02-30"]"#, #"["2019-05-17T10:00:00"]"#, #"["00001-01-01"]"#, #"["-0000-01-01"]"#,
      #"["0000-02-30"]"#, #"["+2019-05-17"]"#, #"["10000-1-01"]"#,
    ])
  func badDays(json: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDay].self, from: Data(json.utf8)) }
  }
}
