import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// A pipeline run: the report and the rejections in input order.
struct FramedRun: Equatable {
  var report: GroupReport
  var rejections: [RecordRejection]

  /// The rejections as `line:reason`.
  var rejected: [String] { rejections.map { "\($0.line):\($0.reason.code)" } }
}

func framedRun(
  _ inputs: [(bytes: [UInt8], name: String)], chunkSize: Int = 1 << 20, step: Int = .max, threads: Int = 1,
  configure: (inout GroupOptions) -> Void = { _ in }
) throws -> FramedRun {
  var options = GroupOptions()
  options.read.limits.chunkSize = chunkSize
  options.threads = threads
  options.read.limits.maxRecordBytes = 4096
  // These tests look at what framing makes of damaged input, a cut included: a cut is kept as the
  // rejection framing reports, not the run's failure (`TruncatedInputTests` checks that).
  options.read.cutShortInputFails = false
  configure(&options)
  var rejections: [RecordRejection] = []
  let pipeline = GroupPipeline(options: options)
  pipeline.onRejection = { rejections.append($0) }
  let report = try pipeline.run(sources: inputs.map { MemorySource($0.bytes, step: step, name: $0.name) })
  return FramedRun(report: report, rejections: rejections)
}

func framedRun(
  _ text: String, chunkSize: Int = 1 << 20, step: Int = .max, threads: Int = 1,
  configure: (inout GroupOptions) -> Void = { _ in }
) throws -> FramedRun {
  try framedRun(
    [(Array(text.utf8), "memory")], chunkSize: chunkSize, step: step, threads: threads, configure: configure)
}

/// `text` gzip-compressed, read in 3-byte steps and 5-byte chunks on two threads: framing across
/// the inflater's output as well as the chunks.
func framedGzipRun(_ text: String, cutShortInputFails: Bool) throws -> FramedRun {
  let compressed = try GzipBackendTests.gzip(Array(text.utf8))
  var rejections: [RecordRejection] = []
  var options = GroupOptions()
  options.read.limits.chunkSize = 5
  options.read.limits.maxRecordBytes = 4096
  options.read.cutShortInputFails = cutShortInputFails
  options.threads = 2
  let pipeline = GroupPipeline(options: options)
  pipeline.onRejection = { rejections.append($0) }
  let report = try pipeline.run(sources: [try GzipSource(wrapping: MemorySource(compressed, step: 3))])
  return FramedRun(report: report, rejections: rejections)
}

/// JSON arrays and wrapper documents: streamed element by element, the same
/// report as the equivalent JSON lines, on every chunk size and thread count.
@Suite("Array framing")
struct ArrayFramingTests {
  static let array = Fixtures.bytes("corpus-array.json")

  static func run(_ bytes: [UInt8], chunkSize: Int = 1 << 20, step: Int = .max, threads: Int = 1) throws -> FramedRun {
    try framedRun([(bytes, "corpus-array.json")], chunkSize: chunkSize, step: step, threads: threads)
  }

  static var reference: FramedRun {
    get throws { try run(array) }
  }

  /// The report without the byte counts, which differ between encodings of the same records.
  static func withoutByteCounts(_ report: GroupReport) -> GroupReport {
    var copy = report
    copy.stats.bytesRead = 0
    copy.stats.bytesDecoded = 0
    return copy
  }

  @Test("The array holds the corpus: the same report as its JSON lines")
  func sameAsLines() throws {
    let lines = try framedRun([(Fixtures.bytes("corpus.jsonl"), "corpus.jsonl")])
    let array = try Self.reference
    #expect(array.report.stats.lines == 8)
    #expect(array.rejections.isEmpty)
    #expect(Self.withoutByteCounts(array.report) == Self.withoutByteCounts(lines.report))
  }

  @Test(
    "Every array variant and wrapper gives the corpus report on every thread count",
    arguments: ["corpus-array.json", "corpus-array.json.gz", "corpus-wrapped.json"])
  func variants(name: String) throws {
    let reference = Self.withoutByteCounts(try Self.reference.report)
    for threads in [1, 2, 4] {
      var options = GroupOptions()
      options.threads = threads
      options.read.limits.chunkSize = 100
      let report = try GroupPipeline(options: options).run(paths: [Fixtures.path(name)])
      #expect(Self.withoutByteCounts(report) == reference, "\(name), \(threads) threads")
    }
  }

