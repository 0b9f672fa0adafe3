import Foundation
import Testing
import TxFold

/// The report types decode from what the writers write, as an app reads a
/// server's report: `decode(encode(r)) == r`, and the renderers' `json` and
/// `jsonl` bytes decode to the library's own value.
@Suite("Reports decode from the json and jsonl formats")
struct ReportDecodingTests {
  static let inputs = ReportCodableTests.inputs

  static func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
  }

  @Test("GroupReport: decode(encode(r)) == r and the json format decodes to r", arguments: inputs)
  func groupReport(path: String) throws {
    for limit in [0, 3, Int.max] {
      var options = GroupOptions()
      options.memberLimit = limit
      let report = try GroupPipeline(options: options).run(paths: [path])
      #expect(try Self.roundTrip(report) == report, "\(path)")
      let rendered = Data(ReportRenderer.renderToBytes(report, format: .json))
      let decoded = try JSONDecoder().decode(GroupReport.self, from: rendered)
      #expect(decoded == report, "\(path)")
      // `==` on amounts is numeric and on totals leaves out `count`: the written forms survive too.
      let members = report.sections.flatMap(\.groups).flatMap(\.transactions)
      let decodedMembers = decoded.sections.flatMap(\.groups).flatMap(\.transactions)
      #expect(decodedMembers.map(\.amount.description) == members.map(\.amount.description))
      #expect(decodedMembers.map(\.instant.description) == members.map(\.instant.description))
      #expect(
        decoded.sections.flatMap(\.groups).flatMap(\.totals).map(\.amount.description)
          == report.sections.flatMap(\.groups).flatMap(\.totals).map(\.amount.description))
    }
  }

  @Test("Each jsonl line decodes to its group, state included", arguments: inputs)
  func groupLines(path: String) throws {
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    let lines = ReportRenderer.renderToBytes(report, format: .jsonl).split(separator: UInt8(ascii: "\n"))
    let decoded = try lines.map { try JSONDecoder().decode(TransactionGroup.self, from: Data($0)) }
    #expect(decoded == report.sections.flatMap(\.groups))
  }

  @Test("Members carry their instant as written")
  func memberInstant() throws {
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [Fixture.sample("swile-wallet.json")])
    let member = try #require(report.sections.first?.groups.first?.transactions.first)
    let json = String(decoding: try JSONEncoder().encode(member), as: UTF8.self)
    #expect(json.contains(#""instant":"\#(member.instant.description)""#))
    #expect(member.instant.description.contains("+0"))  // swile writes offsets: kept as written
  }

  @Test("A selection's stats keep `selected`; stats compare what the format carries")
  func selectedStats() throws {
    var options = GroupOptions()
    options.filter = TransactionFilter(states: ["PENDING"])
    let report = try GroupPipeline(options: options).run(paths: [Fixture.sample("user-10015-grouped-mixed.jsonl")])
    #expect(report.stats.selected != nil)
    let decoded = try JSONDecoder().decode(
      GroupReport.self, from: Data(ReportRenderer.renderToBytes(report, format: .json)))
    #expect(decoded.stats.selected == report.stats.selected)
    #expect(decoded == report)
    var other = report.stats
    other.selected = nil
    #expect(other != report.stats)
    other = report.stats
    other.bytesRead += 1
    #expect(other == report.stats)  // a diagnostic, not in the format
  }

  @Test("AccountReport round-trips")
  func accountReports() throws {
    let transactions = try PerAccountAPITests.transactions()
    for result in TransactionGrouping.groupPerAccount(transactions, memberLimit: 3) {
      let account = try result.get()
      #expect(try Self.roundTrip(account) == account)
    }
  }

  @Test(
    "SummaryReport: decode(encode(r)) == r and the json format decodes to r, keys by dimension",
    arguments: SummaryDimension.allCases)
  func summaryReport(dimension: SummaryDimension) throws {
    var options = SummaryOptions()
    options.dimension = dimension
    for path in [Fixture.sample("user-10015-grouped-mixed.jsonl"), Fixture.sample("ledger-account.json")] {
      let report = try SummaryPipeline(options: options).run(paths: [path])
      #expect(try Self.roundTrip(report) == report, "\(path)")
      let rendered = Data(ReportRenderer.renderToBytes(report, format: .json))
      #expect(try JSONDecoder().decode(SummaryReport.self, from: rendered) == report, "\(path)")
    }
  }

  @Test("Summary keys parse back by their dimension, and impossible ones are refused")
  func summaryKeys() {
    #expect(SummaryKey(text: "2019-05-17", dimension: .day) == .day(CalendarDay(year: 2019, month: 5, day: 17)))
    #expect(SummaryKey(text: "2025-W01", dimension: .week) == .week(year: 2025, week: 1))
    #expect(SummaryKey(text: "2019-05", dimension: .month) == .month(year: 2019, month: 5))
    #expect(SummaryKey(text: "2019", dimension: .year) == .year(2019))
    #expect(SummaryKey(text: "Food", dimension: .category) == .text("Food"))
    for (text, dimension) in [
      ("2019-02-30", SummaryDimension.day), ("2019-13", .month), ("2019-W54", .week), ("19", .year), ("x", .day),
    ] {
      #expect(SummaryKey(text: text, dimension: dimension) == nil, "\(text)")
    }
  }

  @Test("ListReport is the list json document, both ways", arguments: inputs)
  func listReport(path: String) throws {
    for page in [PageRequest.all, PageRequest(offset: 1, limit: 2)] {
      var options = ListOptions()
      options.page = page
      let cursor = try ListPipeline(options: options).run(paths: [path])
      let report = try ListReport(reading: cursor)
      #expect(try Self.roundTrip(report) == report)
      var rendered: [UInt8] = []
      try ReportRenderer.render(report, format: .json) { (chunk: inout [UInt8]) in
        rendered.append(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
      }
      let decoded = try JSONDecoder().decode(ListReport.self, from: Data(rendered))
      #expect(decoded == report, "\(path)")
      #expect(try JSONValue(encoding: report) == JSONValue(parsing: rendered))
    }
  }

  /// A debit of 1.00 EUR of account `a` at `instant`, as an app builds its own.
  static func transaction(_ id: String, _ instant: String) throws -> Transaction {
    let stamp = try JSONDecoder().decode(Timestamp.self, from: Data("\"\(instant)\"".utf8))
    return Transaction(
      id: id, instant: stamp, amount: "1.00", currency: "EUR", creditDebitIndicator: .debit, state: "COMPLETED",
      account: "a")
  }

  /// An app's own transactions grouped in a zone may fall on a day outside 0001–9999 (a record
  /// would be refused; `Transaction.init` takes its data as given), which prints in ISO 8601's
  /// expanded form; the report must still decode to itself.
  @Test("In-memory reports whose zone moves a day past year 0001 or 9999 decode to themselves")
  func daysBeyondTheYears() throws {
    let transactions = [
      try Self.transaction("first", "0001-01-01T00:00:00Z"), try Self.transaction("last", "9999-12-31T23:00:00Z"),
    ]
    for (zoneName, day) in [("America/New_York", "0000-12-31"), ("Asia/Tokyo", "10000-01-01")] {
      let report = try TransactionGrouping.group(transactions, zone: ZoneResolver.named(zoneName))
      #expect(report.sections.flatMap(\.groups).map(\.date.description).contains(day))
      #expect(try Self.roundTrip(report) == report, "\(zoneName)")
      let rendered = Data(ReportRenderer.renderToBytes(report, format: .json))
      #expect(try JSONDecoder().decode(GroupReport.self, from: rendered) == report, "\(zoneName)")
      let account = try #require(
        TransactionGrouping.groupPerAccount(transactions, zone: ZoneResolver.named(zoneName)).first)
      #expect(try Self.roundTrip(account.get()) == account.get(), "\(zoneName)")
    }
    for text in ["-0001-12-31", "0000-01-01", "10000-01-01", "-10000-02-29"] {
      let day = try JSONDecoder().decode(CalendarDay.self, from: Data("\"\(text)\"".utf8))
      #expect(day.description == text)
    }
  }

  /// The same days summed by date: a key of a year outside 0001–9999 prints all its year's digits
  /// (`0000`, `10000-01`), and reads back as the key it was; so do keys of years before 0000,
  /// which no timestamp reaches (`-0001-12`).
  @Test("In-memory summaries whose zone moves a day past year 0001 or 9999 decode to themselves")
  func summaryKeysBeyondTheYears() throws {
    let transactions = [
      try Self.transaction("first", "0001-01-01T00:00:00Z"), try Self.transaction("second", "0001-06-01T00:00:00Z"),
      try Self.transaction("last", "9999-12-31T23:00:00Z"),
    ]
    let expected: [String: [SummaryDimension: Set<String>]] = [
      "America/New_York": [
        .day: ["0000-12-31", "0001-05-31", "9999-12-31"], .month: ["0000-12", "0001-05", "9999-12"],
        .year: ["0000", "0001", "9999"],
      ],
      "Asia/Tokyo": [
        .day: ["0001-01-01", "0001-06-01", "10000-01-01"], .month: ["0001-01", "0001-06", "10000-01"],
        .year: ["0001", "10000"],
      ],
    ]
    for zoneName in ["America/New_York", "Asia/Tokyo"] {
      for dimension in SummaryDimension.allCases {
        let report = try TransactionSummary.summarize(transactions, by: dimension, zone: ZoneResolver.named(zoneName))
        #expect(try Self.roundTrip(report) == report, "\(zoneName) \(dimension)")
        let rendered = Data(ReportRenderer.renderToBytes(report, format: .json))
        #expect(try JSONDecoder().decode(SummaryReport.self, from: rendered) == report, "\(zoneName) \(dimension)")
        if let keys = expected[zoneName]?[dimension] {
          #expect(Set(report.entries.compactMap(\.key.text)) == keys, "\(zoneName) \(dimension)")
        }
      }
    }
    for (text, dimension) in [
      ("10000", SummaryDimension.year), ("-0001-12", .month), ("10000-W01", .week), ("0000", .year),
    ] {
      #expect(SummaryKey(text: text, dimension: dimension)?.text == text, "\(text)")
    }
    for (text, dimension) in [
      ("00001", SummaryDimension.year), ("-0000", .year), ("2019-13", .month), ("2019-W54", .week),
      ("2019-W5", .week), ("10000-0", .month), ("W01", .week), ("-W01", .week),
    ] {
      #expect(SummaryKey(text: text, dimension: dimension) == nil, "\(text)")
    }
  }

  /// A run with a zone places timestamps written without an offset in it; the formats carry the
  /// text, not the zone, so the decoded report places them in UTC — and must still be the report.
  @Test("Reports of a run with a zone decode to themselves: group, per account and list")
  func zonedReports() throws {
    let zone = try ZoneResolver.named("Europe/Berlin")
    var options = GroupOptions()
    options.read.zone = zone
    let report = try GroupPipeline(options: options).run(paths: [Fixture.path("corpus.jsonl")])
    #expect(report.sections.first?.groups.first?.latest.hasOffset == false)
    #expect(try Self.roundTrip(report) == report)
    options.read.accounts = .field
    for account in try GroupPipeline(options: options).runPerAccount(paths: [Fixture.path("per-account.jsonl")]) {
      let value = try account.get()
      #expect(try Self.roundTrip(value) == value)
    }
    var listOptions = ListOptions()
    listOptions.read.zone = zone
    let list = try ListReport(
      reading: try ListPipeline(options: listOptions).run(paths: [Fixture.path("corpus.jsonl")]))
    #expect(try Self.roundTrip(list) == list)
  }

  /// Two input amounts of 38 digits sum to a 39-digit total, which every format writes in full.
  @Test("Reports whose totals pass 38 digits decode: group, summary and list")
  func totalsBeyondInputDigits() throws {
    let line =
      #"{"id":"%@","transactionAmountCurrency":{"amount":"50000000000000000000000000000000000000","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T0%@:00:00","state":"COMPLETED"}"#
    let text = ["1", "2"].map { line.replacingOccurrences(of: "%@", with: $0) }.joined(separator: "\n")
    let source = { try InputOpener.open(bytes: Array(text.utf8), name: "wide") }
    let report = try GroupPipeline(options: GroupOptions()).run(sources: [try source()])
    #expect(
      report.sections.first?.groups.first?.totals.first?.amount.description == "1" + String(repeating: "0", count: 38))
    let decoded = try JSONDecoder().decode(
      GroupReport.self, from: Data(ReportRenderer.renderToBytes(report, format: .json)))
    #expect(decoded == report)
    let summary = try SummaryPipeline(options: SummaryOptions()).run(sources: [try source()])
    #expect(try Self.roundTrip(summary) == summary)
    let list = try ListReport(reading: try ListPipeline(options: ListOptions()).run(sources: [try source()]))
    #expect(try Self.roundTrip(list) == list)
  }
}

