import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// `group --per-account` in the library: each account's report against the
/// whole-report fold of that account's records alone, and bytes that do not
/// depend on the memory limit (spilling or not), threads, chunking or input order.
@Suite("Per-account fold")
struct PerAccountTests {
  /// A multi-account dump: 4,000 records over 60 accounts, skewed as `gen --accounts` makes them.
  static let dump: [UInt8] = GeneratorTests.generate(count: 4_000, seed: 11, accounts: 60)

  /// The dump's lines grouped by their `arrangementId`, read with Foundation.
  static func linesByAccount(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for line in GeneratorTests.lines(of: bytes) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      let account = try #require(object["arrangementId"] as? String)
      result[account, default: []] += line + [UInt8(ascii: "\n")]
    }
    return result
  }

  static func options(
    threads: Int = 2, memoryLimit: Int = 512 << 20, chunkSize: Int = 1 << 20, accounts: AccountSource = .field
  ) -> GroupOptions {
    var options = GroupOptions()
    options.threads = threads
    options.memoryLimit = memoryLimit
    options.read.limits.chunkSize = chunkSize
    options.read.accounts = accounts
    return options
  }

  /// Every account of a per-account run, and its final stats.
  static func accounts(_ bytes: [UInt8], options: GroupOptions) throws -> ([AccountReport], RunStats, Int) {
    let cursor = try GroupPipeline(options: options).runPerAccount(
      sources: [MemorySource(bytes, name: "dump.jsonl")])
    var reports: [AccountReport] = []
    while let next = try cursor.next() { reports.append(next) }
    return (reports, cursor.stats, cursor.spilledRuns)
  }

  /// The jsonl bytes of a per-account run.
  static func jsonl(_ bytes: [UInt8], options: GroupOptions) throws -> [UInt8] {
    let (reports, stats, _) = try accounts(bytes, options: options)
    var writer = try #require(AccountReportWriter(format: .jsonl))
    var out: [UInt8] = []
    let flush = { (chunk: inout [UInt8]) -> Void in
      out += chunk
      chunk.removeAll()
    }
    writer.begin(flush: flush)
    for report in reports { writer.write(report, flush: flush) }
    writer.finish(stats: stats, flush: flush)
    return out
  }

  @Test("each account's report is the whole report of its records alone")
  func eachAccountIsItsOwnReport() throws {
    let split = try Self.linesByAccount(Self.dump)
    let (reports, stats, _) = try Self.accounts(Self.dump, options: Self.options())
    #expect(reports.map(\.account) == split.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    #expect(stats.accounts == split.count)
    #expect(stats.accepted == 4_000)
    for report in reports {
      var single = GroupOptions()
      single.threads = 1
      let lines = try #require(split[report.account])
      let alone = try GroupPipeline(options: single).run(sources: [InputOpener.open(bytes: lines, name: "-")])
      #expect(report.sections == alone.sections, "account \(report.account)")
      #expect(report.count == alone.stats.accepted, "account \(report.account)")
    }
  }

  /// `records` Backbase records over `accounts` accounts (record i in account
  /// i % accounts), each with a description of `descriptionLength` bytes; the
  /// records of an account share one group and one instant.
  static func longTextDump(records: Int, accounts: Int, descriptionLength: Int) -> [UInt8] {
    let description = String(repeating: "d", count: descriptionLength)
    var lines: [String] = []
    for index in 0..<records {
      lines.append(
        "{\"id\":\"id-\(index)\",\"arrangementId\":\"acct-\(1_000_000 + index % accounts)\","
          + "\"description\":\"\(description)\",\"transactionAmountCurrency\":{\"amount\":\"\(index).25\","
          + "\"currencyCode\":\"EUR\"},\"creditDebitIndicator\":\"CRDT\","
          + "\"creationTime\":\"2024-03-01T10:00:00Z\",\"state\":\"BOOKED\"}")
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  @Test("members' long text counts against the memory limit: the fold spills, with the same bytes")
  func longTextCounts() throws {
    // 2,000 accounts of one record each, every description 8 KB: 16 MB of
    // member text, where the groups and members themselves are well under
    // 1 MB. At a 4 MB limit the table must spill several times.
    let dump = Self.longTextDump(records: 2_000, accounts: 2_000, descriptionLength: 8_000)
    let limited = Self.options(threads: 1, memoryLimit: 4 << 20)
    let (_, stats, runs) = try Self.accounts(dump, options: limited)
    #expect(stats.accepted == 2_000)
    #expect(runs >= 3, "spilled \(runs) runs for 16 MB of text at a 4 MB limit")
    #expect(try Self.jsonl(dump, options: limited) == Self.jsonl(dump, options: Self.options(threads: 1)))
  }

  @Test("a merged batch stops at its text budget: long members' text bounds the end of a run too")
  func batchTextBudget() throws {
    // 200 accounts of one group with twenty members of 4 KB each (their
    // instants tie, so their text is written at once, not deferred): 80 KB
    // of text per account, 16 MB in all, in 200 groups (far below 4,096).
    let dump = Self.longTextDump(records: 4_000, accounts: 200, descriptionLength: 4_000)
    let cursor = try GroupPipeline(options: Self.options(threads: 1, memoryLimit: 4 << 20)).runPerAccount(
      sources: [MemorySource(dump, name: "dump.jsonl")])
    #expect(cursor.spilledRuns >= 2)
    let pooled = GroupTable(memberLimit: 20, perAccount: true)
    let batch = try #require(try cursor.accounts.nextBatch(pooled: pooled, budget: 4_096, textBudget: 1 << 20))
    // Stopped by the text, not the groups: about thirteen accounts of 80 KB.
    #expect(batch.accounts.count > 1 && batch.accounts.count < 50, "\(batch.accounts.count) accounts")
    #expect(pooled.textExcessBytes >= 1 << 20)
    #expect(pooled.groups.count < 4_096)
  }

  @Test("the same bytes with any memory limit, thread count, chunk size and input order")
  func bytesDoNotDependOnTheRun() throws {
    let expected = try Self.jsonl(Self.dump, options: Self.options(threads: 1))
    // Spilling after every chunk, with small chunks: dozens of runs.
    let (_, _, runs) = try Self.accounts(Self.dump, options: Self.options(memoryLimit: 1, chunkSize: 64 << 10))
    #expect(runs > 10)
    for options in [
      Self.options(threads: 3), Self.options(memoryLimit: 1, chunkSize: 64 << 10),
      Self.options(threads: 1, memoryLimit: 200_000, chunkSize: 100_000), Self.options(threads: 4, chunkSize: 16_384),
    ] {
      #expect(try Self.jsonl(Self.dump, options: options) == expected)
    }
    // The records in another order (reversed, then sorted by account): the same accounts.
    let lines = GeneratorTests.lines(of: Self.dump)
    let reversed = Array(lines.reversed().joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
    #expect(try Self.jsonl(reversed, options: Self.options(memoryLimit: 1, chunkSize: 64 << 10)) == expected)
    let byAccount = try Self.linesByAccount(Self.dump).sorted { $0.key < $1.key }.flatMap(\.value)
    #expect(try Self.jsonl(byAccount, options: Self.options(memoryLimit: 50_000, chunkSize: 64 << 10)) == expected)
  }

  @Test("a record without an account is rejected missing-field, field 'account'")
  func missingAccountIsRejected() throws {
    let record = { (account: String) in
      """
      {\(account)"id":"1","creationTime":"2024-05-17T10:00:00","state":"COMPLETED","creditDebitIndicator":"DBIT",\
      "transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"}}
      """
    }
    let input = [
      record(""), record("\"arrangementId\":null,"), record("\"arrangementId\":\"\","),
      record("\"arrangementId\":\"B7\","), record("\"arrangementId\":42,"), record("\"arrangementId\":\"A\\u0031\","),
      record("\"arrangementId\":true,"), record("\"arrangementId\":4.5,"),
    ].joined(separator: "\n")
    var options = Self.options(threads: 1)
    options.read.schema = .backbase
    let pipeline = GroupPipeline(options: options)
    var rejections: [RecordRejection] = []
    pipeline.onRejection = { rejections.append($0) }
    let cursor = try pipeline.runPerAccount(sources: [MemorySource(Array(input.utf8), name: "in.jsonl")])
    var reports: [AccountReport] = []
    while let next = try cursor.next() { reports.append(next) }
    // A number is its decimal text; an escaped id is decoded ("A\u0031" is "A1").
    #expect(reports.map(\.account) == ["42", "A1", "B7"])
    #expect(rejections.map(\.line) == [1, 2, 3, 7, 8])
    #expect(rejections.prefix(3).allSatisfy { $0.reason == .missingField && $0.field == "account" })
    #expect(rejections[0].detail == "Missing account: field 'arrangementId' is absent, null or empty")
    #expect(rejections.suffix(2).allSatisfy { $0.reason == .invalidField && $0.field == "arrangementId" })
  }

  @Test("accounts from file names: one export per customer")
  func accountsFromFileNames() throws {
    let split = try Self.linesByAccount(Self.dump)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-pa-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (account, bytes) in split {
      let path = directory.appendingPathComponent("\(account).export.jsonl").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    let cursor = try GroupPipeline(options: Self.options(accounts: .fileName)).runPerAccount(paths: paths.shuffled())
    var fromFiles: [AccountReport] = []
    while let next = try cursor.next() { fromFiles.append(next) }
    let (fromField, _, _) = try Self.accounts(Self.dump, options: Self.options())
    #expect(fromFiles == fromField)
  }

  @Test("a schema without an account field cannot run per account")
  func schemaWithoutAccount() throws {
    var options = Self.options()
    options.read.schema = .ledger
    #expect(options.read.lacksAccountMapping)
    #expect(throws: PipelineError.self) { try Self.accounts(Self.dump, options: options) }
    options.read.schema = RecordSchema.ledger.overriding([(.account, "owner")])
    #expect(!options.read.lacksAccountMapping)
  }

  @Test("the spill directory is private while it exists and gone afterwards")
  func spillDirectoryIsRemoved() throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-pa-spill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    var options = Self.options(memoryLimit: 1, chunkSize: 64 << 10)
    options.temporaryDirectory = parent.path
    let pipeline = GroupPipeline(options: options)
    var made: [String] = []
    pipeline.onTemporaryDirectory = { made.append($0) }
    let cursor = try pipeline.runPerAccount(sources: [MemorySource(Self.dump, name: "dump.jsonl")])
    #expect(made.count == 1)
    let attributes = try FileManager.default.attributesOfItem(atPath: try #require(made.first))
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    // The runs are unlinked at once: the directory holds no name.
    #expect(try FileManager.default.contentsOfDirectory(atPath: try #require(made.first)).isEmpty)
    while try cursor.next() != nil {}
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
  }

  @Test("per-account partials of shards merge, account by account, into the whole run's accounts and stats")
  func partialsMerge() throws {
    let lines = GeneratorTests.lines(of: Self.dump)
    let (whole, wholeStats, _) = try Self.accounts(Self.dump, options: Self.options())
    // Three shards, the middle one spilling to disk before it is written.
    var partials: [[UInt8]] = []
    for (index, range) in [0..<1_000, 1_000..<2_500, 2_500..<4_000].enumerated() {
      let bytes = Array(lines[range].joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
      let options = index == 1 ? Self.options(memoryLimit: 1, chunkSize: 64 << 10) : Self.options()
      let cursor = try GroupPipeline(options: options).runPerAccountPartial(
        sources: [MemorySource(bytes, name: "shard-\(index)")])
      var out: [UInt8] = []
      try cursor.writePartial { (chunk: inout [UInt8]) in
        out += chunk
        chunk.removeAll()
      }
      partials.append(out)
    }
    let merger = try AccountPartialMerger(
      sources: partials.reversed().enumerated().map { MemorySource($0.element, name: "part-\($0.offset)") })
    var merged: [AccountReport] = []
    while let next = try merger.next() { merged.append(next) }
    #expect(merged == whole)
    #expect(merger.stats.accounts == wholeStats.accounts)
    #expect(merger.stats.accepted == 4_000)
    #expect(merger.inputs.count == 3)
  }

  @Test("more per-account partials than may be open at once merge in passes, into the same accounts and stats")
  func partialsMergeInPasses() throws {
    let lines = GeneratorTests.lines(of: Self.dump)
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-pa-passes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    // 25 shards of 160 records, each written as a per-account partial file.
    var paths: [String] = []
    for shard in 0..<25 {
      let slice = lines[(shard * 160)..<((shard + 1) * 160)]
      let bytes = Array(slice.joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
      let cursor = try GroupPipeline(options: Self.options()).runPerAccountPartial(
        sources: [MemorySource(bytes, name: "shard-\(shard)")])
      var out: [UInt8] = []
      try cursor.writePartial { (chunk: inout [UInt8]) in
        out += chunk
        chunk.removeAll()
      }
      let path = parent.appendingPathComponent("shard-\(shard).apartial").path
      try Data(out).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    func merged(_ merger: AccountPartialMerger) throws -> ([AccountReport], RunStats) {
      var reports: [AccountReport] = []
      while let next = try merger.next() { reports.append(next) }
      return (reports, merger.stats)
    }
    let (expected, expectedStats) = try merged(try AccountPartialMerger(paths: paths))
    #expect(expectedStats.accepted == 4_000)
    // Four open at once: batches of two partials, each a run, the runs merged in passes as they add up.
    var made: [String] = []
    let passes = try AccountPartialMerger(
      paths: paths, openLimit: 4, temporaryDirectory: parent.path, onTemporaryDirectory: { made.append($0) })
    let (reports, stats) = try merged(passes)
    #expect(made.count == 1)
    #expect(reports == expected)
    #expect(stats == expectedStats)
    #expect(passes.inputs.count == 25)
    // The runs' directory is gone once the last account was handed out.
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).allSatisfy { $0.hasSuffix(".apartial") })
    // A partial given twice is refused in passes too.
    #expect(throws: PartialStateError.self) {
      _ = try AccountPartialMerger(
        paths: paths + [paths[3]], openLimit: 4, temporaryDirectory: parent.path, onTemporaryDirectory: { _ in })
    }
  }

  @Test("a cursor dropped after its first account stops its thread and removes the runs")
  func droppedCursor() throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-pa-drop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    var options = Self.options(memoryLimit: 1, chunkSize: 64 << 10)
    options.temporaryDirectory = parent.path
    do {
      let cursor = try GroupPipeline(options: options).runPerAccount(sources: [MemorySource(Self.dump, name: "d")])
      #expect(cursor.spilledRuns > 1)
      #expect(try cursor.next() != nil)
      #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).count == 1)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
  }

  /// A PSD2 report: `account` (its members as given), then booked and pending transactions.
  static func psd2Report(account: String?, booked: [Int], pending: [Int] = [], accountLast: Bool = false) -> String {
    func transaction(_ number: Int) -> String {
      """
      {"transactionId":"t\(number)","bookingDate":"2024-05-\(10 + number % 9)",\
      "transactionAmount":{"amount":"\(number % 2 == 0 ? "-" : "")\(number).25","currency":"EUR"},\
      "remittanceInformationUnstructured":"payment \(number)"}
      """
    }
    let transactions = """
      "transactions":{"booked":[\(booked.map(transaction).joined(separator: ","))],\
      "pending":[\(pending.map(transaction).joined(separator: ","))]}
      """
    // On several lines: a wrapper document on one line would be a JSON line (Guide, "Input").
    guard let account else { return "{\n\(transactions)\n}" }
    return accountLast
      ? "{\n\(transactions),\n\"account\":{\(account)}\n}" : "{\n\"account\":{\(account)},\n\(transactions)\n}"
  }

  @Test("PSD2 reports: each record's account is its report's account.iban, else its resourceId")
  func psd2ReportAccounts() throws {
    let inputs: [(name: String, text: String)] = [
      (
        "a.json",
        Self.psd2Report(account: #""iban":"DE02120300000000202051","currency":"EUR""#, booked: [1, 2], pending: [3])
      ),
      ("b.json", Self.psd2Report(account: #""resourceId":"acc-7""#, booked: [4])),
      // The account after the transactions: its records have none.
      ("c.json", Self.psd2Report(account: #""iban":"LATE""#, booked: [5], accountLast: true)),
      // Two reports in one input, the second's IBAN escaped (`\u0030` is `0`); both keys: the IBAN wins.
      (
        "d.json",
        Self.psd2Report(account: #""iban":"NL91ABNA0417164300""#, booked: [6])
          + "\n"
          + Self.psd2Report(account: #""resourceId":"r-1","iban":"GB29NWBK6016133192681\u0030""#, booked: [7, 8])
      ),
      ("e.json", Self.psd2Report(account: nil, booked: [9])),
    ]
    for chunkSize in [1 << 20, 64, 7] {
      var options = Self.options(threads: 2, chunkSize: chunkSize)
      options.read.schema = .psd2
      let pipeline = GroupPipeline(options: options)
      var rejections: [RecordRejection] = []
      pipeline.onRejection = { rejections.append($0) }
      let cursor = try pipeline.runPerAccount(
        sources: inputs.map { MemorySource(Array($0.text.utf8), name: $0.name) })
      var reports: [AccountReport] = []
      while let next = try cursor.next() { reports.append(next) }
      #expect(
        reports.map(\.account) == [
          "DE02120300000000202051", "GB29NWBK60161331926810", "NL91ABNA0417164300", "acc-7",
        ], "chunk size \(chunkSize)")
      #expect(reports.map(\.count) == [3, 2, 1, 1])
      #expect(rejections.map(\.file) == ["c.json", "e.json"])
      #expect(rejections.allSatisfy { $0.reason == .missingField && $0.field == "account" })
      // The account's report is the plain report of its own records.
      let own = Array(Self.psd2Report(account: nil, booked: [1, 2], pending: [3]).utf8)
      let alone = try GroupPipeline(options: GroupOptions()).run(sources: [InputOpener.open(bytes: own, name: "-")])
      #expect(reports.first?.sections == alone.sections)
    }
  }
}
