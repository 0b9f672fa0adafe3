import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// Inputs built to break a parser: each must end in a clean accept or reject, never a crash,
/// and in bounded memory.
@Suite("Hostile input")
struct HostileInputTests {
  static func run(_ bytes: [UInt8], maxRecordBytes: Int = 1 << 20, threads: Int = 1) throws -> (
    GroupReport, [RecordRejection]
  ) {
    var options = GroupOptions()
    options.read.limits.maxRecordBytes = maxRecordBytes
    options.threads = threads
    var rejections: [RecordRejection] = []
    let pipeline = GroupPipeline(options: options)
    pipeline.onRejection = { rejections.append($0) }
    let report = try pipeline.run(sources: [MemorySource(bytes, step: 1 << 16)])
    return (report, rejections)
  }

  static func reasons(_ lines: [String], threads: Int = 1) throws -> [RejectReason?] {
    // Every line ends in a newline: a last line without one that ends inside a value would be an
    // input cut off mid-write (`TruncatedInputTests`), not a rejected record.
    let (_, rejections) = try run(Array((lines.joined(separator: "\n") + "\n").utf8), threads: threads)
    var byLine: [Int: RejectReason] = [:]
    for rejection in rejections { byLine[rejection.line] = rejection.reason }
    return lines.indices.map { byLine[$0 + 1] }
  }

  @Test("Deep nesting is rejected without recursion", arguments: [65, 1000, 200_000])
  func deepNesting(depth: Int) throws {
    let open = String(repeating: "[", count: depth)
    let close = String(repeating: "]", count: depth)
    let lines = [
      "{\"x\":" + open + close + "}", open + close, "{\"x\":" + String(repeating: "{\"a\":", count: depth) + "1",
    ]
    #expect(try Self.reasons(lines) == [.nestingTooDeep, .nestingTooDeep, .nestingTooDeep])
  }