@Suite("Per-account accounts as an AsyncSequence")
struct AsyncAccountTests {
  @Test("GroupPipeline.accounts hands out runPerAccount's accounts, in order")
  func sameAccounts() async throws {
    var options = GroupOptions()
    options.read.accounts = .field
    options.memberLimit = 2
    let path = Fixture.path("per-account.jsonl")
    var expected: [AccountReport] = []
    for account in try GroupPipeline(options: options).runPerAccount(paths: [path]) {
      expected.append(try account.get())
    }
    var seen: [AccountReport] = []
    for try await account in GroupPipeline.accounts(options: options, paths: [path]) { seen.append(account) }
    #expect(seen == expected)
    #expect(seen.count == 4)
  }

  @Test("A run that fails throws its PipelineError")
  func failure() async throws {
    var options = GroupOptions()
    options.read.accounts = .none
    await #expect(throws: PipelineError.self) {
      for try await _ in GroupPipeline.accounts(options: options, paths: [Fixture.path("per-account.jsonl")]) {}
    }
  }

  @Test("A cancelled task stops with CancellationError")
  func cancelled() async throws {
    var options = GroupOptions()
    options.read.accounts = .field
    let path = Fixture.path("per-account.jsonl")
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      for try await _ in GroupPipeline.accounts(options: options, paths: [path]) {}
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
