import Foundation
import Testing

/// An input cut off mid-write (Guide, "Running it nightly"): a JSON-lines file whose last line is unterminated and
/// not complete JSON, or an array or wrapper document never closed, is exit 74 naming the file and
/// line, on every command, plain or gzip; no report and no rejects file are written. A complete
/// last line without a final newline is fine.
@Suite("Truncated input")
struct TruncatedInputCommandTests {
  static let commands: [[String]] = [
    ["group"], ["list"], ["summary"], ["group", "--per-account"], ["group", "--emit", "partial"],
  ]

  /// `per-account.jsonl` (62 lines) cut 40 bytes into its 62nd line.
  static func cutLines() throws -> [UInt8] {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("per-account.jsonl"))))
    let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
    return Array(bytes.prefix(lineStarts[61] + 40))
  }

  static func write(_ bytes: [UInt8], to directory: URL, name: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// `bytes` as one complete gzip stream (`/usr/bin/gzip -c`).
  static func gzipped(_ bytes: [UInt8], in directory: URL) throws -> [UInt8] {
    let plain = try write(bytes, to: directory, name: "to-gzip")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    process.arguments = ["-c", "-n", plain]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(data)
  }

  /// Runs `command` on `input` with `-o` and `--rejects` over existing files: 74, the message, both untouched.
  static func expectTruncated(_ command: [String], input: String, message: String, in directory: URL) throws {
    let output = directory.appendingPathComponent("report.out").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    try Data("previous report\n".utf8).write(to: URL(fileURLWithPath: output))
    try Data("previous rejects\n".utf8).write(to: URL(fileURLWithPath: rejects))
    let outcome = try CLIRunner.run(command + ["-o", output, "--rejects", rejects, input])
    #expect(outcome.status == 74, "\(command): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous report\n", "\(command)")
    #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "previous rejects\n", "\(command)")
  }

  @Test("JSON lines cut inside the last record: 74 naming file and line, nothing written", arguments: commands)
  func cutLines(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.write(Self.cutLines(), to: directory, name: "cut.jsonl")
    try Self.expectTruncated(
      command, input: input, message: "Truncated input '\(input)': ends inside a record at line 62", in: directory)
  }

  @Test("a complete gzip stream of a cut dump: 74 likewise", arguments: commands)
  func cutInsideGzip(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.write(Self.gzipped(Self.cutLines(), in: directory), to: directory, name: "cut.jsonl.gz")
    try Self.expectTruncated(
      command, input: input, message: "Truncated input '\(input)': ends inside a record at line 62", in: directory)
  }

  @Test("a complete zstd stream of a cut dump: 74 likewise", arguments: commands)
  func cutInsideZstd(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let compressed = try #require(zstdCompressed(Self.cutLines()))
    let input = try Self.write(compressed, to: directory, name: "cut.jsonl.zst")
    try Self.expectTruncated(
      command, input: input, message: "Truncated input '\(input)': ends inside a record at line 62", in: directory)
  }

  @Test("a zstd stream cut short, or with a bad checksum: 74 naming the file, nothing written", arguments: commands)
  func damagedZstd(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("per-account.jsonl"))))
    let compressed = try #require(zstdCompressed(bytes))
    let cut = try Self.write(Array(compressed.dropLast(7)), to: directory, name: "cut.zst")
    try Self.expectTruncated(
      command, input: cut,
      message: "Truncated zstd stream in '\(cut)': the file ends before the compressed data does.", in: directory)
    var flipped = compressed
    flipped[flipped.count - 1] ^= 0xFF
    let bad = try Self.write(flipped, to: directory, name: "bad.zst")
    try Self.expectTruncated(
      command, input: bad, message: "Corrupt zstd stream in '\(bad)': Restored data doesn't match checksum.",
      in: directory)
  }

  @Test("standard input cut inside a record: 74 naming '-'")
  func cutStandardInput() throws {
    let outcome = try CLIRunner.run(["group", "--quiet"], stdin: try Self.cutLines())
    #expect(outcome.status == 74)
    #expect(outcome.stderr.contains("Truncated input '-': ends inside a record at line 62"), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test(
    "an array or wrapper document never closed: 74 naming file and line",
    arguments: [
      // Cut inside the third element: the record's line.
      ("[\n{\"a\":1},\n{\"b\":2},\n{\"id\":\"x\",\"amo", "ends inside a record at line 4"),
      // Cut between elements: the array is never closed.
      ("[\n{\"a\":1},\n{\"b\":2},\n", "ends inside a JSON document that is never closed, at line 4"),
      // A wrapper document whose array is not closed.
      ("{\"items\": [\n{\"a\":1}\n", "ends inside a JSON document that is never closed, at line 3"),
      // A wrapper document cut before its array of records.
      ("{\n  \"account\": {\"iban\": \"NL01", "ends inside a JSON document that is never closed, at line 2"),
      // A string broken at the line end, holding no `]`, then the end: cut off inside the record.
      ("[\n{\"a\":1},\n{\"tags\":[1],\"x\":\"oops\n", "ends inside a record at line 3"),
      // After a broken last element, the wrapper's next member begun and cut, or never closed.
      (
        "{\"items\": [\n{\"a\":1},\n{\"a\":1]\n,\"count\"",
        "ends inside a JSON document that is never closed, at line 4"
      ),
      (
        "{\"items\": [\n{\"a\":1},\n{\"a\":1]\n,\"count\":4\n",
        "ends inside a JSON document that is never closed, at line 5"
      ),
    ])
  func cutDocument(text: String, message: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.write(Array(text.utf8), to: directory, name: "cut.json")
    for command in [["group"], ["list"], ["summary"]] {
      try Self.expectTruncated(command, input: input, message: message, in: directory)
    }
  }

  /// Over lines, `{"a":1]` as the last element kept its `]` as damage of its own, the array stayed
  /// open and the run failed as cut off (74), as in a wrapper whose `}` came next; nothing of the
  /// array follows that element, so its `]` closed the array: one rejection, the report written.
  /// So too when the wrapper's next member follows (`,"count":4}`), which was exit 74 as well.
  @Test(
    "Over lines, a broken last element holding the array's ]: rejected alone, exit 0",
    arguments: [
      "[\n{R},\n{\"a\":1]\n", "{\"items\":[\n{R},\n{\"a\":1]\n}\n", "{\"items\": [\n    {R},\n    {\"a\":1]\n  }\n",
      "[\n  {R},\n  {\"a\":{\"b\":1]\n",
      // The wrapper's next member after the element, on a line of its own or the element's.
      "{\"transactions\":[\n{R},\n{\"a\":1]\n,\"count\":4}\n", "{\"transactions\":[\n{R},\n{\"a\":1],\"count\":4}\n",
      // A lost quote made the element's `}]` a string, which the line end broke.
      "[\n{R},\n{\"id\":\"1,\"x\":2}]\n", "{\"items\": [\n  {R},\n  {\"id\":\"1,\"x\":2}],\"count\": 2\n}\n",
    ])
  func brokenLastElementOverLines(shape: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let record = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
      .split(separator: "\n")[0]
    let text = shape.replacingOccurrences(of: "{R}", with: String(record))
    let input = try Self.write(Array(text.utf8), to: directory, name: "broken.json")
    let output = directory.appendingPathComponent("report.out").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let run = try CLIRunner.run(["group", "--quiet", "-o", output, "--rejects", rejects, input])
    #expect(run.status == 0, "\(shape): \(run.stderr)")
    let rejected = try String(contentsOfFile: rejects, encoding: .utf8)
    #expect(rejected.hasPrefix(#"{"file":"\#(input)","line":3,"reason":"invalid-json""#), "\(rejected)")
    #expect(rejected.split(separator: "\n").count == 1, "\(rejected)")
  }

  @Test("a complete last line without a final newline, and malformed middle lines, stay plain", arguments: commands)
  func completeLastLine(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.out").path
    if !command.contains("--per-account") {
      let fine = try CLIRunner.run(
        command + ["--quiet", "-o", output, CLIRunner.fixture("corpus-no-final-newline.jsonl")])
      #expect(fine.status == 0, "\(command): \(fine.stderr)")
    }
    let text = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
    let unterminated = try Self.write(Array(text.utf8.dropLast()), to: directory, name: "unterminated.jsonl")
    let whole = try CLIRunner.run(command + ["--quiet", "-o", output, unterminated])
    #expect(whole.status == 0, "\(command): \(whole.stderr)")
    // A cut line in the middle (followed by a newline) is one invalid-json reject, as before.
    let firstLine = text.split(separator: "\n")[0]
    let middle = try Self.write(
      Self.cutLines() + Array("\n\(firstLine)\n".utf8), to: directory, name: "middle.jsonl")
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let plain = try CLIRunner.run(command + ["--quiet", "-o", output, "--rejects", rejects, middle])
    #expect(plain.status == 0, "\(command): \(plain.stderr)")
    let rejected = try String(contentsOfFile: rejects, encoding: .utf8)
    #expect(rejected.contains("\"line\":62") && rejected.contains("invalid-json"), "\(rejected)")
  }
}
