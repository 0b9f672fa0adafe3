import Foundation
import Testing

/// `txfold list --per-account` and `txfold summary --per-account`: reviewed
/// golden files, the usage errors, spilling to a private directory that is
/// gone afterwards, and accounts taken from file names.
@Suite("list and summary --per-account")
struct PerAccountQueryCommandTests {
  static let fixture = PerAccountCommandTests.fixture

  @Test(
    "golden files",
    arguments: [
      (["list", "--limit", "2", "--format", "text"], "per-account-list.text"),
      (["list", "--limit", "2", "--format", "jsonl"], "per-account-list.jsonl"),
      (["summary", "--format", "text"], "per-account-summary.text"),
      (["summary", "--by", "month", "--format", "json"], "per-account-summary.json"),
    ] as [([String], String)])
  func goldenFiles(arguments: [String], name: String) throws {
    let outcome = try CLIRunner.run(arguments + ["--per-account", Self.fixture])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: name)
  }

  @Test("spilling changes nothing, and the private spill directory is gone", arguments: ["list", "summary"])
  func spillGivesTheSameBytes(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inMemory = try CLIRunner.run([command, "--per-account", "--format", "jsonl", Self.fixture])
    let spilled = try CLIRunner.run([
      command, "--per-account", "--format", "jsonl", "--memory-limit", "1K", "--temp-dir", directory.path,
      Self.fixture,
    ])
    #expect(spilled.status == 0, "\(spilled.stderr)")
    #expect(spilled.stdout == inMemory.stdout)
    #expect(spilled.stderr.contains("runs on disk (--memory-limit 1K)"), "\(spilled.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    #expect(
      inMemory.text.hasSuffix(#"{"stats":{"lines":62,"accepted":60,"rejected":2,"duplicates":0,"accounts":4}}"# + "\n"))
  }

  @Test(
    "usage errors exit 64 and say what to do",
    arguments: [
      (["list", "--per-account", "--schema", "ledger"], "map one with --field account=PATH"),
      (["summary", "--per-account", "--schema", "ledger"], "map one with --field account=PATH"),
      (["list", "--account-from-file"], "--account-from-file needs --per-account"),
      (["summary", "--account-from-file"], "--account-from-file needs --per-account"),
      (["list", "--per-account", "--dedupe"], "--dedupe cannot be combined with --per-account"),
      (["summary", "--per-account", "--dedupe"], "--dedupe cannot be combined with --per-account"),
      (["list", "--per-account", "--format", "html"], "not --format html"),
      (["summary", "--per-account", "--format", "html"], "not --format html"),
      (["summary", "--per-account", "--memory-limit", "0"], "--memory-limit must be a size of at least 1 byte"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(arguments + [Self.fixture])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test("--account-from-file needs named inputs", arguments: ["list", "summary"])
  func accountFromStandardInput(command: String) throws {
    let outcome = try CLIRunner.run([command, "--per-account", "--account-from-file"], stdin: Array("{}\n".utf8))
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("standard input has no name"))
  }

  @Test(
    "--account-from-file: each file's list and summary are those of the file alone", arguments: ["list", "summary"])
  func accountsFromFileNames(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
    let c1 = directory.appendingPathComponent("C1.json").path
    let c2 = directory.appendingPathComponent("C2.export.jsonl").path
    try Data(("[\n" + lines[0..<10].joined(separator: ",\n") + "\n]\n").utf8).write(to: URL(fileURLWithPath: c1))
    try Data((lines[25..<40].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: c2))
    let outcome = try CLIRunner.run(
      [
        command, "--per-account", "--account-from-file", "--format", "json", "--limit", "4", c2, c1,
      ].filter { command == "list" || ($0 != "--limit" && $0 != "4") })
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
    let accounts = try #require(report["accounts"] as? [[String: Any]])
    #expect(accounts.compactMap { $0["account"] as? String } == ["C1", "C2"])
    for (account, path) in zip(accounts, [c1, c2]) {
      let alone = try CLIRunner.run(
        [command, "--format", "json", "--limit", "4", path].filter {
          command == "list" || ($0 != "--limit" && $0 != "4")
        })
      let whole = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout)) as? [String: Any])
      for key in command == "list" ? ["transactions", "sum", "page"] : ["by", "entries", "totals"] {
        let mine = try JSONSerialization.data(
          withJSONObject: account[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
        let theirs = try JSONSerialization.data(
          withJSONObject: whole[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
        #expect(mine == theirs, "\(command) \(key) of \(account["account"] ?? "?")")
      }
    }
  }
}