  @Test("A 100 MB single line is rejected as too large, and the next line still counts")
  func hugeLine() throws {
    var bytes = Array(#"{"description":""#.utf8)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: 100 << 20))
    bytes.append(contentsOf: Array("\"}\n".utf8))
    bytes.append(contentsOf: Array(backbaseRecord().utf8))
    let (report, rejections) = try Self.run(bytes)
    #expect(report.stats.lines == 2)
    #expect(report.stats.accepted == 1)
    #expect(rejections.map(\.reason) == [.recordTooLarge])
    #expect(rejections.first?.raw.count ?? 0 <= RejectionDescriber.rawLimit)
  }

  @Test("A gzip bomb streams through in bounded memory")
  func gzipBomb() throws {
    // 1 GiB of blank lines and then one record, compressed to about 1 MB.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-bomb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bomb.jsonl.gz").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(descriptor >= 0)
    let writer = try GzipFileWriter(fileDescriptor: descriptor, level: 9)
    let blank = [UInt8](repeating: UInt8(ascii: "\n"), count: 1 << 20)
    for _ in 0..<1024 { try writer.write(blank) }
    try writer.write(Array(backbaseRecord().utf8))
    try writer.finish()
    close(descriptor)
    let report = try GroupPipeline(options: GroupOptions()).run(paths: [path])
    #expect(report.stats.lines == 1)
    #expect(report.stats.accepted == 1)
    #expect(report.stats.bytesDecoded > 1 << 30)
  }

  @Test("A zstd bomb streams through in bounded memory")
  func zstdBomb() throws {
    // 1 GiB of blank lines and then one record, compressed by libzstd to a few dozen KB.
    let blank = [UInt8](repeating: UInt8(ascii: "\n"), count: 1 << 20)
    let compressed =
      try ZstdFrames.frame(repeating: blank, times: 1024)
      + ZstdFrames.frame(Array(backbaseRecord().utf8))
    #expect(compressed.count < 1 << 20)
    let report = try GroupPipeline(options: GroupOptions()).run(sources: [
      InputOpener.detectCompression(MemorySource(compressed))
    ])
    #expect(report.stats.lines == 1)
    #expect(report.stats.accepted == 1)
    #expect(report.stats.bytesDecoded > 1 << 30)
  }

  @Test("Invalid UTF-8, NUL bytes and control characters are rejected, not crashed on")
  func badBytes() throws {
    var lines: [[UInt8]] = []
    lines.append(Array(#"{"description":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8))
    lines.append(Array(#"{"description":"a"#.utf8) + [0x00] + Array(#"b"}"#.utf8))
    lines.append([0x00, 0x00, 0x00])
    lines.append(Array(backbaseRecord().utf8) + [0x00])
    let joined = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    let (report, rejections) = try Self.run(joined)
    #expect(report.stats.accepted == 0)
    #expect(rejections.map(\.reason) == [.invalidUTF8, .invalidJSON, .invalidJSON, .invalidJSON])
  }

  @Test("Numbers with 10,000 digits: out of range as an amount, valid JSON elsewhere")
  func longNumbers() throws {
    let digits = String(repeating: "7", count: 10_000)
    let lines = [
      backbaseRecord(amount: digits), backbaseRecord(amount: "\"" + digits + "\""),
      backbaseRecord(extra: "\"x\":" + digits), backbaseRecord(amount: "1e" + digits),
      backbaseRecord(amount: "0." + digits),
    ]
    #expect(
      try Self.reasons(lines) == [.amountOutOfRange, .amountOutOfRange, nil, .amountOutOfRange, .amountOutOfRange])
  }

  @Test("Broken escapes and lone surrogates")
  func escapes() throws {
    let lines = [
      backbaseRecord(description: #""\u12""#), backbaseRecord(description: #""\uZZZZ""#),
      backbaseRecord(description: #""\x41""#), backbaseRecord(description: #""\ud800""#),
      backbaseRecord(description: #""\udc00\ud800""#), backbaseRecord(description: #""\ud800\u0041""#),
      backbaseRecord(description: #""\ud83d\ude00""#), backbaseRecord(description: #""\""#),
    ]
    #expect(
      try Self.reasons(lines) == [
        .invalidJSON, .invalidJSON, .invalidJSON, .invalidUTF8, .invalidUTF8, .invalidUTF8, nil, .invalidJSON,
      ])
  }

  @Test("Duplicate keys: the last one wins, on every thread count", arguments: [1, 2])
  func duplicateKeys(threads: Int) throws {
    let record = backbaseRecord(state: #""PENDING""#, extra: #""state":"COMPLETED","state":"REVERSED""#)
    let (report, _) = try Self.run(Array(record.utf8), threads: threads)
    #expect(report.sections.map(\.state) == ["REVERSED"])
  }

  @Test("Random bytes never crash and always balance the books", arguments: [1, 2, 3])
  func randomBytes(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let alphabet = Array(#"{}[]",:\ 0123456789-.eEtrufalsn"#.utf8) + [0x0A, 0x0D, 0xC3, 0xA9, 0xFF, 0x00]
    var bytes = Array(backbaseRecord().utf8)
    for _ in 0..<200_000 {
      if random.next(below: 10) == 0 {
        bytes.append(contentsOf: Array(backbaseRecord().utf8))
      } else {
        bytes.append(alphabet[random.next(below: alphabet.count)])
      }
    }
    // The last line ends: random bytes cut off inside a value are `TruncatedInputTests`' subject.
    bytes.append(0x0A)
    for threads in [1, 2] {
      let (report, rejections) = try Self.run(bytes, maxRecordBytes: 512, threads: threads)
      #expect(report.stats.lines == report.stats.accepted + report.stats.rejected)
      #expect(rejections.count == report.stats.rejected)
    }
  }

  @Test("A file that grows while it is read is read to the end seen, without error")
  func growingFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-grow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("growing.jsonl").path
    let line = Array((backbaseRecord() + "\n").utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(Array(repeating: line, count: 1000).joined())))
    let appender = FileHandle(forWritingAtPath: path)
    let source = try FileSource.open(path: path)
    // Append more records after the file was opened and before it is read to the end.
    try appender?.seekToEnd()
    appender?.write(Data(Array(repeating: line, count: 500).joined()))
    try appender?.close()
    let report = try GroupPipeline(options: GroupOptions()).run(sources: [source])
    #expect(report.stats.lines == 1500)
    #expect(report.stats.accepted == 1500)
  }
}
