import Foundation
import Testing

/// `txfold group --per-account --sorted-by-account`: the bytes of the
/// unsorted run, no temporary file, and the errors (usage 64; an account out
/// of order 65, with no report written).
@Suite("group --per-account --sorted-by-account")
struct SortedAccountCommandTests {
  /// A generated multi-account dump (with a few corporate accounts), and the same lines ordered by account.
  static func dumps(in directory: URL) throws -> (unsorted: String, sorted: String) {
    let generated = try CLIRunner.run(["gen", "--count", "3000", "--seed", "9", "--accounts", "40"])
    #expect(generated.status == 0)
    var lines = generated.stdout.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    func account(_ line: [UInt8]) -> [UInt8] {
      let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
      return Array(((object?["arrangementId"] as? String) ?? "").utf8)
    }
    let keyed = lines.map { (account($0), $0) }
    lines = keyed.enumerated().sorted {
      $0.element.0 == $1.element.0 ? $0.offset < $1.offset : $0.element.0.lexicographicallyPrecedes($1.element.0)
    }.map(\.element.1)
    let unsorted = directory.appendingPathComponent("dump.jsonl")
    let sorted = directory.appendingPathComponent("sorted.jsonl")
    try Data(generated.stdout).write(to: unsorted)
    try Data(Array(lines.joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]).write(to: sorted)
    return (unsorted.path, sorted.path)
  }

  @Test(
    "the unsorted run's bytes in every format, with any thread count and a tiny --memory-limit, and no temporary file")
  func sameBytes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (unsorted, sorted) = try Self.dumps(in: directory)
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    for format in ["jsonl", "json", "csv", "text", "html"] {
      let expected = try CLIRunner.run(["group", "--per-account", "--format", format, "--quiet", unsorted])
      #expect(expected.status == 0, "\(expected.stderr)")
      for threads in ["1", "4"] {
        let outcome = try CLIRunner.run([
          "group", "--per-account", "--sorted-by-account", "--format", format, "--threads", threads,
          "--memory-limit", "1K", "--temp-dir", temporary.path, sorted,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // An html page names its input: the same page but for the file's name.
        let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
        let got =
          format == "html"
          ? Array(outcome.text.replacingOccurrences(of: name(sorted), with: name(unsorted)).utf8) : outcome.stdout
        #expect(got == expected.stdout, "\(format), \(threads) threads")
        #expect(!outcome.stderr.contains("runs on disk"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
      }
    }
  }

  @Test(
    "usage errors: without --per-account, and with --emit partial",
    arguments: [
      ["group", "--sorted-by-account"], ["group", "--per-account", "--sorted-by-account", "--emit", "partial"],
    ])
  func usageErrors(arguments: [String]) throws {
    let outcome = try CLIRunner.run(arguments + [CLIRunner.fixture("per-account.jsonl")])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--sorted-by-account"), "\(outcome.stderr)")
  }

  @Test("an account out of order exits 65, names the input, the line and both ids, and leaves the output as it was")
  func outOfOrder() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (unsorted, _) = try Self.dumps(in: directory)
    let output = directory.appendingPathComponent("accounts.jsonl")
    try Data("yesterday's accounts\n".utf8).write(to: output)
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--sorted-by-account", "--format", "jsonl", "-o", output.path, unsorted,
    ])
    #expect(outcome.status == 65)
    #expect(outcome.stderr.contains("dump.jsonl, line "), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("comes after account '"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("drop --sorted-by-account"), "\(outcome.stderr)")
    #expect(try String(contentsOf: output, encoding: .utf8) == "yesterday's accounts\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "accounts.jsonl", "dump.jsonl", "sorted.jsonl",
      ])
  }
}
