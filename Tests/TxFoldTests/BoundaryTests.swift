import Foundation
import Testing

@testable import TxFold

/// Every chunk size and every split point gives the same report, plain, gzip and zstd.
@Suite("Chunk boundaries")
struct BoundaryTests {
  static func report(_ source: any ByteSource, chunkSize: Int, threads: Int = 1) throws -> GroupReport {
    var options = GroupOptions()
    options.read.limits.chunkSize = chunkSize
    options.threads = threads
    options.read.limits.maxRecordBytes = 4096
    return try GroupPipeline(options: options).run(sources: [source])
  }

  static let corpus = Fixtures.bytes("corpus.jsonl")

  static var reference: GroupReport {
    get throws { try report(MemorySource(corpus), chunkSize: 1 << 20) }
  }

  @Test("The reference report accounts for every line")
  func reference() throws {
    let report = try Self.reference
    #expect(report.stats.lines == 8)
    #expect(report.stats.accepted == 8)
    #expect(report.stats.rejected == 0)
    #expect(report.sections.map(\.state) == ["PENDING", "COMPLETED"])
  }

  @Test("Every chunk size from 1 byte up, plain")
  func everyChunkSizePlain() throws {
    let reference = try Self.reference
    for size in 1...(Self.corpus.count + 1) {
      let report = try Self.report(MemorySource(Self.corpus, step: size), chunkSize: size)
      #expect(report == reference, "chunk size \(size)")
      if report != reference { break }
    }
  }

  @Test("Every read split point, with reads of one size and chunks of another")
  func everySplitPoint() throws {
    let reference = try Self.reference
    for step in [1, 2, 3, 5, 7, 64, 100, 250] {
      for chunk in [1, 13, 97, 300, 4096] {
        let report = try Self.report(MemorySource(Self.corpus, step: step), chunkSize: chunk, threads: 2)
        #expect(report == reference, "step \(step), chunk \(chunk)")
      }
    }
  }

  @Test("Every chunk size through gzip")
  func everyChunkSizeGzip() throws {
    let reference = try Self.reference
    let compressed = Fixtures.bytes("corpus.jsonl.gz")
    for step in 1...(compressed.count + 1) {
      let source = try GzipSource(wrapping: MemorySource(compressed, step: step))
      let report = try Self.report(source, chunkSize: step)
      #expect(report.sections == reference.sections, "step \(step)")
      #expect(report.stats.lines == reference.stats.lines)
      #expect(report.stats.bytesDecoded == Int64(Self.corpus.count))
      #expect(report.stats.bytesRead == Int64(compressed.count))
      if report.sections != reference.sections { break }
    }
  }

  @Test("Every chunk size through zstd, one frame and several")
  func everyChunkSizeZstd() throws {
    let reference = try Self.reference
    for name in ["corpus.jsonl.zst", "corpus-multiframe.jsonl.zst"] {
      let compressed = Fixtures.bytes(name)
      #expect(!compressed.isEmpty)
      for step in 1...(compressed.count + 1) {
        let source = try InputOpener.detectCompression(MemorySource(compressed, step: step))
        #expect(source is ZstdSource)
        let report = try Self.report(source, chunkSize: step)
        #expect(report.sections == reference.sections, "\(name), step \(step)")
        #expect(report.stats.lines == reference.stats.lines)
        #expect(report.stats.bytesDecoded == Int64(Self.corpus.count))
        #expect(report.stats.bytesRead == Int64(compressed.count))
        if report.sections != reference.sections { break }
      }
    }
  }

  @Test(
    "Every committed variant gives the reference report",
    arguments: [
      "corpus.jsonl", "corpus.jsonl.gz", "corpus-multimember.jsonl.gz", "corpus-crlf.jsonl",
      "corpus-no-final-newline.jsonl", "corpus-bom.jsonl", "corpus-plain-named.jsonl.gz",
      "corpus.jsonl.zst", "corpus-multiframe.jsonl.zst",
    ])
  func variants(name: String) throws {
    var reference = try Self.reference
    for threads in [1, 2, 4] {
      var options = GroupOptions()
      options.threads = threads
      options.read.limits.chunkSize = 100
      var report = try GroupPipeline(options: options).run(paths: [Fixtures.path(name)])
      // Byte counts differ between variants; the rest must not.
      report.stats.bytesRead = 0
      report.stats.bytesDecoded = 0
      reference.stats.bytesRead = 0
      reference.stats.bytesDecoded = 0
      #expect(report == reference, "\(name), \(threads) threads")
    }
  }