  @Test("Every chunk size from 1 byte up, plain")
  func everyChunkSizePlain() throws {
    let reference = try Self.reference
    for size in 1...(Self.array.count + 1) {
      let run = try Self.run(Self.array, chunkSize: size, step: size)
      #expect(run == reference, "chunk size \(size)")
      if run != reference { break }
    }
  }

  @Test("Every chunk size through gzip")
  func everyChunkSizeGzip() throws {
    let reference = try Self.reference
    let compressed = Fixtures.bytes("corpus-array.json.gz")
    for step in 1...(compressed.count + 1) {
      var options = GroupOptions()
      options.read.limits.chunkSize = step
      options.threads = step % 3 + 1
      let source = try GzipSource(wrapping: MemorySource(compressed, step: step))
      let report = try GroupPipeline(options: options).run(sources: [source])
      #expect(report.sections == reference.report.sections, "step \(step)")
      #expect(report.stats.lines == 8)
      #expect(report.stats.bytesDecoded == Int64(Self.array.count))
      if report.sections != reference.report.sections { break }
    }
  }

  @Test("Every read split point, with reads of one size and chunks of another, on two threads")
  func everySplitPoint() throws {
    let reference = try Self.reference
    for step in [1, 2, 3, 5, 7, 64, 100, 250] {
      for chunk in [1, 13, 97, 300, 4096] {
        let run = try Self.run(Self.array, chunkSize: chunk, step: step, threads: 2)
        #expect(run == reference, "step \(step), chunk \(chunk)")
      }
    }
  }

