import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// `FoldedGroups.render`: `json`, `jsonl` and `csv` written straight from the
/// fold's table (`TableReportWriter`, walking the table in place) must be the
/// bytes `ReportRenderer` writes from the same fold's `GroupReport` (made by
/// `GroupTable.report`, an order and sections of its own): the same writers,
/// fed by two sources.
@Suite("Whole reports from tables")
struct TableReportWritingTests {
  /// Folds `bytes` as `group` does, with the accounting checks.
  static func fold(_ bytes: [UInt8], options: GroupOptions) throws -> FoldedGroups {
    var inputs = RunInputs(sources: [MemorySource(bytes, name: "dump.jsonl")])
    return try GroupPipeline(options: options).checkedFold(names: inputs.names) { () throws(PipelineError) in
      try inputs.next()
    }
  }

  static func options(threads: Int = 2, chunkSize: Int = 1 << 20) -> GroupOptions {
    var options = GroupOptions()
    options.threads = threads
    options.read.limits.chunkSize = chunkSize
    return options
  }

  /// The fold's report both ways: from the table, and from its `GroupReport`.
  static func bothWays(_ folded: FoldedGroups, format: ReportFormat) -> (table: [UInt8], report: [UInt8]) {
    var table: [UInt8] = []
    var flushes = 0
    folded.render(format: format) { (chunk: inout [UInt8]) -> Void in
      table += chunk
      chunk.removeAll()
      flushes += 1
    }
    #expect(flushes >= 1)
    return (table, ReportRenderer.renderToBytes(folded.report, format: format))
  }

  /// Records in several states (known, other, and ones a CSV cell must quote
  /// or neutralise), currencies, days and indicators; some without a
  /// description, some with escapes and non-ASCII text.
  static let oddDump: [UInt8] = {
    var lines: [String] = []
    let states = ["PENDING", "COMPLETED", "REJECTED", "booked", "Ünïcode \\\"state\\\"", "=SUM(A1),X", "-x"]
    let currencies = ["EUR", "USD", "JPY", "=US", "E,R"]
    for index in 0..<3_000 {
      let day = 1 + index % 4
      // Many groups share their latest instant (noon), so the indicator decides their order.
      let time = index % 4 < 2 ? "12:00:00Z" : "10:\(10 + index % 50):00Z"
      let description =
        switch index % 5 {
        case 0: ""
        case 1: ",\"description\":\"tab\\there \\u00e9 \\\"q\\\" \(index)\""
        case 2: ",\"description\":\"Café Müller, a long plain description number \(index)\""
        default: ",\"description\":\"Plain ASCII \(index)\""
        }
      lines.append(
        "{\"id\":\"id-\(index)\(index % 9 == 0 ? "\\\\x" : "")\"\(description),"
          + "\"transactionAmountCurrency\":{\"amount\":\"\(index % 7 == 0 ? "-" : "")\(index % 97).\(index % 10)\","
          + "\"currencyCode\":\"\(currencies[index % 5])\"},\"creditDebitIndicator\":\"\(index % 2 == 0 ? "CRDT" : "DBIT")\","
          + "\"creationTime\":\"2024-03-0\(day)T\(time)\",\"state\":\"\(states[index % 7])\"}")
    }
    return Array(lines.joined(separator: "\n").utf8)
  }()