  @Test("A malformed line is rejected with its line number and the rest goes on")
  func malformed() throws {
    var rejections: [RecordRejection] = []
    let pipeline = GroupPipeline(options: GroupOptions())
    pipeline.onRejection = { rejections.append($0) }
    let report = try pipeline.run(paths: [Fixtures.path("corpus-one-malformed.jsonl")])
    #expect(report.stats.lines == 9)
    #expect(report.stats.accepted == 8)
    #expect(report.stats.rejected == 1)
    #expect(rejections.map(\.line) == [5])
    #expect(rejections.map(\.reason) == [.invalidJSON])
    #expect(report.sections == (try Self.reference).sections)
  }

  @Test(
    "Damaged gzip or zstd is an error, never a shorter report",
    arguments: [
      "corpus-truncated.jsonl.gz", "corpus-bad-crc.jsonl.gz", "corpus-truncated.jsonl.zst",
      "corpus-bad-checksum.jsonl.zst",
    ])
  func damagedGzip(name: String) {
    #expect(throws: PipelineError.self) { try GroupPipeline(options: GroupOptions()).run(paths: [Fixtures.path(name)]) }
  }

  @Test("Oversized lines are rejected wherever the chunk boundaries fall, in bounded memory")
  func oversized() throws {
    let long = backbaseRecord(description: "\"" + String(repeating: "x", count: 300) + "\"")
    let short = backbaseRecord()
    let text = Array([short, long, short, long + "   ", short].joined(separator: "\n").utf8)
    for step in [1, 7, 64, 200, 1000] {
      var options = GroupOptions()
      options.read.limits.maxRecordBytes = 200
      options.read.limits.chunkSize = step
      var rejections: [RecordRejection] = []
      let pipeline = GroupPipeline(options: options)
      pipeline.onRejection = { rejections.append($0) }
      let report = try pipeline.run(sources: [MemorySource(text, step: step)])
      #expect(report.stats.lines == 5, "step \(step)")
      #expect(report.stats.accepted == 3, "step \(step)")
      #expect(rejections.map(\.line) == [2, 4], "step \(step)")
      #expect(rejections.allSatisfy { $0.reason == .recordTooLarge })
      #expect(rejections.allSatisfy { $0.raw.count <= RejectionDescriber.rawLimit })
    }
  }

