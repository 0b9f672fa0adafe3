import Foundation
import Testing

@testable import TxFold

/// A record's offset (`RecordFraming.offset`): where it starts in its input's
/// decoded bytes, which names it in `--dedupe`'s places. Every framer gives
/// the same offsets whatever the chunk size and however the reads fall, and
/// a dedupe run over inputs with every framing quirk equals a plain run over
/// its winners.
@Suite("Record offsets")
struct RecordOffsetTests {
  /// A record framing saw: its offset, its bytes and whether it is to decode.
  struct Framed: Equatable {
    var offset: Int64
    var bytes: [UInt8]
    var wellFormed: Bool
  }

  /// Frames `bytes` (`lengthPrefixed`: as a nightly run's second pass does) read `step` bytes at a time.
  static func frame(
    _ bytes: [UInt8], chunkSize: Int, step: Int, maxRecordBytes: Int = 64, lengthPrefixed: Bool = false
  ) throws -> [Framed] {
    let limits = RecordLimits(maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
    let framer = InputFramer(
      limits: limits, itemsPath: nil, allowTrailingCommas: false, lengthPrefixed: lengthPrefixed)
    var records: [Framed] = []
    _ = try framer.frame(
      MemorySource(bytes, step: step), fileIndex: 0, firstChunk: RecordChunk(capacity: framer.chunkCapacity),
      nextChunk: { () throws(PipelineError) -> RecordChunk in RecordChunk(capacity: framer.chunkCapacity) },
      emit: { (chunk: RecordChunk, _: RecordWrapper?) throws(PipelineError) in
        _ = chunk.forEachRecord(maxRecordBytes: maxRecordBytes) { record in
          records.append(
            Framed(
              offset: record.framing.offset, bytes: record.framing.problem == .none ? Array(record.bytes) : [],
              wellFormed: record.framing.problem == .none))
          // A pass that reads known records frames a line on its own, at its offset, alike.
          if chunk.kind == .lines, record.framing.problem == .none {
            let start = Int(record.framing.offset - chunk.inputOffset)
            let again = chunk.lineRecord(startingAt: start, maxRecordBytes: maxRecordBytes)
            #expect(again.map { Array($0.bytes) } == Array(record.bytes))
            #expect(again?.framing.offset == record.framing.offset)
          }
        }
      })
    return records
  }

  static let chunkSizes = [1, 2, 3, 7, 16, 61, 1 << 20]
  static let steps = [1, 2, 5, 1 << 20]

  /// Records of JSON lines: a byte-order mark and blank lines first, CRLF, a
  /// mark starting a later line, a line longer than the limit (64 bytes), blank
  /// lines between records, and a last line without its newline.
  static let lines = Array(
    ("\u{FEFF}\n \n\t{\"id\":\"a\"}\r\n\n{\"id\":\"b\"}\n\u{FEFF}{\"id\":\"c\"}\n{\"id\":\""
      + String(repeating: "x", count: 200)
      + "\"}\r\n  \n{\"id\":\"d\"}\n{\"id\":\"e\"}").utf8)

  /// The same records as a JSON array, after a mark and blanks, an element longer than the limit among them.
  static let array = Array(
    ("\u{FEFF}\n  [\n {\"id\":\"a\"},\n {\"id\":\"" + String(repeating: "x", count: 200)
      + "\"},{\"id\":\"b\"},\n\n   {\"id\":\"c\"}\n]\n").utf8)

  @Test("JSON lines: each record's offset is where its line starts, whatever the chunks and the reads")
  func lineOffsets() throws {
    let reference = try Self.frame(Self.lines, chunkSize: 1 << 20, step: 1 << 20)
    #expect(reference.count == 6)
    for record in reference {
      let start = Int(record.offset)
      // A line's mark is skipped before the record, not before its offset.
      let skipped = Self.lines[start] == 0xEF && start > 0 ? 3 : 0
      #expect(
        Array(Self.lines[(start + skipped)...].prefix(min(record.bytes.count, 16))) == Array(record.bytes.prefix(16)))
    }
    #expect(reference.map(\.offset) == reference.map(\.offset).sorted())
    #expect(reference.filter { !$0.wellFormed }.count == 1)
    for chunkSize in Self.chunkSizes {
      for step in Self.steps {
        #expect(
          try Self.frame(Self.lines, chunkSize: chunkSize, step: step) == reference, "chunk \(chunkSize), step \(step)")
      }
    }
  }

  @Test("Arrays and wrapper documents: each element's offset is where it starts, past an element too large")
  func elementOffsets() throws {
    // A wrapper spread over lines (one on a line of its own is a JSON line), then another document.
    let wrapper = Array(
      "{\n \"items\": [\n  {\"id\":\"a\"},\n  {\"id\":\"b\"}\n ]\n}\n{\"items\": [{\"id\":\"c\"}]}".utf8)
    for input in [Self.array, wrapper] {
      let reference = try Self.frame(input, chunkSize: 1 << 20, step: 1 << 20)
      #expect(reference.filter(\.wellFormed).count == 3)
      for record in reference where record.wellFormed {
        let start = Int(record.offset)
        #expect(Array(input[start..<(start + record.bytes.count)]) == record.bytes)
      }
      #expect(reference.map(\.offset) == reference.map(\.offset).sorted())
      for chunkSize in Self.chunkSizes {
        for step in Self.steps {
          #expect(
            try Self.frame(input, chunkSize: chunkSize, step: step) == reference, "chunk \(chunkSize), step \(step)")
        }
      }
    }
  }

  @Test("Length-prefixed records: each record's offset is where its length starts")
  func lengthPrefixedOffsets() throws {
    let records: [[UInt8]] =
      [[], Array("{\"a\":1}".utf8)] + (1...20).map { Array(repeating: UInt8($0), count: $0 * 3) }
    let bytes = LengthPrefixedFramingTests.stream(records)
    var expected: [Int64] = []
    var offset: Int64 = 0
    for record in records {
      expected.append(offset)
      offset += 4 + Int64(record.count)
    }
    for chunkSize in [1, 5, 64, 1 << 20] {
      for step in [1, 3, 1000] {
        let framed = try Self.frame(bytes, chunkSize: chunkSize, step: step, maxRecordBytes: 120, lengthPrefixed: true)
        #expect(framed.map(\.offset) == expected, "chunk \(chunkSize), step \(step)")
      }
    }
  }

  /// A record for the dedupe runs below.
  static func record(_ id: String, _ minute: Int, _ amount: String) -> String {
    #"{"id":"\#(id)","arrangementId":"A","creationTime":"2024-03-01T10:\#(String(format: "%02d", minute)):00Z","#
      + #""state":"COMPLETED","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"\#(amount)","#
      + #""currencyCode":"EUR"}}"#
  }

  /// Two inputs, each with every framing quirk; `r1`'s first version loses to a later one, `r2`
  /// ties (the later input wins), `r3`'s later version is older (it loses), `r4` comes once.
  static var dedupeInputs: (all: [[UInt8]], winners: [[UInt8]]) {
    let r1a = record("r1", 1, "1.00")
    let r1b = record("r1", 2, "2.00")
    let r2a = record("r2", 3, "3.00")
    let r2b = record("r2", 3, "4.00")
    let r3a = record("r3", 5, "5.00")
    let r3b = record("r3", 4, "6.00")
    let r4 = record("r4", 6, "7.00")
    let tooLarge = "{\"id\":\"" + String(repeating: "y", count: 300) + "\"}"
    let linesText = { (records: [String]) in
      "\u{FEFF}\n\n"
        + records.enumerated().map { index, text in
          (index == 1 ? "\u{FEFF}" : "") + text + (index == 0 ? "\r\n\n" + tooLarge + "\n" : "\n")
        }.joined()
    }
    let arrayText = { (records: [String]) in "  [\n" + records.joined(separator: ",\n " + "") + "\n]\n" }
    let all = [linesText([r1a, r2a, r3a]), arrayText([r1b, r2b, r3b, r4])]
    let winners = [linesText([r3a]), arrayText([r1b, r2b, r4])]
    return (all.map { Array($0.utf8) }, winners.map { Array($0.utf8) })
  }

  static func transactions(_ cursor: ListCursor) throws -> [Transaction] {
    var all: [Transaction] = []
    while let next = try cursor.next() { all.append(next) }
    return all
  }

  static func sources(_ inputs: [[UInt8]], step: Int) -> [any ByteSource] {
    inputs.enumerated().map { MemorySource($1, step: step, name: "input-\($0)") }
  }

  @Test("group, summary and list --dedupe over every framing quirk equal a plain run over the winners")
  func dedupeOverQuirks() throws {
    let (all, winners) = Self.dedupeInputs
    for chunkSize in [1, 7, 64, 1 << 20] {
      for (threads, memoryLimit) in [(1, 1), (2, 1), (1, 64 << 20), (2, 64 << 20)] {
        let step = chunkSize == 7 ? 3 : 1 << 20
        let setting = "chunk \(chunkSize), \(threads) threads, limit \(memoryLimit)"
        var group = GroupOptions()
        group.threads = threads
        group.read.limits.chunkSize = chunkSize
        group.read.limits.maxRecordBytes = 256
        let expected = try GroupPipeline(options: group).run(sources: Self.sources(winners, step: step))
        group.dedupe = true
        group.memoryLimit = memoryLimit
        let report = try GroupPipeline(options: group).run(sources: Self.sources(all, step: step))
        #expect(report.sections == expected.sections, "\(setting)")
        #expect(report.stats.duplicates == 3, "\(setting)")

        var summary = SummaryOptions()
        summary.threads = threads
        summary.read = group.read
        summary.read.limits.chunkSize = chunkSize
        let expectedSums = try SummaryPipeline(options: summary).run(sources: Self.sources(winners, step: step))
        summary.dedupe = true
        summary.memoryLimit = memoryLimit
        let sums = try SummaryPipeline(options: summary).run(sources: Self.sources(all, step: step))
        #expect(sums.entries == expectedSums.entries, "\(setting)")
        #expect(sums.totals == expectedSums.totals, "\(setting)")

        var list = ListOptions()
        list.threads = threads
        list.read = group.read
        list.read.limits.chunkSize = chunkSize
        let expectedRows = try ListPipeline(options: list).run(sources: Self.sources(winners, step: step))
        list.dedupe = true
        list.memoryLimit = max(memoryLimit, 4_096)
        let rows = try ListPipeline(options: list).run(sources: Self.sources(all, step: step))
        #expect(try Self.transactions(rows) == Self.transactions(expectedRows), "\(setting)")
      }
    }
  }

  @Test("--dedupe refuses more inputs than its places tell apart, before reading any")
  func tooManyInputs() throws {
    let names = Array(repeating: "x.jsonl", count: Deduplicated.maxInputs + 1)
    var opened = 0
    let inputs = RunInputs(names: names) { (_) throws(PipelineError) -> any ByteSource in
      opened += 1
      return MemorySource([], name: "x.jsonl")
    }
    let settings = DuplicateFinder.Settings(
      read: ReadOptions(), threads: 1, memoryLimit: 1 << 20, temporaryDirectory: nil)
    #expect {
      _ = try DuplicateFinder.firstPass(inputs, settings: settings)
    } throws: { error in
      guard case .invalidOptions(let reason) = error as? PipelineError else { return false }
      return reason.contains("at most 1048576 inputs")
    }
    #expect(opened == 0)
  }
}
