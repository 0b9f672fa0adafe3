import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// `GroupOptions.sortedByAccount`: input already ordered by account, folded
/// account by account while it is read. Held to the unsorted per-account
/// path (which `PerAccountTests` holds to the naive fold of each account
/// alone) on the same skewed dumps, sorted.
@Suite("Per-account fold of input sorted by account")
struct SortedAccountTests {
  /// `PerAccountTests.dump`'s lines ordered by account, byte-wise (stable: each account's records keep their order).
  static let sortedDump: [UInt8] = {
    guard let split = try? PerAccountTests.linesByAccount(PerAccountTests.dump) else { return [] }
    return split.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.flatMap(\.value)
  }()

  static func sortedOptions(
    threads: Int = 2, memoryLimit: Int = 512 << 20, chunkSize: Int = 1 << 20
  ) -> GroupOptions {
    var options = PerAccountTests.options(threads: threads, memoryLimit: memoryLimit, chunkSize: chunkSize)
    options.sortedByAccount = true
    return options
  }

  /// A run's bytes in `format`, from tables (`write(with:)`) or from `next()`'s reports, with its stats and runs.
  static func output(
    _ sources: [any ByteSource], format: ReportFormat, options: GroupOptions, fromTables: Bool = true
  ) throws -> (bytes: [UInt8], stats: RunStats, runs: Int) {
    let cursor = try GroupPipeline(options: options).runPerAccount(sources: sources)
    var writer = try #require(AccountReportWriter(format: format))
    var out: [UInt8] = []
    let flush = { (chunk: inout [UInt8]) -> Void in
      out += chunk
      chunk.removeAll()
    }
    writer.begin(flush: flush)
    if fromTables {
      try cursor.write(with: &writer, flush: flush)
    } else {
      while let next = try cursor.next() { writer.write(next, flush: flush) }
    }
    writer.finish(stats: cursor.stats, flush: flush)
    return (out, cursor.stats, cursor.spilledRuns)
  }

  @Test(
    "the unsorted path's bytes and stats in every format, for 1, 2 and 4 threads and tiny chunks, never spilling",
    arguments: [ReportFormat.jsonl, .json, .csv, .text, .html])
  func sameBytesAsUnsorted(format: ReportFormat) throws {
    let expected = try Self.output(
      [MemorySource(PerAccountTests.dump, name: "dump.jsonl")], format: format,
      options: PerAccountTests.options(threads: 1))
    #expect(expected.stats.accounts == 60)
    for threads in [1, 2, 4] {
      for (chunkSize, memoryLimit) in [(1 << 20, 512 << 20), (4_096, 1), (700, 1)] {
        for fromTables in [true, false] {
          let sorted = try Self.output(
            [MemorySource(Self.sortedDump, name: "dump.jsonl")], format: format,
            options: Self.sortedOptions(threads: threads, memoryLimit: memoryLimit, chunkSize: chunkSize),
            fromTables: fromTables)
          let label = "\(format) threads \(threads) chunk \(chunkSize) tables \(fromTables)"
          #expect(AccountTableWritingTests.difference(sorted.bytes, expected.bytes) == nil, "\(label)")
          #expect(sorted.stats == expected.stats, "\(label)")
          #expect(sorted.runs == 0, "\(label)")
        }
      }
    }
  }

  @Test("a long account over many chunks, between short ones, holds only its groups and folds as the unsorted path")
  func longAccountOverManyChunks() throws {
    var lines: [String] = []
    for (account, count) in [("a-short", 3), ("m-corporate", 3_000), ("z-short", 2)] {
      for index in 0..<count {
        lines.append(
          "{\"arrangementId\":\"\(account)\",\"id\":\"\(account)-\(index)\",\"creationTime\":\"2024-05-\(10 + index % 7)T1\(index % 10):00:00\","
            + "\"state\":\"\(index % 3 == 0 ? "PENDING" : "COMPLETED")\",\"creditDebitIndicator\":\"\(index % 2 == 0 ? "CRDT" : "DBIT")\","
            + "\"transactionAmountCurrency\":{\"amount\":\"\(index % 89).\(index % 100)\",\"currencyCode\":\"\(index % 5 == 0 ? "USD" : "EUR")\"}}"
        )
      }
    }
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    let expected = try Self.output(
      [MemorySource(bytes, name: "in.jsonl")], format: .jsonl, options: PerAccountTests.options(threads: 1))
    for threads in [1, 4] {
      // About 250 bytes a record: a 2 KiB chunk holds 8, so the corporate account spans hundreds.
      let sorted = try Self.output(
        [MemorySource(bytes, name: "in.jsonl")], format: .jsonl,
        options: Self.sortedOptions(threads: threads, memoryLimit: 1, chunkSize: 2_048))
      #expect(AccountTableWritingTests.difference(sorted.bytes, expected.bytes) == nil, "threads \(threads)")
      #expect(sorted.stats.accounts == 3)
      #expect(sorted.runs == 0)
    }
    let cursor = try GroupPipeline(options: Self.sortedOptions(threads: 2, chunkSize: 2_048)).runPerAccount(
      sources: [MemorySource(bytes, name: "in.jsonl")])
    var counts: [String: Int] = [:]
    while let next = try cursor.next() { counts[next.account] = next.count }
    #expect(counts == ["a-short": 3, "m-corporate": 3_000, "z-short": 2])
  }

