import Foundation
import Testing

@testable import TxFold

/// `NightlyState.changedOnly` (`--changed-only`, Documentation/Guide.md, "Nightly runs"):
/// a per-account run over tonight's records and last night's state hands out only
/// the accounts whose report changed — a new transaction, a PENDING that became
/// COMPLETED, a correction — and not those whose records came again byte for byte.
/// Every cursor (group's accounts and batches, in memory and spilled; list; summary)
/// skips the same accounts, and the stats count all accounts and the changed ones.
@Suite("Changed accounts")
struct ChangedAccountsTests {
  static func record(_ account: String, _ id: String, amount: String, state: String) -> String {
    #"{"arrangementId":"\#(account)","id":"\#(id)","transactionAmountCurrency":{"amount":"\#(amount)","#
      + #""currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2026-11-02T10:00:00","state":"\#(state)"}"#
  }

  /// Night 1: A, B (pending) and C. Night 2: A's record again, byte for byte; B's
  /// COMPLETED; C's amount corrected; D new. Night 3: night 2 again.
  static let nights: [[String]] = {
    let night1 = [
      record("A", "a1", amount: "10.00", state: "COMPLETED"), record("B", "b1", amount: "20.00", state: "PENDING"),
      record("C", "c1", amount: "5.00", state: "COMPLETED"),
    ]
    let night2 = [
      record("A", "a1", amount: "10.00", state: "COMPLETED"), record("B", "b1", amount: "20.00", state: "COMPLETED"),
      record("C", "c1", amount: "6.00", state: "COMPLETED"), record("D", "d1", amount: "1.00", state: "COMPLETED"),
    ]
    return [night1, night2, night2]
  }()
  /// The accounts each night writes, and how many accounts the state holds after it.
  static let expected: [(changed: [String], accounts: Int)] = [(["A", "B", "C"], 3), (["B", "C", "D"], 4), ([], 4)]

  static func source(_ lines: [String]) -> MemorySource {
    MemorySource(Array((lines.joined(separator: "\n") + "\n").utf8), name: "night.jsonl")
  }

  /// Runs the nights through `run` (tonight's state, its records; the accounts written
  /// and the stats), each reading the state the night before wrote.
  static func runNights(
    _ run: (NightlyState, MemorySource) throws -> (accounts: [String], stats: RunStats),
    job: (NightlyState?) -> NightlyState.Job
  ) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-changed-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var previous: String?
    for (index, lines) in nights.enumerated() {
      let nightly = try NightlyState(previous: previous, job: job(nil))
      nightly.changedOnly = true
      let (accounts, stats) = try run(nightly, source(lines))
      #expect(accounts == expected[index].changed, "night \(index + 1)")
      #expect(nightly.changedAccounts?.count == expected[index].changed.count, "night \(index + 1)")
      #expect(stats.accounts == expected[index].accounts, "night \(index + 1)")
      #expect(stats.changedAccounts == expected[index].changed.count, "night \(index + 1)")
      let next = directory.appendingPathComponent("night\(index + 1).state").path
      try nightly.write(to: next, stats: stats)
      previous = next
    }
  }

  @Test(
    "group: an identical re-send is unchanged; PENDING→COMPLETED, a correction and a new account are changed",
    arguments: [512 << 20, 1])
  func group(memoryLimit: Int) throws {
    let options = PerAccountTests.options(memoryLimit: memoryLimit, chunkSize: 64 << 10)
    // One account at a time (`next()`), as --output-dir and the text formats take them.
    try Self.runNights(
      { nightly, source in
        var options = options
        options.read.nightly = nightly
        let cursor = try GroupPipeline(options: options).runPerAccount(sources: [source])
        // The second pass folds tonight's state, in account order: no account spills, even at 1 byte.
        #expect(cursor.spilledRuns == 0)
        var accounts: [String] = []
        while let next = try cursor.next() { accounts.append(next.account) }
        return (accounts, cursor.stats)
      }, job: { _ in .group(options) })
    // In batches (`write(with:)`), as jsonl and json take them.
    try Self.runNights(
      { nightly, source in
        var options = options
        options.read.nightly = nightly
        let cursor = try GroupPipeline(options: options).runPerAccount(sources: [source])
        var writer = try #require(AccountReportWriter(format: .jsonl))
        var out: [UInt8] = []
        let flush = { (chunk: inout [UInt8]) in
          out += chunk
          chunk.removeAll()
        }
        writer.begin(flush: flush)
        try cursor.write(with: &writer, flush: flush)
        writer.finish(stats: cursor.stats, flush: flush)
        let accounts = try GeneratorTests.lines(of: out).map { line in
          let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
          return try #require(object["account"] as? String)
        }
        return (accounts, cursor.stats)
      }, job: { _ in .group(options) })
  }

  @Test("list and summary skip the same accounts", arguments: [256 << 20, 1])
  func listAndSummary(memoryLimit: Int) throws {
    var list = ListOptions()
    list.read.accounts = .field
    list.memoryLimit = memoryLimit
    list.maxFanIn = 4
    try Self.runNights(
      { nightly, source in
        var options = list
        options.read.nightly = nightly
        let cursor = try ListPipeline(options: options).runPerAccount(sources: [source])
        var accounts: [String] = []
        while let (account, _) = try cursor.nextAccount() {
          accounts.append(account)
          while try cursor.next() != nil {}
        }
        return (accounts, cursor.stats)
      }, job: { _ in .list(list) })
    var summary = SummaryOptions()
    summary.read.accounts = .field
    summary.memoryLimit = memoryLimit
    summary.maxFanIn = 4
    try Self.runNights(
      { nightly, source in
        var options = summary
        options.read.nightly = nightly
        let cursor = try SummaryPipeline(options: options).runPerAccount(sources: [source])
        var accounts: [String] = []
        while let next = try cursor.next() { accounts.append(next.account) }
        return (accounts, cursor.stats)
      }, job: { _ in .summary(summary) })
  }

  @Test("without changedOnly every account is written and changedAccounts stays nil")
  func everyAccountWithoutTheFlag() throws {
    let options = PerAccountTests.options()
    var run = options
    run.read.nightly = try NightlyState(previous: nil, job: .group(options))
    let cursor = try GroupPipeline(options: run).runPerAccount(sources: [Self.source(Self.nights[0])])
    var count = 0
    while try cursor.next() != nil { count += 1 }
    #expect(count == 3)
    #expect(cursor.stats.accounts == 3)
    #expect(cursor.stats.changedAccounts == nil)
    #expect(run.read.nightly?.changedAccounts == nil)
  }

  @Test("changedAccounts is in the json stats object only when set, and decodes back")
  func statsObject() throws {
    var stats = RunStats()
    stats.accounts = 4
    var plain: [UInt8] = []
    JSONReportWriter.appendStats(stats, to: &plain)
    #expect(!String(decoding: plain, as: UTF8.self).contains("changedAccounts"))
    stats.changedAccounts = 1
    var changed: [UInt8] = []
    JSONReportWriter.appendStats(stats, to: &changed)
    #expect(String(decoding: changed, as: UTF8.self).hasSuffix(#""accounts":4,"changedAccounts":1}"#))
    #expect(try JSONDecoder().decode(RunStats.self, from: Data(changed)) == stats)
  }
}