  @Test(
    "the same bytes as from the report: members kept or not, rings and heaps, one and several threads",
    arguments: [ReportFormat.json, .jsonl, .csv])
  func sameBytes(format: ReportFormat) throws {
    for (dump, name) in [(Self.oddDump, "odd"), (PerAccountTests.dump, "generated")] {
      for memberLimit in [0, 1, 20, 40, 200] {
        for threads in [1, 3] {
          for members in [true, false] {
            var options = Self.options(threads: threads, chunkSize: 16 << 10)
            options.memberLimit = memberLimit
            options.reportMembers = members
            let folded = try Self.fold(dump, options: options)
            // Pieces for the second thread of one group, of a few, and the usual size.
            for pieceWeight in [1, 60, FoldedGroups.defaultPieceWeight] {
              folded.pieceWeight = pieceWeight
              let (table, report) = Self.bothWays(folded, format: format)
              #expect(
                AccountTableWritingTests.difference(table, report) == nil,
                "\(name): members \(memberLimit) (\(members)), threads \(threads), pieces \(pieceWeight)")
              #expect(table.count > 1_000)
            }
          }
        }
      }
    }
  }

  @Test(
    "states, currencies and members longer than the group writer's scratch memory, byte for byte",
    arguments: [ReportFormat.json, .jsonl, .csv])
  func longStrings(format: ReportFormat) throws {
    let state = String(repeating: "S", count: 2_000)
    let currency = String(repeating: "C", count: 1_500)
    let id = String(repeating: "i", count: 900)
    let description = String(repeating: "d", count: 1_200)
    let dump = [
      "{\"id\":\"\(id)\",\"description\":\"\(description)\",\"transactionAmountCurrency\":{\"amount\":\"1.50\","
        + "\"currencyCode\":\"\(currency)\"},\"creditDebitIndicator\":\"CRDT\",\"creationTime\":\"2024-03-01T10:00:00Z\","
        + "\"state\":\"\(state)\"}",
      #"{"id":"p","transactionAmountCurrency":{"amount":"2.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","#
        + #""creationTime":"2024-03-02T10:00:00Z","state":"PENDING"}"#,
    ]
    let folded = try Self.fold(Array(dump.joined(separator: "\n").utf8), options: Self.options())
    let long =
      "{\"date\":\"2024-03-01\",\"creditDebitIndicator\":\"CRDT\",\"count\":1,\"totals\":[{\"currency\":\"\(currency)\","
      + "\"amount\":\"1.50\"}],\"latest\":\"2024-03-01T10:00:00Z\",\"transactions\":[{\"id\":\"\(id)\","
      + "\"description\":\"\(description)\",\"amount\":\"1.50\",\"currency\":\"\(currency)\","
      + "\"instant\":\"2024-03-01T10:00:00Z\"}]}"
    let pending =
      #"{"date":"2024-03-02","creditDebitIndicator":"DBIT","count":1,"totals":[{"currency":"EUR","amount":"2.00"}],"#
      + #""latest":"2024-03-02T10:00:00Z","transactions":[{"id":"p","amount":"2.00","currency":"EUR","#
      + #""instant":"2024-03-02T10:00:00Z"}]}"#
    let expected: String
    switch format {
    case .json:
      expected = """
        {
          "sections": [
            {
              "state": "PENDING",
              "groups": [
                \(pending)
              ]
            },
            {
              "state": "\(state)",
              "groups": [
                \(long)
              ]
            }
          ],
          "stats": {"lines":2,"accepted":2,"rejected":0,"duplicates":0}
        }

        """
    case .jsonl:
      expected =
        #"{"state":"PENDING","# + pending.dropFirst() + "\n" + "{\"state\":\"\(state)\"," + long.dropFirst() + "\n"
    default:
      expected = [
        "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest",
        "PENDING,2024-03-02,DBIT,1,EUR,1,2.00,2024-03-02T10:00:00Z",
        "\(state),2024-03-01,CRDT,1,\(currency),1,1.50,2024-03-01T10:00:00Z",
        "",
      ].joined(separator: "\r\n")
    }
    let (table, _) = Self.bothWays(folded, format: format)
    #expect(AccountTableWritingTests.difference(table, Array(expected.utf8)) == nil)
  }

  @Test("an empty fold, and the formats written from the report (text, html), give the report's bytes")
  func emptyAndOtherFormats() throws {
    let empty = try Self.fold([], options: Self.options())
    for format in ReportFormat.allCases {
      let (table, report) = Self.bothWays(empty, format: format)
      #expect(AccountTableWritingTests.difference(table, report) == nil, "\(format)")
    }
    let folded = try Self.fold(Self.oddDump, options: Self.options())
    for format in [ReportFormat.text, .html] {
      let (table, report) = Self.bothWays(folded, format: format)
      #expect(AccountTableWritingTests.difference(table, report) == nil, "\(format)")
    }
  }

  @Test("a failing flush stops the writing, on one thread and on two, and its error comes back")
  func failingFlush() throws {
    struct Full: Error, Equatable { let call: Int }
    for threads in [1, 2] {
      let folded = try Self.fold(PerAccountTests.dump, options: Self.options(threads: threads))
      folded.pieceWeight = 40
      for failing in [1, 2, 5] {
        var calls = 0
        var handed = 0
        #expect(throws: Full(call: failing)) {
          try folded.render(format: .json) { (chunk: inout [UInt8]) throws(Full) in
            calls += 1
            if calls == failing { throw Full(call: calls) }
            handed += chunk.count
            chunk.removeAll()
          }
        }
        #expect(calls == failing, "threads \(threads)")
        #expect(handed >= (failing - 1) * ReportRenderer.flushThreshold)
      }
    }
  }

  @Test("pieces of the report written on their own join to the whole", arguments: [ReportFormat.json, .jsonl, .csv])
  func pieces(format: ReportFormat) throws {
    let folded = try Self.fold(Self.oddDump, options: Self.options())
    let writer = TableReportWriter(format: format, table: folded.table, members: true)
    let count = writer.order.count
    #expect(count > 20)
    func write(cuts: [Int]) -> [UInt8] {
      var out: [UInt8] = []
      writer.appendBeginning(to: &out)
      let bounds = [0] + cuts + [count]
      for index in 0..<(bounds.count - 1) {
        var piece: [UInt8] = []
        writer.appendGroups(bounds[index]..<bounds[index + 1], to: &piece)
        out += piece
      }
      writer.appendEnd(stats: folded.stats, to: &out)
      return out
    }
    let whole = ReportRenderer.renderToBytes(folded.report, format: format)
    #expect(write(cuts: []) == whole)
    #expect(write(cuts: [1]) == whole)
    #expect(write(cuts: [count / 3, count / 3, 2 * count / 3]) == whole)
    #expect(write(cuts: Array(1..<count)) == whole)
  }
}