  @Test("A BOM and blank lines before the array are skipped; lines still count")
  func bomAndBlankLines() throws {
    let bytes = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2] + Array("\n \r\n\t".utf8) + Self.array
    for size in [1, 2, 3, 4, 7, 1 << 20] {
      let run = try framedRun([(bytes, "x")], chunkSize: size, step: size) { $0.read.limits.maxRecordBytes = 4096 }
      #expect(run.report.sections == (try Self.reference).report.sections, "size \(size)")
      let broken = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2] + Array("\n\n[{\"id\":".utf8)
      let cut = try framedRun([(broken, "x")], chunkSize: size, step: size)
      #expect(cut.rejected == ["3:invalid-json"], "size \(size)")
    }
  }

  @Test("A record that loses its closing brace is rejected alone; the reader goes on at the next element")
  func malformedElement() throws {
    let bytes = Fixtures.bytes("corpus-array-malformed.json")
    let reference = try framedRun([(bytes, "m")])
    #expect(reference.rejected == ["17:invalid-json"])
    #expect(reference.report.stats.lines == 8)
    #expect(reference.report.stats.accepted == 7)
    for size in [1, 2, 5, 31, 200, 1000] {
      #expect(try framedRun([(bytes, "m")], chunkSize: size, step: size, threads: size % 2 + 1) == reference)
    }
  }

  /// The last element broken (a lost `}`, a stray `[`, `{`, `"` or `\`) swallowed the `]` on the
  /// next line, and the run failed as an input never closed (74), losing every good record; the
  /// `]` left of the element's column closes the array, as the next element's start would.
  @Test(
    "A broken last element is rejected alone: the array's ] on the next line still closes it",
    arguments: [
      ("}", ""), (#""creationTime""#, #"["creationTime""#), (#""creationTime""#, #"{"creationTime""#),
      (#""creationTime""#, #"""creationTime""#), (#""DBIT""#, #""DBIT\""#),
    ])
  func brokenLastElement(text: String, broken: String) throws {
    let records = (1...4).map { backbaseRecord(id: "\"\($0)\"") }
    var damaged = records
    let last = damaged[3]
    let range = try #require(last.range(of: text, options: .backwards))
    damaged[3] = last.replacingCharacters(in: range, with: broken)
    let documents = [
      "[\n  " + damaged.joined(separator: ",\n  ") + "\n]\n",
      "{\"transactions\": [\n    " + damaged.joined(separator: ",\n    ") + "\n  ],\n  \"count\": 4\n}\n",
    ]
    for document in documents {
      for (size, threads) in [(1 << 20, 1), (7, 2), (64, 1)] {
        var options = GroupOptions()
        options.read.limits.chunkSize = size
        options.threads = threads
        var rejected: [String] = []
        let pipeline = GroupPipeline(options: options)
        pipeline.onRejection = { rejected.append("\($0.line):\($0.reason.code)") }
        let report = try pipeline.run(sources: [MemorySource(Array(document.utf8), step: size, name: "d")])
        #expect(report.stats.accepted == 3, "\(broken), size \(size)")
        #expect(rejected == ["5:invalid-json"], "\(broken), size \(size)")
      }
    }
  }

  /// An element whose damage holds a `]` after its object closed (`{…}],"x":1},`) closed the
  /// array of records there, and every later element was read as a top-level document and
  /// rejected; a `,` and a `{` after the array's end show the `]` was stray, and the array goes on.
  @Test(
    "A stray ] in a damaged element does not end the array: the elements after it are read",
    arguments: [#"}],"x":1},"#, #"}],"y":[2]},"#, #"}]] ,"x":1},"#])
  func strayCloser(damage: String) throws {
    let records = (1...6).map { backbaseRecord(id: "\"\($0)\"") }
    var lines = records.map { "  " + $0 + "," }
    lines[5].removeLast()
    // The second element's object ends early; the rest of its line is the damage.
    lines[1] = "  " + records[1].dropLast() + damage
    let document = "[\n" + lines.joined(separator: "\n") + "\n]\n"
    for (size, threads) in [(1 << 20, 1), (1, 1), (7, 2), (64, 3)] {
      let run = try framedRun(document, chunkSize: size, step: size, threads: threads)
      let ids = run.report.sections.flatMap { $0.groups.flatMap { $0.transactions.map(\.id) } }.sorted()
      #expect(ids == ["1", "2", "3", "4", "5", "6"], "\(damage), size \(size)")
      // Only the damaged line's stray text is rejected.
      #expect(!run.rejected.isEmpty && run.rejected.allSatisfy { $0.hasPrefix("3:") }, "\(run.rejected)")
    }
    // Concatenated arrays, and an array followed by a wrapper document, are read as before.
    let two = "[" + records[0] + "]\n[" + records[1] + "]\n"
    #expect(try framedRun(two).report.stats.accepted == 2)
    let joined = try framedRun("[" + records[0] + "],[" + records[1] + "]\n")
    #expect(joined.report.stats.accepted == 2)
    #expect(joined.rejected == ["1:invalid-json"])
  }

  /// A bad element of several words (`not json`, `12 34`, `"a" "b"`) was rejected once per word,
  /// each counted as a line; an unbalanced one (`{bad, {…}`, `{"a":1]`) took the array's `]` for
  /// its own, and the run failed as cut off (74). An element runs to its array's next `,` or `]`;
  /// in an unbalanced one, a `{` where a key belongs starts the next element and a `]` where only
  /// objects are open closes the array.
  @Test(
    "A bad element is one element, up to its array's next ',' or ']', on every chunk size, thread count and gzip",
    arguments: [
      ("[R, not json, R]", "not json", 2, true), ("[R, 12 34, R]", "12 34", 2, true),
      (#"[R, "a" "b", R]"#, #""a" "b""#, 2, true), ("[R, {bad, R]", "{bad,", 2, true),
      ("[R, not json]", "not json", 1, true), (#"[R, {"a":1]"#, #"{"a":1"#, 1, false), ("[R, 1}, R]", "1}", 2, true),
      (#"[R, 1 [2,{"a":[3]}] x, R]"#, #"1 [2,{"a":[3]}] x"#, 2, true),
      (#"[R, {"a":{"b":1},"c":2, R]"#, #"{"a":{"b":1},"c":2,"#, 2, true),
    ] as [(String, String, Int, Bool)])
  func oneBadElement(shape: String, bad: String, accepted: Int, overLines: Bool) throws {
    // Over lines, `{"a":1]` keeps its `]` (`brokenLastElementTakesArrayEnd`).
    for pretty in overLines ? [false, true] : [false] {
      // Over lines, a broken element also ends where the next line starts at its column.
      let text =
        shape.replacingOccurrences(of: ", ", with: pretty ? ",\n  " : ", ")
        .replacingOccurrences(of: "R", with: backbaseRecord()) + "\n"
      let line = pretty ? 2 : 1
      func check(_ run: FramedRun, _ context: String) {
        #expect(run.report.stats.accepted == accepted, "\(context): \(run.rejected)")
        #expect(run.report.stats.lines == accepted + 1, "\(context)")
        #expect(run.rejected == ["\(line):invalid-json"], "\(context)")
        let raw = run.rejections.first.map { String(decoding: $0.raw, as: UTF8.self) }
        #expect(raw?.trimmingCharacters(in: .whitespacesAndNewlines) == bad, "\(context)")
      }
      let reference = try framedRun(text)
      check(reference, "\(text)")
      for size in [1, 2, 3, 7, 16, 64] {
        for threads in [1, 2] {
          #expect(try framedRun(text, chunkSize: size, step: size, threads: threads) == reference, "size \(size)")
        }
      }
      check(try framedGzipRun(text, cutShortInputFails: true), "gzip \(text)")
    }
  }

  /// Over lines, a broken last element holding a `]` only its array could take (`{"a":1]`) kept it
  /// as damage of its own and the input failed as never closed; when nothing of the array follows
  /// the element — the input ends, or the wrapper's `}` starts the next line — that `]` was the array's.
  @Test(
    "Over lines, a broken last element whose ] only the array takes closes the array, on every chunk size",
    arguments: [
      ("[\n  R,\n  {\"a\":1]\n", #"{"a":1]"#, false), ("{\"items\":[\n  R,\n  {\"a\":1]\n}\n", #"{"a":1]"#, false),
      ("{\"transactions\": [\n    R,\n    {\"a\":1]\n  }", #"{"a":1]"#, false),
      ("[\n  R,\n  {\"a\":{\"b\":1]\n", #"{"a":{"b":1]"#, false),
      ("[\n  R,\n  {\"a\":{\"b\":1] \"c", #"{"a":{"b":1] "c"#, false),
      // Something of the array after the element: its `]` was damage, and the array is cut off.
      ("[\n  R,\n  {\"a\":1],\n", #"{"a":1]"#, true), ("{\"items\":[\n  R,\n  {\"a\":1]\n  x}", #"{"a":1]"#, true),
      // A `}` on the element's own line is the element's (stray), not the wrapper's.
      ("{\"items\":[\n  R,\n  {\"a\":1]}\n", #"{"a":1]"#, true),
      // A lost quote made the element's `}]` a string, broken at the line end.
      ("[\n  R,\n  {\"id\":\"1,\"x\":2}]\n", #"{"id":"1,"x":2}]"#, false),
      ("{\"items\":[\n  R,\n  {\"id\":\"1,\"x\":2}]\n}\n", #"{"id":"1,"x":2}]"#, false),
      ("{\"items\":[\n  R,\n  {\"id\":\"1,\"x\":2}],\"count\": 2\n}\n", #"{"id":"1,"x":2}],"count": 2"#, false),
      ("{\"transactions\":{\"booked\":[\n  R,\n  {\"id\":\"1,\"x\":2}]\n}}\n", #"{"id":"1,"x":2}]"#, false),
    ] as [(String, String, Bool)])
  func brokenLastElementTakesArrayEnd(shape: String, bad: String, cut: Bool) throws {
    let text = shape.replacingOccurrences(of: "R", with: backbaseRecord())
    let reference = try framedRun(text)
    #expect(reference.report.stats.accepted == 1, "\(shape): \(reference.rejected)")
    #expect(reference.rejected.first == "3:invalid-json", "\(shape): \(reference.rejected)")
    let raw = reference.rejections.first.map { String(decoding: $0.raw, as: UTF8.self) }
    #expect(raw?.trimmingCharacters(in: .whitespacesAndNewlines) == bad, "\(shape)")
    #expect(reference.rejections.contains { $0.clue == .cutShortDocument } == cut, "\(shape): \(reference.rejected)")
    if !cut { #expect(reference.rejected.count == 1, "\(shape): \(reference.rejected)") }
    for size in [1, 2, 3, 7, 16, 64] {
      for threads in [1, 2] {
        #expect(try framedRun(text, chunkSize: size, step: size, threads: threads) == reference, "size \(size)")
      }
    }
  }

  /// Over lines, a broken last element holding its array's `]` (`{"a":1]`) followed by the
  /// wrapper's next member (`,"count":4}`) kept the `]` as damage: the `,` was taken for the next
  /// element's, and the run failed as never closed (74). An element string is followed by `,` or
  /// `]`, never `:`; a `,`, a string and a `:` are the wrapper's next member, whose value is read as
  /// before (`,"pending":[…]` gives its records). A `,` then an element, or a cut, stays damage.
  @Test(
    "A broken last element then the wrapper's next member: the member is read, on every chunk size, thread count and gzip",
    arguments: [
      ("{\"transactions\":[\n  R,\n  {\"a\":1]\n  ,\"count\":4}\n", 1, ["3:invalid-json"], false),
      ("{\"transactions\":[\n  R,\n  {\"a\":1],\"count\":4\n}\n", 1, ["3:invalid-json"], false),
      ("{\"items\":[\n  R,\n  {\"a\":1]\n  , \"n\\u0061me\"\n  : {\"x\":[\"]\"]}\n}\n", 1, ["3:invalid-json"], false),
      (
        "{\"transactions\":{\"booked\":[\n  R,\n  {\"a\":1]\n  ,\"pending\":[\n  R\n]}}\n", 2, ["3:invalid-json"], false
      ),
      ("{\"items\":[\n  R,\n  {\"a\":1]\n  ,\"items\":[\n  R\n]}\n", 1, ["3:invalid-json", "5:invalid-json"], false),
      // A `,` then an element: the `]` was damage inside the element, and the array goes on.
      ("{\"items\":[\n  R,\n  {\"a\":1]\n  ,R]}\n", 2, ["3:invalid-json"], false),
      ("{\"items\":[\n  R,\n  {\"a\":1]\n  ,\"x\"]}\n", 1, ["3:invalid-json", "4:not-an-object"], false),
      // Cut after the key, or the wrapper never closed: cut off.
      (
        "{\"items\":[\n  R,\n  {\"a\":1]\n  ,\"count\"", 1, ["3:invalid-json", "4:not-an-object", "4:invalid-json"],
        true
      ),
      ("{\"items\":[\n  R,\n  {\"a\":1]\n  ,\"count\":4\n", 1, ["3:invalid-json", "5:invalid-json"], true),
      // A top-level array holds no member: `,"count":4` is damage, and the array is never closed.
      ("[\n  R,\n  {\"a\":1]\n  ,\"count\":4\n", 1, ["3:invalid-json", "4:invalid-json", "5:invalid-json"], true),
    ] as [(String, Int, [String], Bool)])
  func brokenLastElementBeforeWrapperMember(shape: String, accepted: Int, rejected: [String], cut: Bool) throws {
    let text = shape.replacingOccurrences(of: "R", with: backbaseRecord())
    let reference = try framedRun(text)
    #expect(reference.report.stats.accepted == accepted, "\(shape): \(reference.rejected)")
    #expect(reference.rejected == rejected, "\(shape)")
    let raw = reference.rejections.first.map { String(decoding: $0.raw, as: UTF8.self) }
    #expect(raw?.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"a":1]"#, "\(shape)")
    #expect(reference.rejections.contains { $0.clue == .cutShortDocument } == cut, "\(shape): \(reference.rejected)")
    for size in [1, 2, 3, 7, 16, 64] {
      for threads in [1, 2] {
        #expect(try framedRun(text, chunkSize: size, step: size, threads: threads) == reference, "size \(size)")
      }
    }
    #expect(try framedGzipRun(text, cutShortInputFails: false) == reference, "gzip \(shape)")
  }

  /// An array written comma-first (`[ {…}` then `, {…}` lines, as some exporters and hand-edited
  /// files write it): a broken element ran on to the array's end, since no line starts with the
  /// next element's `{`, and the elements after it were neither accepted nor rejected (4 elements,
  /// 2 lines counted). A `,` left of where the element started ends it.
  @Test(
    "Comma-first arrays: a broken element is rejected alone and the elements after it are read, on every chunk size",
    arguments: [
      (#"{"id":"1","description":Coffee","x":1}"#, #"{"id":"1","description":Coffee","x":1}"#),
      (#"{"id":"1,"x":2}"#, #"{"id":"1,"x":2}"#), (#"{"id":"1","x":"b}"#, #"{"id":"1","x":"b}"#),
      ("{bad", "{bad"), (#"{"a":[1,2}"#, #"{"a":[1,2}"#),
      // A lost `}`: the grammar takes the `,` as the record's own; the `{` after it ends the record.
      (#"{"id":"1","x":1"#, "{\"id\":\"1\",\"x\":1\n,"),
      // Cut where no `,` can come (after a key, a `:`, a `[` or an array's `,`): the `,` is no part
      // of the record, which ends before it; it used to swallow the element after it (3 lines).
      (#"{"id":"1","x""#, #"{"id":"1","x""#), (#"{"id":"1","x":"#, #"{"id":"1","x":"#),
      (#"{"id":"1","t":{"a""#, #"{"id":"1","t":{"a""#), (#"{"id":"1","x":["#, #"{"id":"1","x":["#),
      (#"{"id":"1","x":["a","#, #"{"id":"1","x":["a","#), (#"{"id":"1","#, #"{"id":"1","#),
    ] as [(String, String)])
  func commaFirstArray(bad: String, raw: String) throws {
    for shape in [
      "[ @R\n, @B\n, @R\n, @R\n]\n", "{\"items\":\n[ @R\n, @B\n, @R\n, @R\n]}\n", "[\n  @R\n, @B\n, @R\n, @R\n]\n",
    ] {
      let text = shape.replacingOccurrences(of: "@B", with: bad).replacingOccurrences(of: "@R", with: backbaseRecord())
      let reference = try framedRun(text)
      let line = shape.hasPrefix("[ ") ? 2 : 3
      #expect(reference.report.stats.accepted == 3, "\(text): \(reference.rejected)")
      #expect(reference.report.stats.lines == 4, "\(text)")
      #expect(reference.rejected == ["\(line):invalid-json"], "\(text)")
      let rejected = reference.rejections.first.map { String(decoding: $0.raw, as: UTF8.self) }
      #expect(rejected?.trimmingCharacters(in: .whitespacesAndNewlines) == raw, "\(text)")
      for size in [1, 2, 3, 7, 16, 64] {
        for threads in [1, 2] {
          #expect(try framedRun(text, chunkSize: size, step: size, threads: threads) == reference, "size \(size)")
        }
      }
      #expect(try framedGzipRun(text, cutShortInputFails: true) == reference, "gzip \(text)")
    }
  }

  @Test("A record whose own bracket starts a line left of it is read whole, not cut there")
  func recordBracketLeftOfItsStart() throws {
    let record = backbaseRecord(id: #""2""#, extra: "\"tags\":[1,\n2\n],\"n\":[\n],\"x\":1")
    let run = try framedRun("[\n    " + backbaseRecord() + ",\n    " + record + "\n]\n")
    #expect(run.rejected == [])
    #expect(run.report.stats.accepted == 2)
  }

  @Test("Backbase's trailing commas: rejected without the option, accepted with it")
  func trailingCommas() throws {
    let bytes = Fixtures.bytes("corpus-array-trailing-commas.json")
    let strict = try framedRun([(bytes, "t")])
    #expect(strict.rejected == ["2:invalid-json", "32:invalid-json"])
    #expect(strict.report.stats.accepted == 7)
    let lenient = try framedRun([(bytes, "t")]) { $0.read.allowTrailingCommas = true }
    #expect(lenient.rejections.isEmpty)
    #expect(lenient.report.sections == (try Self.reference).report.sections)
  }

  @Test(
    "Only a trailing comma before the array's ']' names allowTrailingCommas, which accepts it; ',,' and '[,' do not",
    arguments: [
      ("[R,]", [true], 0), ("[R, \n]", [true], 0), ("[R,,R]", [false], 1), ("[,R]", [false], 1),
      ("[R,,]", [false, true], 1),
    ])
  func emptyElements(shape: String, named: [Bool], leftWithFlag: Int) throws {
    let record =
      #"{"id":"1","creationTime":"2024-03-01","transactionAmountCurrency":{"amount":"1","currencyCode":"EUR"},"#
      + #""creditDebitIndicator":"DBIT","state":"COMPLETED"}"#
    let text = shape.replacingOccurrences(of: "R", with: record)
    let strict = try framedRun(text)
    // Each rejection names the flag exactly when the flag accepts what it rejected.
    #expect(strict.rejections.map { $0.detail.contains("allowTrailingCommas") } == named, "\(shape)")
    #expect(strict.rejections.map { $0.clue == .trailingComma } == named, "\(shape)")
    let lenient = try framedRun(text) { $0.read.allowTrailingCommas = true }
    #expect(lenient.rejections.count == leftWithFlag, "\(shape): \(lenient.rejections.map(\.detail))")
    #expect(!lenient.rejections.contains { $0.detail.contains("allowTrailingCommas") }, "\(shape)")
  }

  /// The corpus records as an array, one element per line when `pretty`,
  /// with where each element's text starts and ends.
  static func builtArray(pretty: Bool) -> (bytes: [UInt8], ends: [Int], starts: [Int]) {
    let records = String(decoding: Fixtures.bytes("corpus.jsonl"), as: UTF8.self)
      .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init)
    var bytes = Array((pretty ? "[\n  " : "[").utf8)
    var ends: [Int] = []
    var starts: [Int] = []
    for (index, record) in records.enumerated() {
      if index > 0 { bytes += Array((pretty ? ",\n  " : ",").utf8) }
      starts.append(bytes.count)
      bytes += Array(record.utf8)
      ends.append(bytes.count)
    }
    bytes += Array((pretty ? "\n]\n" : "]").utf8)
    return (bytes, ends, starts)
  }

  @Test("A document cut anywhere keeps the elements before the cut and reports the rest as one rejection")
  func truncatedAnywhere() throws {
    for pretty in [false, true] {
      let (bytes, ends, _) = Self.builtArray(pretty: pretty)
      let closed = bytes.lastIndex(of: .closeBracket).map { $0 + 1 } ?? bytes.count
      for cut in 1..<bytes.count {
        let run = try framedRun([(Array(bytes.prefix(cut)), "cut")], chunkSize: 17, step: 17)
        let complete = ends.filter { $0 <= cut }.count
        #expect(run.report.stats.accepted == complete, "cut \(cut)")
        #expect(run.report.stats.rejected == (cut < closed ? 1 : 0), "cut \(cut): \(run.rejected)")
        #expect(run.rejections.allSatisfy { $0.reason == .invalidJSON })
      }
    }
  }

  @Test("Deleting any one byte never loses more than the records around it, on any chunk size")
  func everyDeletion() throws {
    let (bytes, _, _) = Self.builtArray(pretty: true)
    // Deleting the opening bracket makes the input JSON lines (and every line a broken one).
    for position in bytes.indices.dropFirst() {
      var damaged = bytes
      damaged.remove(at: position)
      let reference = try framedRun([(damaged, "d")])
      let stats = reference.report.stats
      #expect(stats.lines == stats.accepted + stats.rejected)
      #expect(stats.accepted >= 7, "deleting byte \(position): \(reference.rejected)")
      for size in [1, 7] {
        let run = try framedRun([(damaged, "d")], chunkSize: size, step: size, threads: size == 1 ? 1 : 2)
        #expect(run == reference, "deleting byte \(position), chunk size \(size)")
      }
    }
  }

  @Test(
    "A stray structural byte inside an element loses that element only, on any chunk size",
    arguments: ["\"", "{", "}", "[", "]", ",", ":"])
  func everyInsertion(byte: String) throws {
    let (bytes, ends, starts) = Self.builtArray(pretty: true)
    for position in zip(starts, ends).flatMap({ ($0 + 1)..<$1 }) {
      var damaged = bytes
      damaged.insert(contentsOf: Array(byte.utf8), at: position)
      let reference = try framedRun([(damaged, "d")])
      let stats = reference.report.stats
      #expect(stats.accepted >= 7, "inserting at \(position): \(reference.rejected)")
      let run = try framedRun([(damaged, "d")], chunkSize: 7, step: 7, threads: 2)
      #expect(run == reference, "inserting at \(position), chunk size 7")
    }
  }

  @Test("Seeded random damage anywhere: never a crash, the same result on every chunk size and thread count")
  func randomDamage() throws {
    var random = SplitMix64(seed: 20_240_611)
    let sources = [Self.array, Fixtures.bytes("corpus-wrapped.json"), Fixtures.bytes("corpus-array-malformed.json")]
    let alphabet = Array("{}[]\",:\\ \n\t0123456789aefnrtu-.E".utf8) + [0x00, 0xFF, 0xC3]
    for round in 0..<150 {
      var damaged = sources[random.next(below: sources.count)]
      for _ in 0...random.next(below: 4) {
        let position = random.next(below: damaged.count + 1)
        switch random.next(below: 3) {
        case 0 where !damaged.isEmpty: damaged.remove(at: min(position, damaged.count - 1))
        case 1: damaged.insert(alphabet[random.next(below: alphabet.count)], at: position)
        default: damaged = Array(damaged.prefix(max(position, damaged.count - 40)))
        }
      }
      let trailing = random.next(below: 2) == 0
      let reference = try framedRun([(damaged, "r")]) { $0.read.allowTrailingCommas = trailing }
      let stats = reference.report.stats
      #expect(stats.lines == stats.accepted + stats.rejected)
      for size in [1, 13] {
        let run = try framedRun([(damaged, "r")], chunkSize: size, step: size, threads: size == 1 ? 1 : 3) {
          $0.read.allowTrailingCommas = trailing
        }
        #expect(run == reference, "round \(round), chunk size \(size)")
      }
    }
  }

  @Test(
    "Syntax errors between records are rejected on their own line",
    arguments: [
      // A missing comma: the second element is rejected, the first is not.
      (
        "[\n\(backbaseRecord(id: #""a""#))\n\(backbaseRecord(id: #""b""#)),\n\(backbaseRecord(id: #""c""#))]", 2,
        ["3:invalid-json"]
      ),
      // Empty elements.
      ("[,\(backbaseRecord()),,\(backbaseRecord())]", 2, ["1:invalid-json", "1:invalid-json"]),
      // Scalars are records that are not objects.
      ("[1, \"x\", null,\n \(backbaseRecord())]", 1, ["1:not-an-object", "1:not-an-object", "1:not-an-object"]),
      // Junk after the array, and a stray closer.
      ("[\(backbaseRecord())]\n]\n  tru", 1, ["2:invalid-json", "3:invalid-json"]),
      // A second array after the first is read too.
      ("[\(backbaseRecord())]\n[\(backbaseRecord())]", 2, []),
      // A string broken by a line end ends there: only its record is lost.
      ("[\n{\"id\":\"1\",\"description\":\"broken\n},\n\(backbaseRecord())\n]", 1, ["2:invalid-json"]),
      // A missing closing brace: the next element starts a new record.
      ("[\n{\"id\":\"x\",\"n\":{\"a\":1}\n,\n\(backbaseRecord())\n]", 1, ["2:invalid-json"]),
      // A mismatched closer.
      ("[\n{\"id\":\"x\",\"n\":[1}\n},\n\(backbaseRecord())\n]", 1, ["2:invalid-json"]),
    ] as [(String, Int, [String])])
  func syntaxErrors(text: String, accepted: Int, rejected: [String]) throws {
    let reference = try framedRun(text)
    #expect(reference.report.stats.accepted == accepted, "\(text)")
    #expect(reference.rejected == rejected, "\(text)")
    for size in [1, 3, 16] {
      #expect(try framedRun(text, chunkSize: size, step: size) == reference, "size \(size)")
    }
  }

  @Test("Elements larger than the limit are rejected wherever reads fall, keeping only their start")
  func oversized() throws {
    let long = backbaseRecord(description: "\"" + String(repeating: "x", count: 300) + "\"")
    let short = backbaseRecord()
    let text = "[\n" + [short, long, short, long, short].joined(separator: ",\n") + "\n]"
    for size in [1, 7, 64, 200, 1000, 1 << 20] {
      let run = try framedRun(text, chunkSize: size, step: size) { $0.read.limits.maxRecordBytes = 200 }
      #expect(run.report.stats.lines == 5, "size \(size)")
      #expect(run.report.stats.accepted == 3, "size \(size)")
      #expect(run.rejected == ["3:record-too-large", "5:record-too-large"], "size \(size)")
      #expect(run.rejections.allSatisfy { $0.raw.count <= 200 && $0.raw.first == .openBrace })
      #expect(run.rejections.first?.message.contains("\(long.utf8.count) bytes") == true)
    }
  }

  @Test("Nesting too deep is rejected, also far past the framer's typed stack, without recursion")
  func deepNesting() throws {
    for depth in [63, 64, 65, 300, 100_000] {
      let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let text = "[" + backbaseRecord(extra: #""x":\#(deep)"#) + ",\n" + backbaseRecord() + "]"
      let run = try framedRun(text, chunkSize: 997) { $0.read.limits.maxRecordBytes = 1 << 20 }
      #expect(run.report.stats.lines == 2, "depth \(depth)")
      #expect(run.report.stats.accepted == (depth < 64 ? 2 : 1), "depth \(depth)")
      #expect(run.rejections.allSatisfy { $0.reason == .nestingTooDeep }, "depth \(depth)")
    }
  }

  @Test("Line numbers are the physical lines where elements start, and elements are numbered")
  func linesAndPositions() throws {
    let swile =
      #"{"name":"A","type":"t","date":"2021-03-07T14:04:45.000+01:00","amount":{"value":-1,"currency":{"iso_3":"EUR"}}}"#
    let bad = #"{"name":"B","date":"2021-02-30","amount":{"value":-2,"currency":{"iso_3":"EUR"}}}"#
    let text = "\n\n[\n\n  \(swile),\n  \(bad),\n\n\n  \(swile), \(swile)\n]\n"
    let run = try framedRun(text, chunkSize: 5, step: 5) { $0.memberLimit = .max }
    #expect(run.report.stats.schema == "swile")
    #expect(run.rejected == ["6:invalid-timestamp"])
    let ids = run.report.sections.flatMap(\.groups).flatMap(\.transactions).map(\.id)
    #expect(ids.sorted() == ["1", "3", "4"])
  }
}
