import Foundation
import Testing

/// `txfold merge` refuses what would silently double counts: the same
/// non-empty input twice, however it comes in.
@Suite("txfold merge: the same input twice")
struct MergeRefusalTests {
  /// Writes the partial of `arguments` to `name` in `directory` and returns its path.
  static func partial(_ arguments: [String], named name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    let outcome = try CLIRunner.run(["group", "--quiet", "--emit", "partial", "-o", path] + arguments)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return path
  }

  @Test(
    "merge a a, cat a a | merge, a gzip or zstd copy of the input, and a merged partial with one of its inputs: exit 65"
  )
  func sameInputTwice() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let user = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    let first = try Self.partial([user], named: "a.partial", in: directory)
    let other = try Self.partial([CLIRunner.sample("user-10014-single-mixed.jsonl")], named: "b.partial", in: directory)
    // The same dump gzip-compressed is the same input: its fingerprint is taken after decompression.
    let gzipped = directory.appendingPathComponent("user.jsonl.gz").path
    try MergeCommandTests.write(Array(try Data(contentsOf: URL(fileURLWithPath: user))), to: gzipped, gzip: true)
    let fromGzip = try Self.partial([gzipped], named: "gz.partial", in: directory)
    // And zstd-compressed.
    let zstd = directory.appendingPathComponent("user.jsonl.zst").path
    try Data(try #require(zstdCompressed(Array(try Data(contentsOf: URL(fileURLWithPath: user)))))).write(
      to: URL(fileURLWithPath: zstd))
    let fromZstd = try Self.partial([zstd], named: "zst.partial", in: directory)
    let merged = directory.appendingPathComponent("merged.partial").path
    #expect(try CLIRunner.run(["merge", "--quiet", "--emit", "partial", "-o", merged, first, other]).status == 0)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: first)))
    let lineCount = bytes.filter { $0 == UInt8(ascii: "\n") }.count
    let cases: [([String], [UInt8]?, String)] = [
      ([first, first], nil, "the partial in '\(first)' (line 1) and the one in '\(first)' (line 1)"),
      (["-"], bytes + bytes, "the partial in '-' (line \(lineCount + 1)) and the one in '-' (line 1)"),
      ([first, fromGzip], nil, "the partial in '\(fromGzip)' (line 1) and the one in '\(first)' (line 1)"),
      ([fromZstd, first], nil, "the partial in '\(first)' (line 1) and the one in '\(fromZstd)' (line 1)"),
      ([merged, other], nil, "the partial in '\(other)' (line 1) and the one in '\(merged)' (line 1)"),
      ([first, merged], nil, "the partial in '\(merged)' (line 1) and the one in '\(first)' (line 1)"),
    ]
    for (arguments, stdin, message) in cases {
      let outcome = try CLIRunner.run(["merge", "--format", "json"] + arguments, stdin: stdin)
      #expect(outcome.status == 65, "\(arguments)")
      #expect(outcome.stdout.isEmpty, "\(arguments)")
      #expect(outcome.stderr.contains("The same input is merged twice: " + message), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("merging would count its records twice"), "\(outcome.stderr)")
    }
  }

  @Test("Empty partials merge, even the same one twice, with or without others")
  func emptyPartials() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let emptyDump = directory.appendingPathComponent("empty.jsonl").path
    try Data("\n  \n".utf8).write(to: URL(fileURLWithPath: emptyDump))
    let empty = try Self.partial([emptyDump], named: "empty.partial", in: directory)
    let fromStdin = try CLIRunner.run(["group", "--quiet", "--emit", "partial"], stdin: [])
    #expect(fromStdin.status == 0)
    let user = try Self.partial([CLIRunner.sample("user-10015-grouped-mixed.jsonl")], named: "u.partial", in: directory)
    let twice = try CLIRunner.run(
      ["merge", "--quiet", "--format", "json", empty, empty, "-"], stdin: fromStdin.stdout)
    #expect(twice.status == 0, "\(twice.stderr)")
    #expect(twice.text.contains(#""stats": {"lines":0,"#), "\(twice.text)")
    // jsonl holds only rows: no groups, an empty output.
    let twiceLines = try CLIRunner.run(
      ["merge", "--quiet", "--format", "jsonl", empty, empty, "-"], stdin: fromStdin.stdout)
    #expect(twiceLines.status == 0 && twiceLines.text.isEmpty, "\(twiceLines.text)")
    let withOthers = try CLIRunner.run(["merge", "--quiet", "--format", "json", empty, user, empty])
    let alone = try CLIRunner.run(["merge", "--quiet", "--format", "json", user])
    #expect(withOthers.status == 0, "\(withOthers.stderr)")
    #expect(withOthers.text == alone.text)
  }
}