  @Test("equal accounts across input files continue one account, as one stream")
  func equalAccountsAcrossInputs() throws {
    let lines = GeneratorTests.lines(of: Self.sortedDump)
    // Cut inside accounts (the first account alone has hundreds of records).
    let cuts = [0, 150, 1_777, 2_900, lines.count]
    let parts = (0..<(cuts.count - 1)).map {
      Array(lines[cuts[$0]..<cuts[$0 + 1]].joined(separator: [UInt8(ascii: "\n")])) + [UInt8.newline]
    }
    let whole = try Self.output(
      [MemorySource(Self.sortedDump, name: "dump.jsonl")], format: .json, options: PerAccountTests.options())
    for threads in [1, 4] {
      let parts = try Self.output(
        parts.enumerated().map { MemorySource($0.element, name: "part-\($0.offset).jsonl") }, format: .json,
        options: Self.sortedOptions(threads: threads, chunkSize: 8_192))
      #expect(AccountTableWritingTests.difference(parts.bytes, whole.bytes) == nil, "threads \(threads)")
      #expect(parts.stats.accounts == whole.stats.accounts)
    }
  }

  /// The error of a sorted run over `sources`, with the rejections reported before it.
  static func orderError(
    _ sources: [any ByteSource], options: GroupOptions
  ) throws -> (error: AccountOrderError?, rejections: [RecordRejection], accounts: Int) {
    let pipeline = GroupPipeline(options: options)
    var rejections: [RecordRejection] = []
    pipeline.onRejection = { rejections.append($0) }
    let cursor = try pipeline.runPerAccount(sources: sources)
    var accounts = 0
    do throws(PipelineError) {
      while try cursor.next() != nil { accounts += 1 }
    } catch {
      guard case .accountsOutOfOrder(let file, let line, let previous, let account) = error else { throw error }
      return (AccountOrderError(file: file, line: line, previous: previous, account: account), rejections, accounts)
    }
    return (nil, rejections, accounts)
  }

  static func record(_ account: String, _ id: Int) -> String {
    "{\"arrangementId\":\"\(account)\",\"id\":\"\(id)\",\"creationTime\":\"2024-05-17T10:00:00\",\"state\":\"COMPLETED\","
      + "\"creditDebitIndicator\":\"DBIT\",\"transactionAmountCurrency\":{\"amount\":\"1.50\",\"currencyCode\":\"EUR\"}}"
  }

  @Test(
    "an account smaller than an earlier one stops the run: the input, the line, both ids; rejections before it only",
    arguments: [1, 2, 4])
  func outOfOrder(threads: Int) throws {
    // Within a chunk, and back to an account seen before.
    var lines = ["A1", "A1", "B2"].enumerated().map { Self.record($0.element, $0.offset) }
    lines += ["{broken", Self.record("A3", 9), "{broken too"]
    for chunkSize in [1 << 20, 300] {
      let input = Array((lines.joined(separator: "\n") + "\n").utf8)
      let (error, rejections, _) = try Self.orderError(
        [MemorySource(input, name: "in.jsonl")], options: Self.sortedOptions(threads: threads, chunkSize: chunkSize))
      let failure = try #require(error, "chunk \(chunkSize)")
      #expect(failure.file == "in.jsonl")
      #expect(failure.line == 5)
      #expect(failure.previous == "B2")
      #expect(failure.account == "A3")
      #expect(rejections.map(\.line) == [4])
      #expect(failure.description.contains("sortedByAccount"))
    }
    // An account seen before, after another.
    let back = Array([Self.record("A", 1), Self.record("B", 2), Self.record("A", 3)].joined(separator: "\n").utf8)
    let (again, _, _) = try Self.orderError(
      [MemorySource(back, name: "x")], options: Self.sortedOptions(threads: threads))
    #expect(again?.line == 3 && again?.previous == "B" && again?.account == "A")
    // Across inputs: the second file starts below the first's last account.
    let first = Array((Self.record("K", 1) + "\n" + Self.record("M", 2) + "\n").utf8)
    let second = Array(("\n" + Self.record("L", 3) + "\n").utf8)
    let (across, _, _) = try Self.orderError(
      [MemorySource(first, name: "one.jsonl"), MemorySource(second, name: "two.jsonl")],
      options: Self.sortedOptions(threads: threads))
    #expect(across?.file == "two.jsonl" && across?.line == 2 && across?.previous == "M" && across?.account == "L")
  }

