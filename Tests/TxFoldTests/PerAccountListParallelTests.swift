import Foundation
import Testing

@testable import TxFold

/// `list --per-account` on every core in `csv`, `json` and `jsonl`
/// (`ListPipeline.runPerAccountRendered`: rows rendered by the workers into
/// entries with their account, written by `AccountListWriter.writeEntries`)
/// against the `Transaction` path (`runPerAccount`, `AccountListWriter.write`):
/// the same bytes, stats and rejections, or the same error, for every page,
/// filter, thread count and memory limit.
@Suite("list --per-account on every core")
struct PerAccountListParallelTests {
  struct Outcome: Equatable {
    var bytes: [UInt8] = []
    var stats: RunStats?
    var rejections: [String] = []
    var error: String?
  }

  /// `dump` in a file of its own (the parallel path reads paths), removed after `body`.
  static func withFile<T>(_ dump: [UInt8], _ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("per-account-list-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("dump.jsonl").path
    try Data(dump).write(to: URL(fileURLWithPath: path))
    return try body(path)
  }

  /// `dump` run with `options` on the `Transaction` path (the oracle) and on every core.
  static func bothPaths(_ options: ListOptions, format: ReportFormat, dump: [UInt8]) throws -> (
    expected: Outcome, parallel: Outcome
  ) {
    try withFile(dump) { path in
      (
        try run(options, format: format, path: path, parallel: false),
        try run(options, format: format, path: path, parallel: true)
      )
    }
  }

  static func run(_ options: ListOptions, format: ReportFormat, path: String, parallel: Bool) throws -> Outcome {
    var outcome = Outcome()
    var options = options
    options.read.accounts = .field
    let pipeline = ListPipeline(options: options)
    pipeline.onRejection = { outcome.rejections.append("\($0.line) \($0.reason) \($0.message)") }
    var bytes: [UInt8] = []
    let flush: (inout [UInt8]) -> Void = { chunk in
      bytes += chunk
      chunk.removeAll(keepingCapacity: true)
    }
    var writer = try #require(AccountListWriter(format: format))
    do throws(PipelineError) {
      if parallel {
        guard let rows = try pipeline.runPerAccountRendered(paths: [path], format: format, zone: .asWritten) else {
          outcome.error = "not rendered in parallel"
          return outcome
        }
        defer { rows.close() }
        do throws(ListRenderer.Failure<PipelineError, Never>) {
          try writer.writeEntries(
            stats: { rows.stats }, page: rows.page, nextAccount: rows.nextAccount, next: rows.next, flush: flush)
        } catch {
          outcome.error = "\(error)"
        }
        // The accounts are counted as they are read.
        outcome.stats = rows.stats
      } else {
        let cursor = try pipeline.runPerAccount(paths: [path])
        defer { cursor.close() }
        do throws(ListRenderer.Failure<PipelineError, Never>) {
          try writer.write(
            stats: { cursor.stats }, page: cursor.page, nextAccount: cursor.nextAccount, next: cursor.next,
            flush: flush)
        } catch {
          outcome.error = "\(error)"
        }
        outcome.stats = cursor.stats
      }
    } catch {
      outcome.error = "\(error)"
    }
    outcome.bytes = bytes
    return outcome
  }

  @Test("the same bytes, stats and rejections as the Transaction path, spilled or not")
  func equivalence() throws {
    let pages = [PageRequest.all, PageRequest(offset: 0, limit: 3), PageRequest(offset: 2, limit: 2)]
    for format in [ReportFormat.csv, .json, .jsonl] {
      for (number, filter) in PerAccountSummaryParallelTests.filters.enumerated() {
        for page in pages where number == 0 || page == .all {
          for (threads, memoryLimit, dedupe) in [(1, 64 << 20, false), (3, 24 << 10, false), (2, 24 << 10, true)] {
            var options = ListOptions()
            options.dedupe = dedupe
            options.filter = filter
            options.page = page
            options.threads = threads
            options.memoryLimit = memoryLimit
            options.maxFanIn = 3
            let (expected, parallel) = try Self.bothPaths(
              options, format: format, dump: PerAccountSummaryParallelTests.dump)
            #expect(expected.error == nil)
            #expect(expected.bytes.count > 1000)
            #expect(
              parallel == expected,
              "\(format), filter \(number), \(page), \(threads) threads, limit \(memoryLimit), \(dedupe)")
          }
        }
      }
    }
  }

  /// Many accounts, most with a few records, so that a tiny memory limit
  /// spreads each account over many runs on disk and a fan-in of three
  /// merges runs into runs: the counts travel and add up with the entries.
  static let manyAccounts = GeneratorTests.generate(count: 6_000, seed: 32, accounts: 1_500)

