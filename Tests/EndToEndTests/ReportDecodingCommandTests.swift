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
