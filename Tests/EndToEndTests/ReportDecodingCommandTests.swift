import Foundation
import Testing
import TxFold

/// What a server's `txfold` writes, an app decodes with the library's types,
/// and gets the library's own result for the same input.
@Suite("The CLI's json and jsonl decode to the library's results")
struct ReportDecodingCommandTests {
  /// Every sample `--schema auto` reads without options (the 100k dump is
  /// left out for time; `custom-export.jsonl` needs `--field` options).
  static let samples = [
    "user-10000-empty.jsonl", "user-10010-single-pending.jsonl", "user-10011-grouped-pending.jsonl",
    "user-10012-single-completed.jsonl", "user-10013-grouped-completed.jsonl", "user-10014-single-mixed.jsonl",
    "user-10015-grouped-mixed.jsonl", "backbase-trailing-commas.json", "ledger-account.json", "payback-points.json",
    "psd2-account.json", "swile-wallet.json",
  ]

  static func run(_ arguments: [String]) throws -> Data {
    let outcome = try CLIRunner.run(arguments + ["--quiet"])
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    return Data(outcome.stdout)
  }

  static func lines(_ data: Data) -> [Data] {
    data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
  }

  @Test("group --format json and jsonl", arguments: samples)
  func group(sample: String) throws {
    let path = CLIRunner.sample(sample)
    let expected = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    let decoded = try JSONDecoder().decode(GroupReport.self, from: Self.run(["group", "--format", "json", path]))
    #expect(decoded == expected)
    // Beyond `==` (numeric amounts): the written forms arrive as written.
    let members = expected.sections.flatMap(\.groups).flatMap(\.transactions)
    let decodedMembers = decoded.sections.flatMap(\.groups).flatMap(\.transactions)
    #expect(decodedMembers.map(\.amount.description) == members.map(\.amount.description))
    #expect(decodedMembers.map(\.instant.description) == members.map(\.instant.description))
    let rows = try Self.lines(Self.run(["group", "--format", "jsonl", path])).map {
      try JSONDecoder().decode(TransactionGroup.self, from: $0)
    }
    #expect(rows == expected.sections.flatMap(\.groups))
  }

  @Test("group --members all and --members 0 keep what the library keeps")
  func memberLimits() throws {
    let path = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    for (flag, limit) in [("all", Int.max), ("0", 0)] {
      var options = GroupOptions()
      options.memberLimit = limit
      let expected = try GroupPipeline(options: options).run(paths: [path])
      let data = try Self.run(["group", "--members", flag, "--format", "json", path])
      #expect(try JSONDecoder().decode(GroupReport.self, from: data) == expected, "\(flag)")
    }
  }

  @Test("summary --format json, every dimension")
  func summary() throws {
    for sample in ["user-10015-grouped-mixed.jsonl", "ledger-account.json", "psd2-account.json"] {
      let path = CLIRunner.sample(sample)
      for dimension in SummaryDimension.allCases {
        var options = SummaryOptions()
        options.dimension = dimension
        // The CLI's order: a timeline for days, weeks, months and years, else by expense.
        let expected = try SummaryPipeline(options: options).run(paths: [path])
          .sorted(by: SummaryOrder.defaultOrder(for: dimension))
        let data = try Self.run(["summary", "--by", dimension.rawValue, "--format", "json", path])
        #expect(try JSONDecoder().decode(SummaryReport.self, from: data) == expected, "\(sample) \(dimension)")
      }
    }
  }

  /// A `summary --format jsonl` line has no `by`: named in the decoder's `userInfo`, its key
  /// decodes as the `json` document's does — a day as `.day`, not as the text `2019-05-15`.
  @Test("summary --format jsonl lines decode with the json document's keys", arguments: SummaryDimension.allCases)
  func summaryLines(dimension: SummaryDimension) throws {
    let path = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    var options = SummaryOptions()
    options.dimension = dimension
    let expected = try SummaryPipeline(options: options).run(paths: [path])
      .sorted(by: SummaryOrder.defaultOrder(for: dimension))
    let flags = ["summary", "--by", dimension.rawValue, path]
    let document = try JSONDecoder().decode(SummaryReport.self, from: Self.run(flags + ["--format", "json"]))
    let decoder = JSONDecoder()
    decoder.userInfo[SummaryDimension.userInfoKey] = dimension
    let rows = try Self.lines(Self.run(flags + ["--format", "jsonl"])).map {
      try decoder.decode(SummaryEntry.self, from: $0)
    }
    #expect(rows == document.entries && rows == expected.entries, "\(dimension)")
    #expect(rows.map(\.key.text) == expected.entries.map(\.key.text))
    if dimension == .day {
      #expect(rows.allSatisfy { if case .day = $0.key { true } else { false } })
    }
  }