  @Test("Each account's count is its records' when its entries spill over many runs and merges")
  func countsWhenSpilled() throws {
    var expected: [String: Int] = [:]
    for line in GeneratorTests.lines(of: Self.manyAccounts) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      expected[try #require(object["arrangementId"] as? String), default: 0] += 1
    }
    #expect(expected.count > 1_000)
    for threads in 1...3 {
      var options = ListOptions()
      options.read.accounts = .field
      options.threads = threads
      options.memoryLimit = 16 << 10
      options.maxFanIn = 3
      options.page = PageRequest(offset: 0, limit: 2)
      try Self.withFile(Self.manyAccounts) { path in
        let rows = try #require(
          try ListPipeline(options: options).runPerAccountRendered(paths: [path], format: .jsonl, zone: .asWritten))
        defer { rows.close() }
        var counts: [String: Int] = [:]
        while let account = try rows.nextAccount() {
          counts[String(decoding: account.account, as: UTF8.self)] = account.matched
        }
        #expect(rows.spilledRuns > 20, "\(threads) threads")
        #expect(counts == expected, "\(threads) threads")
        #expect(rows.stats.accounts == expected.count)
      }
    }
  }

  @Test("The Transaction path: each account's count is its records' when its entries spill, merge and are cut")
  func transactionPathCountsWhenSpilled() throws {
    var expected: [String: Int] = [:]
    for line in GeneratorTests.lines(of: Self.manyAccounts) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      expected[try #require(object["arrangementId"] as? String), default: 0] += 1
    }
    #expect(expected.count > 1_000)
    for page in [PageRequest.all, PageRequest(offset: 0, limit: 2), PageRequest(offset: 0, limit: 0)] {
      var options = ListOptions()
      options.read.accounts = .field
      options.memoryLimit = 16 << 10
      options.maxFanIn = 3
      options.page = page
      try Self.withFile(Self.manyAccounts) { path in
        let cursor = try ListPipeline(options: options).runPerAccount(paths: [path])
        defer { cursor.close() }
        var counts: [String: Int] = [:]
        var shown = 0
        while let account = try cursor.nextAccount() {
          counts[account.account] = account.matched
          while try cursor.next() != nil { shown += 1 }
        }
        #expect(cursor.spilledRuns > 20, "\(page)")
        #expect(counts == expected, "\(page)")
        #expect(shown == expected.values.reduce(0) { $0 + min($1, page.limit ?? .max) }, "\(page)")
        #expect(cursor.stats.accounts == expected.count)
      }
    }
  }

  @Test("--limit 0: every account with its count and no rows, as on every core, in every format")
  func emptyPages() throws {
    for format in [ReportFormat.csv, .json, .jsonl] {
      for memoryLimit in [16 << 10, 64 << 20] {
        var options = ListOptions()
        options.page = PageRequest(offset: 0, limit: 0)
        options.memoryLimit = memoryLimit
        options.maxFanIn = 3
        let (expected, parallel) = try Self.bothPaths(options, format: format, dump: Self.manyAccounts)
        #expect(expected.error == nil)
        #expect(expected.stats?.accounts ?? 0 > 1_000)
        #expect(parallel == expected, "\(format), limit \(memoryLimit)")
      }
    }
  }

  @Test("Spilled over many runs and merges: the Transaction path's bytes and stats, deduplicated, filtered or paged")
  func manyAccountsSpilled() throws {
    let pages = [PageRequest.all, PageRequest(offset: 1, limit: 2)]
    let filters = [TransactionFilter(), TransactionFilter(states: ["pending", "completed"], currencies: ["eur"])]
    for format in [ReportFormat.csv, .json, .jsonl] {
      for (threads, page, filter, dedupe) in [
        (1, pages[0], filters[0], false), (2, pages[1], filters[1], false), (3, pages[1], filters[0], true),
      ] {
        var options = ListOptions()
        options.dedupe = dedupe
        options.filter = filter
        options.page = page
        options.threads = threads
        options.memoryLimit = 16 << 10
        options.maxFanIn = 3
        let (expected, parallel) = try Self.bothPaths(options, format: format, dump: Self.manyAccounts)
        #expect(expected.error == nil)
        #expect(expected.stats?.accounts ?? 0 > 1_000)
        #expect(parallel == expected, "\(format), \(threads) threads, \(page), dedupe \(dedupe)")
      }
    }
  }

  @Test("A page's sum that overflows stops both paths with the same error")
  func overflow() throws {
    let huge = String(repeating: "9", count: 38)
    let lines = [
      PerAccountSummaryParallelTests.record(account: "\"A\"", id: "1", amount: "1"),
      PerAccountSummaryParallelTests.record(account: "\"B\"", id: "2", amount: huge),
      PerAccountSummaryParallelTests.record(account: "\"B\"", id: "3", amount: huge),
    ]
    let dump = Array((lines.joined(separator: "\n") + "\n").utf8)
    for format in [ReportFormat.csv, .json] {
      let (expected, parallel) = try Self.bothPaths(ListOptions(), format: format, dump: dump)
      #expect(expected.error != nil)
      #expect(parallel == expected)
    }
  }

  @Test("Text, html and output directories take the Transaction path; csv, json and jsonl per account do not")
  func eligibility() {
    var options = ListOptions()
    options.read.accounts = .field
    let pipeline = ListPipeline(options: options)
    for format in [ReportFormat.csv, .json, .jsonl] { #expect(pipeline.rendersPerAccountInParallel(format)) }
    for format in [ReportFormat.text, .html] { #expect(!pipeline.rendersPerAccountInParallel(format)) }
    #expect(!ListPipeline(options: ListOptions()).rendersPerAccountInParallel(.csv))
  }
}