  @Test("accounts from file names: one export per customer, the files given in order")
  func accountsFromFileNames() throws {
    let split = try PerAccountTests.linesByAccount(PerAccountTests.dump)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-sorted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (account, bytes) in split.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
      let path = directory.appendingPathComponent("\(account).export.jsonl").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    var options = Self.sortedOptions(threads: 4, chunkSize: 4_096)
    options.read.accounts = .fileName
    let cursor = try GroupPipeline(options: options).runPerAccount(paths: paths)
    var fromFiles: [AccountReport] = []
    while let next = try cursor.next() { fromFiles.append(next) }
    let (fromField, _, _) = try PerAccountTests.accounts(PerAccountTests.dump, options: PerAccountTests.options())
    #expect(fromFiles == fromField)
    // The same files in another order: the first file out of order stops the run.
    let swapped = [paths[1], paths[0]] + paths.dropFirst(2)
    let failing = try GroupPipeline(options: options).runPerAccount(paths: swapped)
    #expect(throws: PipelineError.self) { while try failing.next() != nil {} }
  }

  @Test("a tiny memory limit writes no run and makes no temporary directory")
  func noSpillDirectory() throws {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-sorted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    var options = Self.sortedOptions(threads: 4, memoryLimit: 1, chunkSize: 4_096)
    options.temporaryDirectory = parent.path
    let pipeline = GroupPipeline(options: options)
    var made: [String] = []
    pipeline.onTemporaryDirectory = { made.append($0) }
    let cursor = try pipeline.runPerAccount(sources: [MemorySource(Self.sortedDump, name: "d")])
    var accounts = 0
    while try cursor.next() != nil {
      accounts += 1
      #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }
    #expect(accounts == 60)
    #expect(cursor.spilledRuns == 0)
    #expect(made.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
  }

  @Test("rejections come in input order, as the unsorted path reports them")
  func rejectionsInOrder() throws {
    var lines = GeneratorTests.lines(of: Self.sortedDump).map { Array($0) }
    for position in stride(from: 5, to: lines.count, by: 97) { lines[position] = Array("{\"broken\":".utf8) }
    let input = Array(lines.joined(separator: [UInt8(ascii: "\n")])) + [UInt8.newline]
    func rejections(_ options: GroupOptions) throws -> ([Int], RunStats) {
      let pipeline = GroupPipeline(options: options)
      var seen: [Int] = []
      pipeline.onRejection = { seen.append($0.line) }
      let cursor = try pipeline.runPerAccount(sources: [MemorySource(input, name: "in")])
      while try cursor.next() != nil {}
      return (seen, cursor.stats)
    }
    let (expected, expectedStats) = try rejections(PerAccountTests.options(threads: 1))
    #expect(expected.count > 30)
    for threads in [1, 4] {
      let (seen, stats) = try rejections(Self.sortedOptions(threads: threads, chunkSize: 2_000))
      #expect(seen == expected)
      #expect(stats == expectedStats)
    }
  }

  @Test("a cursor dropped after its first account stops the fold; a partial is refused")
  func droppedCursorAndPartial() throws {
    do {
      let cursor = try GroupPipeline(options: Self.sortedOptions(threads: 2, chunkSize: 4_096)).runPerAccount(
        sources: [MemorySource(Self.sortedDump, name: "d")])
      #expect(try cursor.next() != nil)
    }
    #expect(throws: PipelineError.self) {
      try GroupPipeline(options: Self.sortedOptions()).runPerAccountPartial(
        sources: [MemorySource(Self.sortedDump, name: "d")])
    }
  }
}