  @Test("list --format json and jsonl", arguments: samples)
  func list(sample: String) throws {
    let path = CLIRunner.sample(sample)
    let cursor = try ListPipeline(options: ListOptions()).run(paths: [path])
    let transactions = try cursor.remainingTransactions()
    let expected = try ListReport(
      transactions: transactions, context: ListContext(stats: cursor.stats, matched: cursor.matched, page: cursor.page))
    let decoded = try JSONDecoder().decode(ListReport.self, from: Self.run(["list", "--format", "json", path]))
    #expect(decoded == expected)
    let rows = try Self.lines(Self.run(["list", "--format", "jsonl", path])).map {
      try JSONDecoder().decode(Transaction.self, from: $0)
    }
    #expect(rows == transactions)
  }

  @Test("group --per-account --format json and jsonl")
  func perAccount() throws {
    let path = CLIRunner.fixture("per-account.jsonl")
    var options = GroupOptions()
    options.read.accounts = .field
    options.memberLimit = 2
    var expected: [AccountReport] = []
    for account in try GroupPipeline(options: options).runPerAccount(paths: [path]) {
      expected.append(try account.get())
    }
    #expect(expected.count == 4)
    struct Document: Decodable {
      var accounts: [AccountReport]
      var stats: RunStats
    }
    let document = try JSONDecoder().decode(
      Document.self, from: Self.run(["group", "--per-account", "--members", "2", "--format", "json", path]))
    #expect(document.accounts == expected)
    #expect(document.stats.accounts == 4)
    #expect(document.stats.lines == 62 && document.stats.rejected == 2)
    let rows = try Self.lines(Self.run(["group", "--per-account", "--members", "2", "--format", "jsonl", path])).map {
      try JSONDecoder().decode(AccountReport.self, from: $0)
    }
    #expect(rows == expected)
  }

