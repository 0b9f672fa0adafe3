import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// `txfold group --emit partial` per shard, then `txfold merge`: the same bytes
/// as one `txfold group` over the whole dump.
@Suite("txfold merge, end to end")
struct MergeCommandTests {
  /// A generated dump with rejected and blank lines mixed in, as lines.
  static func dumpLines(count: Int, seed: UInt64) throws -> [String] {
    let generated = try CLIRunner.run(["gen", "--count", String(count), "--seed", String(seed)])
    #expect(generated.status == 0)
    var lines = generated.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    let bad = [
      #"{"id":"broken","#, "[1,2]", "",
      #"{"id":"t","creationTime":"2019-02-30T10:00:00","state":"PENDING","creditDebitIndicator":"CRDT","#
        + #""transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"}}"#, "   ",
      #"{"id":"m","state":"COMPLETED"}"#,
    ]
    for (offset, line) in bad.enumerated() {
      lines.insert(line, at: min(lines.count, (offset + 1) * lines.count / (bad.count + 1)))
    }
    return lines
  }

  /// Writes `lines` cut into `parts` contiguous shards; odd shards are gzip-compressed.
  static func writeShards(_ lines: [String], parts: Int, in directory: URL) throws -> [String] {
    var paths: [String] = []
    for part in 0..<parts {
      let slice = lines[(part * lines.count / parts)..<((part + 1) * lines.count / parts)]
      let bytes = Array(slice.map { $0 + "\n" }.joined().utf8)
      let path = directory.appendingPathComponent("shard-\(part).jsonl" + (part % 2 == 1 ? ".gz" : "")).path
      try write(bytes, to: path, gzip: part % 2 == 1)
      paths.append(path)
    }
    return paths
  }

