import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// `AccountReportCursor.write(with:flush:)`: `jsonl`, `json` and `csv` written straight
/// from the fold's tables (merged in batches on the cursor's thread) must be the
/// bytes `write(_:flush:)` gives for each `AccountReport` from `next()`.
@Suite("Per-account writing from tables")
struct AccountTableWritingTests {
  /// Both ways of writing one run: from reports, and from the tables.
  static func bothWays(
    _ bytes: [UInt8], format: ReportFormat, options: GroupOptions
  ) throws -> (reports: [UInt8], tables: [UInt8], runs: Int) {
    func run(fromTables: Bool) throws -> ([UInt8], Int) {
      let cursor = try GroupPipeline(options: options).runPerAccount(
        sources: [MemorySource(bytes, name: "dump.jsonl")])
      var writer = try #require(AccountReportWriter(format: format))
      var out: [UInt8] = []
      // Small flushes, so that buffers are handed over in the middle of groups.
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
      return (out, cursor.spilledRuns)
    }
    let (reports, runs) = try run(fromTables: false)
    let (tables, _) = try run(fromTables: true)
    return (reports, tables, runs)
  }

  /// Where two outputs first differ, with some context; `nil` when equal
  /// (comparing the arrays would print megabytes on a failure).
  static func difference(_ lhs: [UInt8], _ rhs: [UInt8]) -> String? {
    guard lhs != rhs else { return nil }
    let at = zip(lhs.indices, zip(lhs, rhs)).first { $0.1.0 != $0.1.1 }?.0 ?? min(lhs.count, rhs.count)
    func around(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 80)], as: UTF8.self)
    }
    return "at byte \(at) of \(lhs.count)/\(rhs.count): \(around(lhs)) <> \(around(rhs))"
  }

  @Test(
    "the same bytes as from reports: in memory and spilled, with and without members",
    arguments: [ReportFormat.jsonl, .json, .csv])
  func sameBytes(format: ReportFormat) throws {
    for (memoryLimit, members) in [(512 << 20, true), (1, true), (512 << 20, false), (1, false)] {
      var options = PerAccountTests.options(memoryLimit: memoryLimit, chunkSize: 64 << 10)
      options.reportMembers = members
      let (reports, tables, runs) = try Self.bothWays(PerAccountTests.dump, format: format, options: options)
      #expect(memoryLimit > 1 || runs > 10)
      #expect(Self.difference(tables, reports) == nil, "memory limit \(memoryLimit), members \(members)")
      #expect(tables.count > 100_000)
    }
  }

  @Test("more members than a ring holds (a heap), odd states and several currencies: the same bytes")
  func heapsAndStates() throws {
    var lines: [String] = []
    let states = ["PENDING", "COMPLETED", "REJECTED", "BOOKED", "Ünïcode \\\"state\\\""]
    let currencies = ["EUR", "USD", "JPY"]
    for index in 0..<3_000 {
      // One account id a CSV cell quotes and neutralises (a formula's first byte, a comma, quotes).
      let account = index % 11 == 0 ? "=acct, \\\"quoted\\\"" : "acct-\(index % 7 == 0 ? "big" : String(index % 40))"
      let day = 1 + index % 3
      // Many groups share their latest instant (noon), so the indicator decides their order.
      let time = index % 4 < 2 ? "12:00:00Z" : "10:\(10 + index % 50):00Z"
      let description = index % 5 == 0 ? "" : ",\"description\":\"tab\\there \\u00e9 \(index)\""
      lines.append(
        "{\"arrangementId\":\"\(account)\",\"id\":\"id-\(index)\"\(description),"
          + "\"transactionAmountCurrency\":{\"amount\":\"\(index % 97).\(index % 10)\","
          + "\"currencyCode\":\"\(currencies[index % 3])\"},\"creditDebitIndicator\":\"\(index % 2 == 0 ? "CRDT" : "DBIT")\","
          + "\"creationTime\":\"2024-03-0\(day)T\(time)\",\"state\":\"\(states[index % 5])\"}")
    }
    let bytes = Array(lines.joined(separator: "\n").utf8)
    for memberLimit in [1, 20, 40, 200] {
      for memoryLimit in [512 << 20, 1] {
        var options = PerAccountTests.options(threads: 3, memoryLimit: memoryLimit, chunkSize: 16 << 10)
        options.memberLimit = memberLimit
        for format in [ReportFormat.jsonl, .json, .csv] {
          let (reports, tables, _) = try Self.bothWays(bytes, format: format, options: options)
          #expect(
            Self.difference(tables, reports) == nil, "members \(memberLimit), memory limit \(memoryLimit), \(format)")
        }
      }
    }
  }

  @Test("other formats go through the reports, and a cursor already read from goes on from there")
  func otherFormatsAndStartedCursors() throws {
    let options = PerAccountTests.options(memoryLimit: 1, chunkSize: 64 << 10)
    for format in [ReportFormat.text, .html] {
      let (reports, tables, _) = try Self.bothWays(PerAccountTests.dump, format: format, options: options)
      #expect(Self.difference(tables, reports) == nil)
    }
    let cursor = try GroupPipeline(options: options).runPerAccount(
      sources: [MemorySource(PerAccountTests.dump, name: "dump.jsonl")])
    let first = try #require(try cursor.next())
    var writer = try #require(AccountReportWriter(format: .jsonl))
    var out: [UInt8] = []
    let flush = { (chunk: inout [UInt8]) -> Void in
      out += chunk
      chunk.removeAll()
    }
    try cursor.write(with: &writer, flush: flush)
    writer.finish(stats: cursor.stats, flush: flush)
    let (reports, _, _) = try PerAccountTests.accounts(PerAccountTests.dump, options: options)
    // The accounts after the first, and no stats line (jsonl holds only rows).
    let lines = out.split(separator: UInt8(ascii: "\n"))
    #expect(lines.count == reports.count - 1)
    #expect(!lines.contains { $0.starts(with: Array(#"{"stats""#.utf8)) })
    #expect(first.account == reports[0].account)
    #expect(cursor.stats.accounts == reports.count)
  }

  @Test("a failing output stops the writing thread and removes the runs")
  func failingOutput() throws {
    struct Full: Error {}
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-tw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: parent) }
    var options = PerAccountTests.options(memoryLimit: 1, chunkSize: 64 << 10)
    options.temporaryDirectory = parent.path
    let cursor = try GroupPipeline(options: options).runPerAccount(
      sources: [MemorySource(PerAccountTests.dump, name: "dump.jsonl")])
    #expect(cursor.spilledRuns > 10)
    var writer = try #require(AccountReportWriter(format: .jsonl))
    var calls = 0
    #expect(throws: AccountReportWriteError<Full>.self) {
      try cursor.write(typedWith: &writer) { (_: inout [UInt8]) throws(Full) in
        calls += 1
        throw Full()
      }
    }
    #expect(calls == 1)
    // The writing thread has stopped; the runs go with the cursor, as after `next()`.
    withExtendedLifetime(cursor) {}
  }

  @Test("the byte-wise UTF-8 check agrees with decoding on random and edge bytes")
  func utf8Check() {
    var generator = SystemRandomNumberGenerator()
    let edges: [[UInt8]] = [
      [], [0x41], [0xC2, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
      [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], Array("Café Łódź €".utf8),
    ]
    var cases = edges
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...6, using: &generator)
      cases.append(
        (0..<length).map { _ in
          [0x41, 0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xA0, 0x90].randomElement(using: &generator)!
        })
    }
    for bytes in cases {
      #expect(UTF8Validation.isValid(bytes) == (UTF8Validation.decodingFallback(bytes) != nil), "\(bytes)")
    }
  }
}