  static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
  }

  /// `group --per-account --format json` is one document: `PerAccountReport<AccountReport>`.
  @Test("group --per-account --format json decodes as a PerAccountReport")
  func perAccountGroupDocument() throws {
    let path = CLIRunner.fixture("per-account.jsonl")
    var options = GroupOptions()
    options.read.accounts = .field
    let cursor = try GroupPipeline(options: options).runPerAccount(paths: [path])
    var expected: [AccountReport] = []
    while let account = try cursor.next() { expected.append(account) }
    let document = try JSONDecoder().decode(
      PerAccountReport<AccountReport>.self, from: Self.run(["group", "--per-account", "--format", "json", path]))
    #expect(document.accounts == expected)
    #expect(document.stats == cursor.stats && document.stats.accounts == 4)
    #expect(try Self.roundTrip(document) == document)
  }

  /// `summary --per-account`: each jsonl line and each element of the json document's `accounts`
  /// is an `AccountSummary`, keys typed by the line's `by`, equal to the library's own.
  @Test("summary --per-account --format json and jsonl", arguments: [SummaryDimension.category, .day, .month, .week])
  func perAccountSummary(dimension: SummaryDimension) throws {
    let path = CLIRunner.fixture("per-account.jsonl")
    var options = SummaryOptions()
    options.read.accounts = .field
    options.dimension = dimension
    let cursor = try SummaryPipeline(options: options).runPerAccount(paths: [path])
    var expected: [AccountSummary] = []
    while let account = try cursor.next() {
      expected.append(account.sorted(by: SummaryOrder.defaultOrder(for: dimension)))
    }
    #expect(expected.count == 4)
    let flags = ["summary", "--per-account", "--by", dimension.rawValue, path]
    let rows = try Self.lines(Self.run(flags + ["--format", "jsonl"])).map {
      try JSONDecoder().decode(AccountSummary.self, from: $0)
    }
    #expect(rows == expected)
    let document = try JSONDecoder().decode(
      PerAccountReport<AccountSummary>.self, from: Self.run(flags + ["--format", "json"]))
    #expect(document.accounts == expected)
    #expect(document.stats == cursor.stats && document.stats.accounts == 4)
    #expect(try Self.roundTrip(document) == document)
    for row in rows { #expect(try Self.roundTrip(row) == row) }
    if dimension == .day {
      #expect(rows.flatMap(\.report.entries).allSatisfy { if case .day = $0.key { true } else { false } })
    }
  }

  /// `list --per-account`: each jsonl line and each element of the json document's `accounts` is
  /// an `AccountList`, the account's page as the library's cursor hands it out.
  @Test("list --per-account --format json and jsonl", arguments: [nil, 2, 0] as [Int?])
  func perAccountList(limit: Int?) throws {
    let path = CLIRunner.fixture("per-account.jsonl")
    var options = ListOptions()
    options.read.accounts = .field
    options.page = PageRequest(offset: 0, limit: limit)
    let cursor = try ListPipeline(options: options).runPerAccount(paths: [path])
    var expected: [AccountList] = []
    while let (account, matched) = try cursor.nextAccount() {
      var transactions: [Transaction] = []
      while let transaction = try cursor.next() { transactions.append(transaction) }
      expected.append(
        AccountList(
          account: account, count: matched, transactions: transactions, sum: try SelectionSum.of(transactions),
          page: ListPage(offset: 0, limit: limit, shown: transactions.count, matched: matched)))
    }
    #expect(expected.count == 4)
    let flags = ["list", "--per-account", path] + (limit.map { ["--limit", String($0)] } ?? [])
    let rows = try Self.lines(Self.run(flags + ["--format", "jsonl"])).map {
      try JSONDecoder().decode(AccountList.self, from: $0)
    }
    #expect(rows == expected)
    let document = try JSONDecoder().decode(
      PerAccountReport<AccountList>.self, from: Self.run(flags + ["--format", "json"]))
    #expect(document.accounts == expected)
    #expect(document.stats == cursor.stats && document.stats.accounts == 4)
    #expect(try Self.roundTrip(document) == document)
    for row in rows { #expect(try Self.roundTrip(row) == row) }
  }

  /// Values an app meets in a bank's export: JPY (no fraction digits), a numeric currency code
  /// (`978`), a zero amount (a zero-total group), a lower-case currency and state, offsets of
  /// `-05:00`, `-00:00`, `+14:00` and `+0530`, a nanosecond, a bare date, a local time near New
  /// Year, a numeric account id. Each output, with and without `--timezone` and `--members 0`,
  /// decodes to the library's own result and round-trips.
  @Test(
    "Edge values decode as the library builds them",
    arguments: [(nil, nil), ("Europe/Amsterdam", 0)] as [(String?, Int?)])
  func edgeValues(zone: String?, members: Int?) throws {
    let path = CLIRunner.fixture("app-edge-cases.jsonl")
    let flags = (zone.map { ["--timezone", $0] } ?? []) + (members.map { ["--members", String($0)] } ?? [])
    var read = ReadOptions()
    read.zone = try zone.map { try ZoneResolver.named($0) } ?? read.zone
    var group = GroupOptions()
    group.read = read
    group.memberLimit = members ?? group.memberLimit
    let report = try GroupPipeline(options: group).run(paths: [path])
    let decoded = try JSONDecoder().decode(
      GroupReport.self, from: Self.run(["group", "--format", "json", path] + flags))
    #expect(decoded == report)
    #expect(try Self.roundTrip(decoded) == decoded)
    let totals = decoded.sections.flatMap(\.groups).flatMap(\.totals)
    #expect(totals.contains { $0.currency == "978" } && totals.contains { $0.amount.isZero })
    #expect(
      totals.map(\.amount.description) == report.sections.flatMap(\.groups).flatMap(\.totals).map(\.amount.description))

    group.read.accounts = .field
    let cursor = try GroupPipeline(options: group).runPerAccount(paths: [path])
    var accounts: [AccountReport] = []
    while let account = try cursor.next() { accounts.append(account) }
    let perAccount = try JSONDecoder().decode(
      PerAccountReport<AccountReport>.self,
      from: Self.run(["group", "--per-account", "--format", "json", path] + flags))
    #expect(perAccount.accounts == accounts && perAccount.accounts.map(\.account) == ["12345", "A1"])

    // `list` and `summary` take their days' zone from the filter, as the CLI's `--timezone` sets it.
    var summary = SummaryOptions()
    summary.read = read
    summary.filter = TransactionFilter(zone: read.zone)
    summary.read.accounts = .field
    summary.dimension = .day
    let summaries = try SummaryPipeline(options: summary).runPerAccount(paths: [path])
    var expected: [AccountSummary] = []
    while let account = try summaries.next() { expected.append(account.sorted(by: .defaultOrder(for: .day))) }
    let rows = try Self.lines(
      Self.run(
        ["summary", "--per-account", "--by", "day", "--format", "jsonl", path]
          + (zone.map { ["--timezone", $0] } ?? []))
    ).map { try JSONDecoder().decode(AccountSummary.self, from: $0) }
    #expect(rows == expected)
    for row in rows { #expect(try Self.roundTrip(row) == row) }

    var list = ListOptions()
    list.read = read
    list.filter = TransactionFilter(zone: read.zone)
    let listed = try ListPipeline(options: list).run(paths: [path])
    let transactions = try listed.remainingTransactions()
    let document = try JSONDecoder().decode(
      ListReport.self, from: Self.run(["list", "--format", "json", path] + (zone.map { ["--timezone", $0] } ?? [])))
    #expect(document.transactions == transactions)
    #expect(try Self.roundTrip(document) == document)
  }

  /// `list --timezone` writes each transaction's day in the zone (`y1`, `2019-12-31T23:30:00Z`,
  /// is on `2020-01-01` in Amsterdam). Decoded, a transaction carries that day; written again by
  /// the library it is the CLI's output byte for byte, and the library's own zoned list is the
  /// same value and the same JSON.
  @Test("list --timezone: the day the CLI wrote decodes, writes back as written and is the library's")
  func zonedListDays() throws {
    let path = CLIRunner.fixture("app-edge-cases.jsonl")
    let zone = try ZoneResolver.named("Europe/Amsterdam")
    let flags = ["list", path, "--timezone", "Europe/Amsterdam", "--format"]
    let jsonl = try Self.run(flags + ["jsonl"])
    let json = try Self.run(flags + ["json"])
    let rows = try Self.lines(jsonl).map { try JSONDecoder().decode(Transaction.self, from: $0) }
    let y1 = try #require(rows.first { $0.id == "y1" })
    #expect(y1.date == CalendarDay(year: 2020, month: 1, day: 1))
    #expect(y1.instant.writtenDay == CalendarDay(year: 2019, month: 12, day: 31))
    for row in rows { #expect(try Self.roundTrip(row) == row) }
    let document = try JSONDecoder().decode(ListReport.self, from: json)
    #expect(document.transactions == rows)
    #expect(try Self.roundTrip(document) == document)
    #expect(try ReportRenderer.renderToBytes(document, format: .jsonl) == Array(jsonl))
    #expect(try ReportRenderer.renderToBytes(document, format: .json) == Array(json))
    #expect(try Self.canonicalJSON(JSONEncoder().encode(document)) == Self.canonicalJSON(json))

    var options = ListOptions()
    options.read.zone = zone
    options.filter = TransactionFilter(zone: zone)
    let listed = try ListReport(reading: ListPipeline(options: options).run(paths: [path]))
    #expect(listed.transactions == document.transactions)
    #expect(try Self.canonicalJSON(JSONEncoder().encode(listed)) == Self.canonicalJSON(json))
    // The same day from transactions in memory: a query in the zone, and a sort of decoded ones.
    #expect(TransactionQuery(filter: TransactionFilter(zone: zone)).run(rows).transactions == rows)
    let spilled = try ListCursor(sorting: rows.reversed(), memoryLimit: 1)
    #expect(try spilled.remainingTransactions() == rows)
  }

  /// `data`, a JSON document, with its objects' keys sorted: two documents equal as JSON values are equal.
  static func canonicalJSON(_ data: Data) throws -> Data {
    try JSONSerialization.data(
      withJSONObject: JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
      options: [.sortedKeys, .fragmentsAllowed])
  }

  /// A monitor reads the `--stats` document with the library's `RunStats`: the counts, and what
  /// the document carries beyond a report's `stats` (rejections per reason, schema, bytes).
  @Test("--stats decodes to RunStats, rejections per reason, schema and bytes included")
  func statsDocument() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let paths = [CLIRunner.fixture("corpus-one-malformed.jsonl"), CLIRunner.fixture("corpus.jsonl.gz")]
    let statsPath = directory.appendingPathComponent("stats.json").path
    _ = try Self.run(["group", "--format", "json", "--stats", statsPath] + paths)
    let decoded = try JSONDecoder().decode(RunStats.self, from: Data(contentsOf: URL(fileURLWithPath: statsPath)))
    let expected = try GroupPipeline(options: GroupOptions()).run(paths: paths).stats
    #expect(decoded == expected)
    #expect(decoded.rejectedByReason == expected.rejectedByReason && !decoded.rejectedByReason.isEmpty)
    #expect(decoded.schema == expected.schema)
    #expect(decoded.bytesRead == expected.bytesRead && decoded.bytesDecoded == expected.bytesDecoded)
    #expect(decoded.bytesRead != decoded.bytesDecoded)  // one input is gzip: stored and inflated bytes differ
  }
}
