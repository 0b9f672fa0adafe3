import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// `list --per-account` and `summary --per-account` in the library, against a
/// naive oracle: each account's list or summary equals the plain `list` or
/// `summary` run over that account's records alone (the dump split by
/// account with Foundation), in memory or spilled to disk, with or without a
/// page and a filter.
@Suite("Per-account list and summary")
struct PerAccountQueryTests {
  /// 3,000 records over 40 accounts, skewed as `gen --accounts` makes them.
  static let dump: [UInt8] = GeneratorTests.generate(count: 3_000, seed: 23, accounts: 40)

  /// The oracle's accounts, byte-wise ascending, each with its lines.
  static let split: [(account: String, bytes: [UInt8])] = {
    let byAccount = (try? PerAccountTests.linesByAccount(dump)) ?? [:]
    return byAccount.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
      .map { ($0.key, $0.value) }
  }()

  static func flushing(into out: UnsafeMutablePointer<[UInt8]>) -> (inout [UInt8]) -> Void {
    { chunk in
      out.pointee += chunk
      chunk.removeAll()
    }
  }

  static func object(_ bytes: some Sequence<UInt8>) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
  }

  /// A JSON value's canonical bytes, so values compare exactly.
  static func canonical(_ value: Any?) throws -> Data {
    try JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
  }

  static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] { GeneratorTests.lines(of: bytes) }

  /// The account objects of a `jsonl` output: every line is one (rows only, no stats line).
  static func accountObjects(_ lines: [ArraySlice<UInt8>]) throws -> [[String: Any]] {
    let objects = try lines.map { try object($0) }
    for object in objects {
      #expect(object["account"] is String)
      #expect(object["stats"] == nil)
    }
    return objects
  }

  // MARK: list

  static func listOptions(page: PageRequest, memoryLimit: Int, filter: TransactionFilter) -> ListOptions {
    var options = ListOptions()
    options.page = page
    options.memoryLimit = memoryLimit
    options.maxFanIn = 4
    options.filter = filter
    return options
  }

  /// The per-account list of `bytes` as `format`.
  static func perAccountList(
    _ bytes: [UInt8], options: ListOptions, format: ReportFormat, accounts: AccountSource = .field
  ) throws -> (bytes: [UInt8], spilled: Int) {
    var options = options
    options.read.accounts = accounts
    let cursor = try ListPipeline(options: options).runPerAccount(sources: [MemorySource(bytes, name: "dump.jsonl")])
    var out: [UInt8] = []
    try withUnsafeMutablePointer(to: &out) { pointer in
      try ReportRenderer.render(cursor, format: format, flush: flushing(into: pointer))
    }
    return (out, cursor.spilledRuns)
  }

  /// The plain list of `bytes` as json: its transactions and the document (`sum`, `page`, `stats`).
  static func plainList(_ bytes: [UInt8], options: ListOptions) throws -> (transactions: [Any], last: [String: Any]) {
    let cursor = try ListPipeline(options: options).run(sources: [MemorySource(bytes, name: "account.jsonl")])
    let context = ListContext(stats: cursor.stats, matched: cursor.matched, page: cursor.page)
    var out: [UInt8] = []
    _ = try withUnsafeMutablePointer(to: &out) { pointer in
      try ListRenderer.render(context: context, format: .json, next: cursor.next, flush: flushing(into: pointer))
    }
    let document = try object(out)
    return (try #require(document["transactions"] as? [Any]), document)
  }

  static let pages = [PageRequest.all, PageRequest(offset: 0, limit: 3), PageRequest(offset: 2, limit: 5)]

  @Test(
    "each account's list is the list of its records alone",
    arguments: [(0, 512 << 20, false), (1, 512 << 20, true), (2, 4096, false), (0, 4096, true)])
  func listMatchesOracle(pageIndex: Int, memoryLimit: Int, filtered: Bool) throws {
    let filter = filtered ? TransactionFilter(categories: ["Groceries", "Food Drinks"]) : TransactionFilter()
    let options = Self.listOptions(page: Self.pages[pageIndex], memoryLimit: memoryLimit, filter: filter)
    let (out, spilled) = try Self.perAccountList(Self.dump, options: options, format: .jsonl)
    #expect((spilled > 0) == (memoryLimit == 4096))
    let all = Self.lines(out)
    let accounts = try Self.accountObjects(all)
    var expectedAccounts: [String] = []
    for (account, bytes) in Self.split {
      let alone = try Self.plainList(bytes, options: options)
      let matched = try #require((alone.last["page"] as? [String: Any])?["matched"] as? Int)
      if matched > 0 { expectedAccounts.append(account) }
      guard let line = accounts.first(where: { $0["account"] as? String == account }) else { continue }
      #expect(line["count"] as? Int == matched, "\(account)")
      #expect(try Self.canonical(line["transactions"]) == Self.canonical(alone.transactions), "\(account)")
      #expect(try Self.canonical(line["sum"]) == Self.canonical(alone.last["sum"]), "\(account)")
      #expect(try Self.canonical(line["page"]) == Self.canonical(alone.last["page"]), "\(account)")
    }
    #expect(accounts.compactMap { $0["account"] as? String } == expectedAccounts)
    // Rows only: the accounting is in `json` (and `--stats`), not in the jsonl.
    let json = try Self.object(try Self.perAccountList(Self.dump, options: options, format: .json).bytes)
    let stats = try #require(json["stats"] as? [String: Any])
    #expect(stats["accounts"] as? Int == expectedAccounts.count)
    #expect(stats["accepted"] as? Int == 3_000)
  }

  @Test("spilling changes nothing, in every format", arguments: ["jsonl", "json", "csv", "text"])
  func listSpillGivesTheSameBytes(format: String) throws {
    let format = try #require(ReportFormat(rawValue: format))
    let page = PageRequest(offset: 1, limit: 4)
    let inMemory = try Self.perAccountList(
      Self.dump, options: Self.listOptions(page: page, memoryLimit: 512 << 20, filter: TransactionFilter()),
      format: format)
    let spilled = try Self.perAccountList(
      Self.dump, options: Self.listOptions(page: page, memoryLimit: 2048, filter: TransactionFilter()), format: format)
    #expect(spilled.spilled > 4)
    #expect(inMemory.bytes == spilled.bytes)
  }

  @Test("a limit cuts each account before the sort spills: fewer runs, the same bytes as in memory")
  func limitCutsBeforeSpilling() throws {
    let page = PageRequest(offset: 0, limit: 2)
    let whole = try Self.perAccountList(
      Self.dump, options: Self.listOptions(page: .all, memoryLimit: 64 << 10, filter: .init()), format: .jsonl)
    let cut = try Self.perAccountList(
      Self.dump, options: Self.listOptions(page: page, memoryLimit: 64 << 10, filter: .init()), format: .jsonl)
    let inMemory = try Self.perAccountList(
      Self.dump, options: Self.listOptions(page: page, memoryLimit: 512 << 20, filter: .init()), format: .jsonl)
    #expect(whole.spilled > 4)
    #expect(cut.spilled < whole.spilled)
    #expect(cut.bytes == inMemory.bytes)
  }

  @Test("json holds the jsonl lines as its accounts; the jsonl has no stats line")
  func listJSONMatchesJSONLines() throws {
    let options = Self.listOptions(page: PageRequest(offset: 0, limit: 2), memoryLimit: 512 << 20, filter: .init())
    let jsonl = try Self.perAccountList(Self.dump, options: options, format: .jsonl).bytes
    let json = try Self.object(try Self.perAccountList(Self.dump, options: options, format: .json).bytes)
    let all = Self.lines(jsonl)
    #expect(try Self.canonical(json["accounts"]) == Self.canonical(try Self.accountObjects(all)))
    #expect((json["stats"] as? [String: Any])?["accounts"] as? Int == all.count)
  }

  // MARK: summary

  static func summaryOptions(dimension: SummaryDimension, memoryLimit: Int) -> SummaryOptions {
    var options = SummaryOptions()
    options.dimension = dimension
    options.memoryLimit = memoryLimit
    options.maxFanIn = 4
    return options
  }

  static func perAccountSummary(
    _ sources: [any ByteSource], options: SummaryOptions, format: ReportFormat, order: SummaryOrder,
    accounts: AccountSource = .field
  ) throws -> (bytes: [UInt8], spilled: Int) {
    var options = options
    options.read.accounts = accounts
    let cursor = try SummaryPipeline(options: options).runPerAccount(sources: sources)
    var writer = try #require(AccountSummaryWriter(format: format))
    var out: [UInt8] = []
    try withUnsafeMutablePointer(to: &out) { pointer in
      let flush = flushing(into: pointer)
      writer.begin(flush: flush)
      while let account = try cursor.next() { writer.write(account.sorted(by: order), flush: flush) }
      writer.finish(stats: cursor.stats, flush: flush)
    }
    return (out, cursor.spilledRuns)
  }

  @Test(
    "each account's summary is the summary of its records alone",
    arguments: [
      (SummaryDimension.category, 512 << 20), (.month, 4096), (.counterparty, 512 << 20), (.day, 4096),
    ])
  func summaryMatchesOracle(dimension: SummaryDimension, memoryLimit: Int) throws {
    let options = Self.summaryOptions(dimension: dimension, memoryLimit: memoryLimit)
    let order = SummaryOrder.defaultOrder(for: dimension)
    let (out, spilled) = try Self.perAccountSummary(
      [MemorySource(Self.dump, name: "dump.jsonl")], options: options, format: .jsonl, order: order)
    #expect((spilled > 0) == (memoryLimit == 4096))
    let all = Self.lines(out)
    let accounts = try Self.accountObjects(all)
    #expect(accounts.compactMap { $0["account"] as? String } == Self.split.map(\.account))
    for ((account, bytes), line) in zip(Self.split, accounts) {
      let alone = try SummaryPipeline(options: options).run(sources: [MemorySource(bytes)]).sorted(by: order)
      let whole = try Self.object(SummaryRenderer.renderToBytes(alone, format: .json))
      #expect(line["by"] as? String == dimension.rawValue)
      #expect(try Self.canonical(line["entries"]) == Self.canonical(whole["entries"]), "\(account)")
      #expect(try Self.canonical(line["totals"]) == Self.canonical(whole["totals"]), "\(account)")
      #expect(line["count"] as? Int == alone.entries.reduce(0) { $0 + $1.count })
    }
    #expect(all.count == Self.split.count)
  }

  @Test("summary: spilling changes nothing, in every format; json holds the jsonl lines")
  func summarySpillAndJSON() throws {
    var results: [ReportFormat: [UInt8]] = [:]
    for format in [ReportFormat.jsonl, .json, .csv, .text] {
      let inMemory = try Self.perAccountSummary(
        [MemorySource(Self.dump)], options: Self.summaryOptions(dimension: .category, memoryLimit: 512 << 20),
        format: format, order: .expense)
      let spilled = try Self.perAccountSummary(
        [MemorySource(Self.dump)], options: Self.summaryOptions(dimension: .category, memoryLimit: 2048),
        format: format, order: .expense)
      #expect(spilled.spilled > 4)
      #expect(inMemory.bytes == spilled.bytes, "\(format)")
      results[format] = inMemory.bytes
    }
    let all = Self.lines(results[.jsonl] ?? [])
    let json = try Self.object(results[.json] ?? [])
    #expect(try Self.canonical(json["accounts"]) == Self.canonical(try Self.accountObjects(all)))
    #expect((json["stats"] as? [String: Any])?["accounts"] as? Int == all.count)
  }

  @Test("accounts from file names: each file is one account")
  func accountsFromFileNames() throws {
    let split = Self.split.prefix(3)
    // Given out of order, with paths and extensions: the accounts are the stems, byte-wise.
    let sources: [any ByteSource] = [
      MemorySource(split[2].bytes, name: "exports/K2.jsonl"), MemorySource(split[0].bytes, name: "K0.json.gz"),
      MemorySource(split[1].bytes, name: "dir/K1"),
    ]
    let options = Self.summaryOptions(dimension: .category, memoryLimit: 512 << 20)
    let out = try Self.perAccountSummary(sources, options: options, format: .jsonl, order: .key, accounts: .fileName)
    let accounts = try Self.accountObjects(Self.lines(out.bytes))
    #expect(accounts.compactMap { $0["account"] as? String } == ["K0", "K1", "K2"])
    for (line, part) in zip(accounts, split) {
      let alone = try SummaryPipeline(options: options).run(sources: [MemorySource(part.bytes)]).sorted(by: .key)
      let whole = try Self.object(SummaryRenderer.renderToBytes(alone, format: .json))
      #expect(try Self.canonical(line["entries"]) == Self.canonical(whole["entries"]))
    }
  }

  @Test("options a per-account run cannot take are refused")
  func refusedOptions() throws {
    var list = ListOptions()
    #expect(throws: PipelineError.self) { try ListPipeline(options: list).runPerAccount(sources: []) }
    list.read.accounts = .field
    var summary = SummaryOptions()
    summary.read.accounts = .field
    summary.read.schema = RecordSchema.builtIn.first { $0.name == "ledger" }
    #expect(summary.read.lacksAccountMapping)
    #expect(throws: PipelineError.self) { try SummaryPipeline(options: summary).runPerAccount(sources: []) }
  }

  @Test("the spill format carries the account, exactly")
  func spillRoundTripsTheAccount() throws {
    let transaction = Transaction(
      id: "t1", instant: TimestampParser.parse("2024-01-02T03:04:05Z")!, amount: ExactDecimal("12.00"),
      currency: "EUR", creditDebitIndicator: .credit, state: "COMPLETED", account: "Konto ü")
    var bytes: [UInt8] = []
    SpillRecordFormat.append(transaction, position: 7, to: &bytes)
    let read = try bytes.withUnsafeBufferPointer { try SpillRecordFormat.read($0, at: 0) }
    #expect(read?.transaction == transaction)
    #expect(read?.position == 7)
  }
}
