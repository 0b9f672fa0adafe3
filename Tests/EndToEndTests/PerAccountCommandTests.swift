import Foundation
import Testing

/// `txfold group --per-account` as a nightly job runs it: every format against a
/// reviewed golden file, the usage errors, spilling to a private directory that
/// is gone afterwards, and accounts taken from file names (arrays, JSON lines, gzip).
@Suite("group --per-account")
struct PerAccountCommandTests {
  /// 62 lines over 4 accounts (`txfold gen --count 60 --seed 5 --accounts 4`),
  /// plus one record without `arrangementId` (line 11) and one with it empty (line 21).
  static let fixture = CLIRunner.fixture("per-account.jsonl")

  @Test("every format against its golden file", arguments: ["jsonl", "json", "csv", "text"])
  func formats(format: String) throws {
    let outcome = try CLIRunner.run(["group", "--per-account", "--members", "2", "--format", format, Self.fixture])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "per-account.\(format)")
  }

  @Test("spilling changes nothing: the bytes of a tiny --memory-limit equal the in-memory run's")
  func spillGivesTheSameBytes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inMemory = try CLIRunner.run(["group", "--per-account", "--format", "jsonl", Self.fixture])
    for threads in ["1", "2", "4"] {
      let spilled = try CLIRunner.run([
        "group", "--per-account", "--format", "jsonl", "--memory-limit", "1K", "--threads",
        threads, "--temp-dir", directory.path, Self.fixture,
      ])
      #expect(spilled.status == 0, "\(spilled.stderr)")
      #expect(spilled.stdout == inMemory.stdout)
      #expect(spilled.stderr.contains("runs on disk (--memory-limit 1K)"), "\(spilled.stderr)")
      // The private spill directory is removed once the accounts are written.
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }

  @Test("records without an account are rejected missing-field, field 'account'")
  func missingAccount() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--format", "jsonl", "--rejects", rejects, Self.fixture,
    ])
    #expect(outcome.status == 0)
    let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    for (line, number) in zip(lines, [11, 21]) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["line"] as? Int == number)
      #expect(object["reason"] as? String == "missing-field")
      #expect(object["field"] as? String == "account")
    }
    #expect(outcome.text.hasSuffix(#"{"stats":{"lines":62,"accepted":60,"rejected":2,"duplicates":0,"accounts":4}}"# + "\n"))
  }

  @Test(
    "usage errors exit 64 and say what to do",
    arguments: [
      (["--schema", "ledger"], "map one with --field account=PATH"),
      (["--dedupe"], "--dedupe cannot be combined with --per-account"),
      (["--format", "html"], "not --format html"),
      (["--memory-limit", "0"], "--memory-limit must be a size of at least 1 byte"),
      (["--memory-limit", "lots"], "--memory-limit"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(["group", "--per-account"] + arguments + [Self.fixture])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test("--account-from-file needs --per-account and named inputs")
  func accountFromFileUsage() throws {
    let withoutPerAccount = try CLIRunner.run(["group", "--account-from-file", Self.fixture])
    #expect(withoutPerAccount.status == 64)
    #expect(withoutPerAccount.stderr.contains("--account-from-file needs --per-account"))
    let fromStandardInput = try CLIRunner.run(
      ["group", "--per-account", "--account-from-file"], stdin: Array("{}\n".utf8))
    #expect(fromStandardInput.status == 64)
    #expect(fromStandardInput.stderr.contains("standard input has no name"))
  }

  @Test("--account-from-file: one export per customer, as an array, JSON lines or gzip")
  func accountsFromFileNames() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
    // Three customers' exports: C1 a JSON array, C2 JSON lines, C3 gzip JSON lines.
    let parts = [Array(lines[0..<20]), Array(lines[25..<40]), Array(lines[40..<62])]
    let c1 = directory.appendingPathComponent("C1.json").path
    let c2 = directory.appendingPathComponent("C2.export.jsonl").path
    let c3 = directory.appendingPathComponent("C3.jsonl.gz").path
    try Data(("[\n" + parts[0].joined(separator: ",\n") + "\n]\n").utf8).write(to: URL(fileURLWithPath: c1))
    try Data((parts[1].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: c2))
    let plain = directory.appendingPathComponent("C3.jsonl")
    try Data((parts[2].joined(separator: "\n") + "\n").utf8).write(to: plain)
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-9", plain.path]
    try gzip.run()
    gzip.waitUntilExit()
    #expect(FileManager.default.fileExists(atPath: c3))

    // Listed out of order: the accounts still come in byte-wise order.
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--account-from-file", "--format", "json", "--members", "3", c3, c1, c2,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
    let accounts = try #require(report["accounts"] as? [[String: Any]])
    #expect(accounts.compactMap { $0["account"] as? String } == ["C1", "C2", "C3"])
    // Each account is exactly the whole report of its own file.
    for (account, path) in zip(accounts, [c1, c2, c3]) {
      let alone = try CLIRunner.run(["group", "--format", "json", "--members", "3", path])
      let whole = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout)) as? [String: Any])
      let sections = try JSONSerialization.data(withJSONObject: account["sections"] ?? [], options: .sortedKeys)
      let expected = try JSONSerialization.data(withJSONObject: whole["sections"] ?? [], options: .sortedKeys)
      #expect(sections == expected, "account \(account["account"] ?? "?")")
      let stats = try #require(whole["stats"] as? [String: Any])
      #expect(account["count"] as? Int == stats["accepted"] as? Int)
    }
  }
}