  @Test("The line end does not count toward --max-record-bytes: LF or CRLF, wherever the chunks end")
  func limitLeavesOutTheLineEnd() throws {
    let record = backbaseRecord()
    let limit = record.utf8.count
    let longer = backbaseRecord(description: #""Coffee!""#)
    #expect(longer.utf8.count == limit + 1)
    for lineEnd in ["\n", "\r\n"] {
      let text = Array(([record, longer, record].joined(separator: lineEnd) + lineEnd).utf8)
      for step in [1, 2, 7, 64, limit - 1, limit, limit + 1, limit + 2, 1000] {
        var options = GroupOptions()
        options.read.limits.maxRecordBytes = limit
        options.read.limits.chunkSize = step
        var rejections: [RecordRejection] = []
        let pipeline = GroupPipeline(options: options)
        pipeline.onRejection = { rejections.append($0) }
        let report = try pipeline.run(sources: [MemorySource(text, step: step)])
        let label = "\(lineEnd.debugDescription), step \(step)"
        #expect(report.stats.accepted == 2, "\(label)")
        #expect(rejections.map(\.line) == [2], "\(label)")
        let message = "Record of \(limit + 1) bytes is larger than the limit of \(limit) bytes"
        #expect(rejections.allSatisfy { $0.message.hasPrefix(message) }, "\(label): \(rejections.map(\.message))")
      }
    }
  }

  /// Exports that each begin with a byte-order mark, concatenated (`cat`, gzip members, zstd
  /// frames), carry one to the start of a later line; it used to reject that line's record.
  @Test("A byte-order mark starting a line is skipped as at the input's start, wherever the chunks end")
  func byteOrderMarkAtLineStarts() throws {
    let bom = "\u{FEFF}"
    let lines = [
      bom + backbaseRecord(id: #""1""#), bom + backbaseRecord(id: #""2""#), bom, "",
      bom + backbaseRecord(id: #""3""#) + "\r", " " + bom + backbaseRecord(id: #""4""#), bom + bom + "{}",
      bom + backbaseRecord(id: #""5""#),
    ]
    let text = Array(lines.joined(separator: "\n").utf8)
    for run in try Self.groupedAtEveryStep(text) {
      #expect(run.ids == ["1", "2", "3", "5"], "step \(run.step)")
      // A mark after a blank, or a second one, is no line start's mark: those lines are rejected.
      #expect(run.rejected == [6, 7], "step \(run.step)")
      // The line of a mark alone is blank.
      #expect(run.lines == 6, "step \(run.step)")
    }
  }

  /// `input` grouped in chunks of 1 MiB, 1, 2, 7 and 64 bytes on 1 to 3 threads, read in steps of
  /// the chunk's size: each run's transaction ids (sorted), rejected lines and counted lines.
  static func groupedAtEveryStep(
    _ input: [UInt8], itemsPath: [String]? = nil
  ) throws -> [(step: Int, ids: [String], rejected: [Int], lines: Int)] {
    try [(1 << 20, 1), (1, 1), (2, 2), (7, 1), (64, 3)].map { step, threads in
      var options = GroupOptions()
      options.read.itemsPath = itemsPath
      options.threads = threads
      options.read.limits.chunkSize = step
      var rejected: [Int] = []
      let pipeline = GroupPipeline(options: options)
      pipeline.onRejection = { rejected.append($0.line) }
      let report = try pipeline.run(sources: [MemorySource(input, step: step)])
      let ids = report.sections.flatMap { $0.groups.flatMap { $0.transactions.map(\.id) } }.sorted()
      return (step, ids, rejected, report.stats.lines)
    }
  }

  /// Arrays or wrapper documents concatenated into one file (`cat` of exports that each begin
  /// with a byte-order mark) carry a mark between documents; it used to cost one rejection.
  @Test("A byte-order mark between JSON documents is skipped, wherever the chunks end")
  func byteOrderMarkBetweenDocuments() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    let arrays =
      bytes("[" + backbaseRecord(id: #""1""#) + "]\n") + bom + bytes("[" + backbaseRecord(id: #""2""#) + "]")
      + bom + bytes(" [" + backbaseRecord(id: #""3""#) + "]\n") + bom + bom + bytes("\n")
      // Two bytes of a mark and then no third: a stray byte between documents, rejected alone.
      + bom.prefix(2) + bytes("[" + backbaseRecord(id: #""4""#) + "]\n")
    let wrappers =
      bytes(#"{"items":["# + backbaseRecord(id: #""5""#) + "]}\n") + bom
      + bytes(#"{"items":["# + backbaseRecord(id: #""6""#) + "]}") + bom.prefix(1)
    for (input, expected, rejectedLines) in [(arrays, ["1", "2", "3", "4"], [4]), (wrappers, ["5", "6"], [2])] {
      for run in try Self.groupedAtEveryStep(input, itemsPath: input == wrappers ? ["items"] : nil) {
        #expect(run.ids == expected, "step \(run.step)")
        #expect(run.rejected == rejectedLines, "step \(run.step)")
      }
    }
  }

  @Test("Line numbers count blank lines and continue across files")
  func lineNumbers() throws {
    let bad = "{bad"
    // The last bad line ends in a newline: without one, `{bad` would be an input cut inside a record.
    let first = Array((["", bad, "  ", backbaseRecord(), bad].joined(separator: "\n") + "\n").utf8)
    let second = Array([bad, backbaseRecord()].joined(separator: "\r\n").utf8)
    for threads in [1, 2] {
      var options = GroupOptions()
      options.threads = threads
      options.read.limits.chunkSize = 3
      var seen: [String] = []
      let pipeline = GroupPipeline(options: options)
      pipeline.onRejection = { seen.append("\($0.file):\($0.line)") }
      let report = try pipeline.run(sources: [MemorySource(first, name: "a"), MemorySource(second, name: "b")])
      #expect(seen == ["a:2", "a:5", "b:1"])
      #expect(report.stats.lines == 5)
    }
  }

  /// An input that ends on a newline, or holds nothing, leaves its framer with a
  /// chunk it never hands over; that chunk must go back to the workers' pool, or
  /// the pool (2 × workers + 2 chunks) runs dry and the run waits forever.
  @Test("Many small inputs with several workers: every chunk returns to the pool", .timeLimit(.minutes(1)))
  func manySmallInputs() throws {
    let inputs: [[UInt8]] = (0..<40).map { index in
      switch index % 4 {
      case 0: Array((backbaseRecord() + "\n").utf8)
      case 1: []
      case 2: Array("[\(backbaseRecord())]\n".utf8)
      default: Array((backbaseRecord() + "\n\n" + backbaseRecord()).utf8)
      }
    }
    for threads in [2, 3] {
      var options = GroupOptions()
      options.threads = threads
      let report = try GroupPipeline(options: options).run(
        sources: inputs.enumerated().map { MemorySource($0.element, name: "in-\($0.offset)") })
      #expect(report.stats.accepted == 40)
    }
  }
}