  static func write(_ bytes: [UInt8], to path: String, gzip: Bool) throws {
    guard gzip else { return try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    let writer = try GzipFileWriter(fileDescriptor: handle.fileDescriptor, name: path)
    try writer.write(bytes)
    try writer.finish()
  }

  /// Runs `group --emit partial` on each shard (shard 2 through standard input) and saves the partials.
  static func partials(
    of shards: [String], options: [String] = [], in directory: URL
  ) throws -> [String] {
    try shards.enumerated().map { index, shard in
      let outcome: CLIRunner.Outcome
      if index == 2 {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: shard)))
        outcome = try CLIRunner.run(["group", "--quiet", "--emit", "partial"] + options, stdin: bytes)
      } else {
        outcome = try CLIRunner.run(["group", "--quiet", "--emit", "partial"] + options + [shard])
      }
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let path = directory.appendingPathComponent("part-\(index).jsonl").path
      try Data(outcome.stdout).write(to: URL(fileURLWithPath: path))
      return path
    }
  }

  static let variants: [[String]] = [
    ["--format", "text"], ["--format", "json"], ["--format", "jsonl"], ["--format", "csv"],
    ["--format", "text", "--locale", "de", "--color", "always"], ["--format", "csv", "--locale", "fr"],
  ]

  @Test("Merged shard partials equal one run over the whole dump, in every format and order", arguments: [1, 2, 3, 7])
  func mergeEqualsWhole(parts: Int) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try Self.dumpLines(count: 3000, seed: UInt64(parts))
    let dump = directory.appendingPathComponent("dump.jsonl").path
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: dump))
    var partials = try Self.partials(of: Self.writeShards(lines, parts: parts, in: directory), in: directory)
    // An empty shard (an empty Spark partition) gives a partial with no groups; it changes nothing.
    let empty = try CLIRunner.run(["group", "--quiet", "--emit", "partial"], stdin: [])
    let emptyPath = directory.appendingPathComponent("empty.jsonl").path
    try Data(empty.stdout).write(to: URL(fileURLWithPath: emptyPath))
    partials.append(emptyPath)

    var random = SplitMix64(seed: UInt64(parts) &* 7919)
    for variant in Self.variants {
      let whole = try CLIRunner.run(["group", "--quiet"] + variant + [dump])
      #expect(whole.status == 0, "\(whole.stderr)")
      random.shuffle(&partials)
      let merged = try CLIRunner.run(["merge", "--quiet"] + variant + partials)
      #expect(merged.status == 0, "\(merged.stderr)")
      #expect(
        merged.text == whole.text, "\(variant), order \(partials.map { URL(fileURLWithPath: $0).lastPathComponent })")
    }

    // Every line is accounted for: the stats add up to the whole run's.
    let whole = try CLIRunner.run(["group", "--format", "json", dump])
    let merged = try CLIRunner.run(["merge", "--format", "json"] + partials)
    let stats = #""stats": {"lines":3004,"accepted":3000,"rejected":4,"duplicates":0}"#
    #expect(whole.text.contains(stats))
    #expect(merged.text.contains(stats))
    #expect(merged.stderr.contains("merged \(parts + 1) partials"))
    #expect(
      merged.stderr.contains(
        "3004 lines: 3000 accepted, 4 rejected (invalid-json 1, invalid-timestamp 1, missing-field 1, not-an-object 1)"),
      "\(merged.stderr)")

    // The partials concatenated on standard input, one of them gzip- or zstd-compressed, read the same.
    var concatenated: [UInt8] = []
    for path in partials { concatenated += Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    let fromStdin = try CLIRunner.run(["merge", "--quiet", "--format", "json", "-"], stdin: concatenated)
    #expect(fromStdin.text == whole.text)
    let gzipped = directory.appendingPathComponent("part-0.jsonl.gz").path
    try Self.write(Array(try Data(contentsOf: URL(fileURLWithPath: partials[0]))), to: gzipped, gzip: true)
    let withGzip = try CLIRunner.run(["merge", "--quiet", "--format", "json", gzipped] + partials.dropFirst())
    #expect(withGzip.text == whole.text)
    // And one of them zstd-compressed.
    let zstd = directory.appendingPathComponent("part-0.partial.zst").path
    try Data(try #require(zstdCompressed(Array(try Data(contentsOf: URL(fileURLWithPath: partials[0])))))).write(
      to: URL(fileURLWithPath: zstd))
    let withZstd = try CLIRunner.run(["merge", "--quiet", "--format", "json", zstd] + partials.dropFirst())
    #expect(withZstd.text == whole.text, "\(withZstd.stderr)")
  }

  @Test("Partials merge as a tree: merge --emit partial, then merge the merged")
  func treeReduction() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try Self.dumpLines(count: 2000, seed: 11)
    let dump = directory.appendingPathComponent("dump.jsonl").path
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: dump))
    let options = ["--members", "3", "--timezone", "Europe/Amsterdam"]
    let partials = try Self.partials(
      of: Self.writeShards(lines, parts: 5, in: directory), options: options, in: directory)
    let left = directory.appendingPathComponent("left.jsonl").path
    let right = directory.appendingPathComponent("right.jsonl").path
    #expect(try CLIRunner.run(["merge", "--quiet", "--emit", "partial", "-o", left] + partials[0..<2]).status == 0)
    #expect(try CLIRunner.run(["merge", "--quiet", "--emit", "partial", "-o", right] + partials[2...]).status == 0)
    let whole = try CLIRunner.run(["group", "--quiet", "--format", "json"] + options + [dump])
    let merged = try CLIRunner.run(["merge", "--quiet", "--format", "json", right, left])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.text == whole.text)
    // A partial of the whole dump merged alone is the whole report, and one merge of all
    // partials re-emitted is the same state (bytes read aside, which are the shards').
    let single = try CLIRunner.run(["group", "--quiet", "--emit", "partial"] + options + [dump])
    let reemitted = try CLIRunner.run(["merge", "--quiet", "--emit", "partial"] + partials)
    let singleLines = single.text.split(separator: "\n")
    let reemittedLines = reemitted.text.split(separator: "\n")
    #expect(
      singleLines.dropFirst().dropLast() == reemittedLines.dropFirst().dropLast(),
      "groups and members are the same lines")
    // The headers differ only in the fingerprints: the whole dump's, or the five shards'.
    let settings = { (line: Substring) in line.prefix { $0 != "[" } }
    #expect(settings(try #require(singleLines.first)) == settings(try #require(reemittedLines.first)))
    #expect(singleLines.first?.components(separatedBy: #""xxh64""#).count == 2)
    #expect(reemittedLines.first?.components(separatedBy: #""xxh64""#).count == 6)
    let fromSingle = try CLIRunner.run(["merge", "--quiet", "--format", "json", "-"], stdin: single.stdout)
    #expect(fromSingle.text == whole.text)
  }

  @Test("The partial format of a sample user (golden file)")
  func golden() throws {
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--emit", "partial", CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 0)
    Snapshot.assertMatches(outcome.stdout, named: "user-10015-grouped-mixed.partial")
  }

  @Test("--output is atomic: written on success, untouched when the merge is refused")
  func atomicOutput() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sample = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    let part = directory.appendingPathComponent("a.jsonl").path
    let other = directory.appendingPathComponent("b.jsonl").path
    try Data(try CLIRunner.run(["group", "--quiet", "--emit", "partial", sample]).stdout)
      .write(to: URL(fileURLWithPath: part))
    try Data(try CLIRunner.run(["group", "--quiet", "--emit", "partial", "--members", "1", sample]).stdout)
      .write(to: URL(fileURLWithPath: other))
    let report = directory.appendingPathComponent("report.json").path
    let good = try CLIRunner.run(["merge", "--quiet", "--format", "json", "-o", report, part])
    #expect(good.status == 0)
    #expect(good.stdout.isEmpty)
    let expected = try CLIRunner.run(["group", "--quiet", "--format", "json", sample])
    #expect(try String(contentsOfFile: report, encoding: .utf8) == expected.text)
    let refused = directory.appendingPathComponent("refused.json").path
    let bad = try CLIRunner.run(["merge", "--format", "json", "-o", refused, part, other])
    #expect(bad.status == 65)
    #expect(!FileManager.default.fileExists(atPath: refused))
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == ["a.jsonl", "b.jsonl", "report.json"])
  }

  @Test(
    "Partials folded with other settings are refused, naming both files and the setting",
    arguments: [
      (["--members", "5"], "--members 5 in '", "but 20 in '"),
      (["--members", "all"], "--members all in '", "but 20 in '"),
      (["--timezone", "Europe/Amsterdam"], "--timezone Europe/Amsterdam in '", "but (none) in '"),
      (["--max-record-bytes", "64K"], "--max-record-bytes 65536 in '", "but 1048576 in '"),
      (["--allow-trailing-commas"], "--allow-trailing-commas on in '", "but off in '"),
    ])
  func mismatch(options: [String], theirs: String, ours: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sample = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    let first = directory.appendingPathComponent("first.jsonl").path
    let second = directory.appendingPathComponent("second.jsonl").path
    try Data(try CLIRunner.run(["group", "--quiet", "--emit", "partial", sample]).stdout)
      .write(to: URL(fileURLWithPath: first))
    try Data(try CLIRunner.run(["group", "--quiet", "--emit", "partial"] + options + [sample]).stdout)
      .write(to: URL(fileURLWithPath: second))
    let outcome = try CLIRunner.run(["merge", "--format", "json", first, second])
    #expect(outcome.status == 65)
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.contains("different settings"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains(theirs + second + "' (line 1)"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains(ours + first + "' (line 1)"), "\(outcome.stderr)")
  }

  /// A valid partial of a sample user (by default the one with many groups), as lines.
  static func sampleLines(_ user: String = "user-10015-grouped-mixed.jsonl") throws -> [String] {
    let outcome = try CLIRunner.run(["group", "--quiet", "--emit", "partial", CLIRunner.sample(user)])
    return outcome.text.split(separator: "\n").map(String.init)
  }

  @Test(
    "Broken partials exit 65 with the file, the line and the reason",
    arguments: [
      ("version", 1, "Unsupported partial state format version 4"),
      ("version 1", 1, "version 1 carries no fingerprint of its input, so a partial given twice could not be told"),
      ("version 2", 1, "version 2 carries no count per currency (csv's currencyCount); fold the shard again"),
      ("member", 3, "'amount' is not a non-negative decimal"),
      ("truncated", 0, "ends without its 'stats' line: the input is truncated"),
      ("report", 1, "not a TxFold partial state"),
    ])
  func broken(kind: String, line: Int, message: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var lines = try Self.sampleLines()
    switch kind {
    case "version": lines[0] = lines[0].replacingOccurrences(of: #""version":3"#, with: #""version":4"#)
    case "version 1": lines[0] = lines[0].replacingOccurrences(of: #""version":3"#, with: #""version":1"#)
    case "version 2": lines[0] = lines[0].replacingOccurrences(of: #""version":3"#, with: #""version":2"#)
    case "member": lines[2] = lines[2].replacingOccurrences(of: #""amount":""#, with: #""amount":"-"#)
    case "truncated": lines.removeLast()
    default:
      lines = try CLIRunner.run([
        "group", "--quiet", "--format", "jsonl", CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
      ]).text.split(separator: "\n").map(String.init)
    }
    let path = directory.appendingPathComponent("broken.jsonl").path
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    // Another user's partial: the same input twice would be refused before the broken line.
    let good = directory.appendingPathComponent("good.jsonl").path
    try Data(try Self.sampleLines("user-10014-single-mixed.jsonl").map { $0 + "\n" }.joined().utf8)
      .write(to: URL(fileURLWithPath: good))
    let outcome = try CLIRunner.run(["merge", "--format", "json", good, path])
    #expect(outcome.status == 65, "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("(\(path), line \(line == 0 ? lines.count : line))."), "\(outcome.stderr)")
  }

  @Test("Exit codes of merge, and --dedupe with --emit partial")
  func exitCodes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("good.jsonl").path
    try Data(try Self.sampleLines().map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: good))
    let truncated = directory.appendingPathComponent("truncated.jsonl.gz").path
    let other = try Self.sampleLines("user-10014-single-mixed.jsonl").map { $0 + "\n" }.joined()
    try Self.write(Array(other.utf8), to: truncated, gzip: true)
    let compressed = Array(try Data(contentsOf: URL(fileURLWithPath: truncated)))
    try Data(compressed.prefix(compressed.count - 12)).write(to: URL(fileURLWithPath: truncated))
    let cases: [([String], Int32, String)] = [
      (["merge", good, "/no/such/partial.jsonl"], 66, "/no/such/partial.jsonl"),
      (["merge", directory.path], 66, "directory"),
      (["merge", good, truncated], 74, "Truncated gzip stream in '\(truncated)'"),
      (["merge", "--format", "xml", good], 64, "--format"),
      (["merge", "--emit", "everything", good], 64, "--emit"),
      (["merge", "-", "-"], 64, "Standard input"),
      (["group", "--dedupe", "--emit", "partial", good], 64, "--dedupe cannot be combined with --emit partial"),
      (["group", "--emit", "partials", good], 64, "--emit must be report or partial"),
    ]
    for (arguments, status, message) in cases {
      let outcome = try CLIRunner.run(arguments)
      #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
      #expect(outcome.stdout.isEmpty, "\(arguments)")
    }
    let empty = try CLIRunner.run(["merge"], stdin: [])
    #expect(empty.status == 65)
    #expect(empty.stderr.contains("the input is empty"), "\(empty.stderr)")
  }
}