/// The word-at-a-time byte helpers agree with the byte-by-byte ones.
@Suite("Word-at-a-time text helpers")
struct WordTextHelperTests {
  /// Random byte strings, biased to what needs care: escapes, controls,
  /// non-ASCII, and lengths around multiples of eight.
  static func samples(count: Int) -> [[UInt8]] {
    var generator = SystemRandomNumberGenerator()
    let interesting: [UInt8] = [
      0x00, 0x08, 0x1F, 0x20, 0x21, 0x22, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xFF,
    ]
    var result: [[UInt8]] = [[], Array("plain ascii text".utf8), Array("Café Müller".utf8)]
    for _ in 0..<count {
      let length = Int.random(in: 0...40, using: &generator)
      let rare = Int.random(in: 0...3, using: &generator)
      result.append(
        (0..<length).map { _ in
          Int.random(in: 0..<10, using: &generator) < rare
            ? interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0x23...0x7E, using: &generator)
        })
    }
    return result
  }

  @Test("JSON strings: runs found eight bytes at a time escape as the byte loop does; plain ASCII and plain text")
  func jsonEscaping() {
    for bytes in Self.samples(count: 30_000) {
      var reference: [UInt8] = []
      JSONEscaping.appendString(bytes: bytes, to: &reference)
      var contiguous: [UInt8] = [0x41]
      var plain: [UInt8] = [0x41]
      let isPlain = bytes.withUnsafeBufferPointer { buffer in
        JSONEscaping.appendString(contiguous: buffer, to: &contiguous)
        return JSONEscaping.appendPlainASCII(buffer, to: &plain)
      }
      #expect(contiguous == [0x41] + reference, "\(bytes)")
      // Plain text: its bytes between quotes are what escaping writes, and it is valid UTF-8.
      let isText = bytes.withUnsafeBufferPointer { JSONEscaping.isPlainText($0) }
      let expectText = reference == [0x22] + bytes + [0x22] && UTF8Validation.decodingFallback(bytes) != nil
      #expect(isText == expectText, "\(bytes)")
      let expectPlain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
      #expect(isPlain == expectPlain, "\(bytes)")
      #expect(plain == (expectPlain ? [0x41] + reference : [0x41]), "\(bytes)")
    }
  }

  @Test("a member's strings checked together are plain text exactly when each is (characters cut between them)")
  func memberPlainTogether() {
    var generator = SystemRandomNumberGenerator()
    let pieces = Self.samples(count: 3_000) + [[0xC3], [0xA9], [0x41, 0xC3], [0xA9, 0x41], [0xE2, 0x82], [0xAC]]
    for _ in 0..<20_000 {
      let id = pieces.randomElement(using: &generator) ?? []
      let currency = pieces.randomElement(using: &generator) ?? []
      let description = Bool.random(using: &generator) ? pieces.randomElement(using: &generator) : nil
      let together = id + currency + (description ?? [])
      together.withUnsafeBufferPointer { all in
        let idEnd = id.count
        let currencyEnd = idEnd + currency.count
        let member = GroupMemberText(
          id: UnsafeBufferPointer(rebasing: all[..<idEnd]),
          description: description.map { _ in UnsafeBufferPointer(rebasing: all[currencyEnd...]) },
          currency: UnsafeBufferPointer(rebasing: all[idEnd..<currencyEnd]), amount: "1",
          instant: ByteScratchTests.timestamp(year: 2024, fraction: 0, style: .zulu),
          together: all)
        var alone = member
        alone.together = nil
        let each =
          JSONEscaping.isPlainText(member.id) && JSONEscaping.isPlainText(member.currency)
          && member.description.map(JSONEscaping.isPlainText) != false
        #expect(JSONReportWriter.isPlainText(member) == each, "\(id) \(currency) \(String(describing: description))")
        #expect(JSONReportWriter.isPlainText(alone) == each)
      }
    }
  }

  @Test("UTF-8 check on a buffer (ASCII words skipped) agrees with the byte-by-byte one")
  func utf8Words() {
    var generator = SystemRandomNumberGenerator()
    var cases = Self.samples(count: 20_000)
    for _ in 0..<5_000 {
      // ASCII runs of 0 to 20 bytes before and after a short sequence of high bytes.
      let before = [UInt8](repeating: 0x41, count: Int.random(in: 0...20, using: &generator))
      let after = [UInt8](repeating: 0x42, count: Int.random(in: 0...20, using: &generator))
      let highs: [UInt8] = [0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xA0, 0x90]
      let middle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
        highs.randomElement(using: &generator) ?? 0x80
      }
      cases.append(before + middle + after)
    }
    for bytes in cases {
      let words = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
      #expect(words == UTF8Validation.isValid(bytes[...]), "\(bytes)")
      #expect(words == (UTF8Validation.decodingFallback(bytes) != nil), "\(bytes)")
    }
  }

  @Test("canonical decimal text on the stack agrees with the general writer")
  func decimalText() {
    var generator = SystemRandomNumberGenerator()
    var values: [ExactDecimal] = [
      .zero, ExactDecimal(significandHigh: 0, significandLow: 5, scale: 18),
      ExactDecimal(significandHigh: 0, significandLow: .max, scale: 18),
      ExactDecimal(significandHigh: 0, significandLow: .max, scale: 0),
      ExactDecimal(significandHigh: -1, significandLow: 1, scale: 3),
      ExactDecimal(significandHigh: -1, significandLow: 0, scale: 2),
      ExactDecimal(significandHigh: 1, significandLow: 0, scale: 18),
      // Past the scales a value may have (the public initialisers trap there): the writer's fallback.
      ExactDecimal(wide: 12, scale: 30),
      ExactDecimal(significandHigh: Int64.min, significandLow: 0, scale: 4),
    ]
    for _ in 0..<20_000 {
      let low = UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)
      let value = ExactDecimal(
        significandHigh: 0, significandLow: low, scale: UInt8.random(in: 0...18, using: &generator))
      values.append(Bool.random(using: &generator) ? value : value.negated)
    }
    for value in values {
      var fast: [UInt8] = [0x41]
      value.appendText(to: &fast)
      var general: [UInt8] = [0x41]
      value.appendText(
        to: &general, decimalSeparator: UInt8(ascii: "."), groupingSeparator: [], minimumGroupingDigits: 1)
      #expect(fast == general, "\(value.wide) scale \(value.scale)")
    }
  }
}