/// The order accounts are written in: byte-wise, whatever the ids look like.
@Suite("Per-account table order")
struct AccountOrderTests {
  @Test("groupsByAccount orders ids byte-wise: shared prefixes, lengths past 16, trailing zeros, high bytes")
  func byteWiseOrder() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [UInt8] = [0x00, 0x01, 0x41, 0x42, 0x7F, 0x80, 0xC3, 0xFF]
    var ids: Set<[UInt8]> = [[], [0], [0, 0], [0x41], [0x41, 0], Array(repeating: 0x41, count: 16)]
    ids.insert(Array(repeating: 0x41, count: 16) + [0])
    ids.insert(Array(repeating: 0x41, count: 17))
    for _ in 0..<3_000 {
      let prefix = Array("A00000".utf8)
      let length = Int.random(in: 0...24, using: &generator)
      let tail = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
      ids.insert(Bool.random(using: &generator) ? prefix + tail : tail)
    }
    let table = GroupTable(memberLimit: 1, perAccount: true)
    let state = table.states.intern(Array("BOOKED".utf8))
    for id in ids.shuffled(using: &generator) {
      id.withUnsafeBufferPointer { table.setAccount($0) }
      _ = table.groupIndex(state: state, day: CalendarDay(daysSinceEpoch: 1), indicator: .credit)
    }
    let written = table.groupsByAccount().map { table.accounts.strings[Int($0.account)] }
    #expect(written == ids.sorted { $0.lexicographicallyPrecedes($1) })
  }
}

/// The byte helpers the table writer uses agree with the general ones.
@Suite("Table writer byte helpers")
struct TableWriterBytesTests {
  @Test("appendDecimal writes what String(_:) writes")
  func decimals() {
    var generator = SystemRandomNumberGenerator()
    var values = [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
    for _ in 0..<2_000 { values.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62)) }
    for value in values {
      var out: [UInt8] = [0x41]
      out.appendDecimal(value)
      #expect(out == [0x41] + Array(String(value).utf8), "\(value)")
    }
  }

  @Test("escaping bytes in memory equals escaping them one by one")
  func contiguousEscaping() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x20, 0x22, 0x41, 0x5C, 0x7F, 0xC3, 0xA9]
    for length in 0..<40 {
      for _ in 0..<50 {
        let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
        var general: [UInt8] = []
        JSONEscaping.appendString(bytes: bytes, to: &general)
        var contiguous: [UInt8] = []
        bytes.withUnsafeBufferPointer { JSONEscaping.appendString(contiguous: $0, to: &contiguous) }
        #expect(contiguous == general, "\(bytes)")
      }
    }
  }
}

/// What a run on disk must carry whole, however long a record's strings are.
@Suite("Per-account runs with long names")
struct LongNamesInRunsTests {
  @Test("a currency and a state longer than 255 bytes come back from a run as they went in")
  func longCurrencyAndState() throws {
    let currency = String(repeating: "C", count: 300)
    let state = String(repeating: "S", count: 70_000)
    var lines: [String] = []
    for index in 0..<400 {
      lines.append(
        "{\"arrangementId\":\"a\(index % 9)\",\"id\":\"\(index)\",\"transactionAmountCurrency\":"
          + "{\"amount\":\"1.\(index % 10)\",\"currencyCode\":\"\(index % 2 == 0 ? currency : "EUR")\"},"
          + "\"creditDebitIndicator\":\"DBIT\",\"creationTime\":\"2024-01-0\(1 + index % 5)T10:00:00Z\","
          + "\"state\":\"\(index % 3 == 0 ? state : "BOOKED")\"}")
    }
    let bytes = Array(lines.joined(separator: "\n").utf8)
    var spilled = PerAccountTests.options(memoryLimit: 1, chunkSize: 16 << 10)
    spilled.read.limits.maxRecordBytes = 1 << 20
    var inMemory = PerAccountTests.options()
    inMemory.read.limits.maxRecordBytes = 1 << 20
    let (expected, stats, _) = try PerAccountTests.accounts(bytes, options: inMemory)
    #expect(stats.accepted == 400)
    let (written, _, runs) = try PerAccountTests.accounts(bytes, options: spilled)
    #expect(runs > 1)
    #expect(written == expected)
  }
}
