import Foundation
import Testing

/// `--changed-only` (Guide, "Nightly runs"): with `--per-account` and a state, only the
/// accounts whose report changed tonight are written, for a nightly upsert.
@Suite("Changed only")
struct ChangedOnlyCommandTests {
  static let commands = ["group", "list", "summary"]

  /// `gen --count 20000 --accounts 300 --resend 0.3 --seed 7` cut into `count` nights of
  /// whole lines (as `split -n l/N` cuts it), in `directory`.
  static func nights(_ count: Int, in directory: URL) throws -> [String] {
    let dump = directory.appendingPathComponent("dump.jsonl").path
    let gen = try CLIRunner.run(
      ["gen", "--count", "20000", "--accounts", "300", "--resend", "0.3", "--seed", "7", "-o", dump])
    #expect(gen.status == 0, "\(gen.stderr)")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dump)))
    var paths: [String] = []
    var start = 0
    for index in 0..<count {
      var end = index == count - 1 ? bytes.count : bytes.count * (index + 1) / count
      while end < bytes.count && bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
      let path = directory.appendingPathComponent("night\(index + 1).jsonl").path
      try Data(bytes[start..<end]).write(to: URL(fileURLWithPath: path))
      paths.append(path)
      start = end
    }
    return paths
  }

  /// A per-account jsonl output as its lines by account (every line is one account).
  static func byAccount(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
    var accounts: [String: [UInt8]] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      let account = try #require(object["account"] as? String)
      #expect(accounts[account] == nil)
      accounts[account] = Array(line)
    }
    return accounts
  }

  /// The `--stats` document's object.
  static func stats(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  @Test(
    "night k's changed-only output is the full per-account output (--dedupe over nights 1…k) of the changed accounts, and no account whose report changed is left out",
    arguments: commands)
  func nightlyEqualsFull(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(4, in: directory)
    var lastFull: [String: [UInt8]] = [:]
    var previousState: String?
    for (index, night) in nights.enumerated() {
      let state = directory.appendingPathComponent("night\(index + 1).state").path
      let stats = directory.appendingPathComponent("night\(index + 1).stats.json").path
      let stateFlags = (previousState.map { ["--state-in", $0] } ?? []) + ["--state-out", state]
      let changed = try CLIRunner.run(
        [command, "--per-account", "--format", "jsonl", "--changed-only", "--stats", stats] + stateFlags + [night])
      #expect(changed.status == 0, "night \(index + 1): \(changed.stderr)")
      let full = try CLIRunner.run(
        [command, "--per-account", "--format", "jsonl", "--dedupe", "--quiet"] + Array(nights[0...index]))
      #expect(full.status == 0, "\(full.stderr)")
      let changedAccounts = try Self.byAccount(changed.stdout)
      let fullAccounts = try Self.byAccount(full.stdout)
      // Written: exactly the full run's lines of those accounts.
      for (account, line) in changedAccounts {
        #expect(fullAccounts[account] == line, "night \(index + 1), \(command): account \(account) differs")
      }
      // Never missed: every account whose line differs from last night's full output was written.
      let differing = fullAccounts.filter { lastFull[$0.key] != $0.value }.keys
      let missed = Set(differing).subtracting(changedAccounts.keys)
      #expect(missed.isEmpty, "night \(index + 1), \(command): changed but not written: \(missed.sorted().prefix(5))")
      if index > 0 {
        // With 30% re-sent, some accounts change and some do not.
        #expect(!changedAccounts.isEmpty && changedAccounts.count < fullAccounts.count, "night \(index + 1)")
      }
      let document = try Self.stats(stats)
      #expect(document["accounts"] as? Int == fullAccounts.count, "night \(index + 1), \(command)")
      #expect(document["changedAccounts"] as? Int == changedAccounts.count, "night \(index + 1), \(command)")
      #expect(
        changed.stderr.contains("\(changedAccounts.count) of \(fullAccounts.count) accounts changed"),
        "\(changed.stderr)")
      lastFull = fullAccounts
      previousState = state
    }
  }

  @Test("the same night folded twice changes no account", arguments: commands)
  func sameNightTwice(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let night = try Self.nights(3, in: directory)[1]
    let first = directory.appendingPathComponent("first.state").path
    let second = directory.appendingPathComponent("second.state").path
    let stats = directory.appendingPathComponent("stats.json").path
    let once = try CLIRunner.run(
      [command, "--per-account", "--format", "json", "--changed-only", "--quiet", "--state-out", first, night])
    #expect(once.status == 0, "\(once.stderr)")
    let twice = try CLIRunner.run(
      [
        command, "--per-account", "--format", "json", "--changed-only", "--quiet", "--stats", stats,
        "--state-in", first, "--state-out", second, night,
      ])
    #expect(twice.status == 0, "\(twice.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(twice.stdout)) as? [String: Any])
    #expect((document["accounts"] as? [Any])?.isEmpty == true, "\(twice.text.prefix(300))")
    let reported = try #require(document["stats"] as? [String: Any])
    let written = try Self.stats(stats)
    #expect(reported["changedAccounts"] as? Int == 0)
    #expect(written["changedAccounts"] as? Int == 0)
    #expect((reported["accounts"] as? Int ?? 0) > 100)
    #expect(reported["accounts"] as? Int == written["accounts"] as? Int)
  }

  /// A record of account `account` in the backbase schema.
  static func record(_ account: String, _ id: String, amount: String, state: String) -> String {
    #"{"arrangementId":"\#(account)","id":"\#(id)","transactionAmountCurrency":{"amount":"\#(amount)","#
      + #""currencyCode":"EUR"},"creditDebitIndicator":"DBIT","creationTime":"2026-11-02T10:00:00","state":"\#(state)"}"#
  }

  @Test("a re-sent identical record leaves its account unchanged; PENDING→COMPLETED changes it", arguments: commands)
  func resendAndCompletion(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let night1 = directory.appendingPathComponent("night1.jsonl")
    let night2 = directory.appendingPathComponent("night2.jsonl")
    let same = Self.record("SAME", "s1", amount: "10.00", state: "COMPLETED")
    try Data(
      ([same, Self.record("PEND", "p1", amount: "20.00", state: "PENDING")].joined(separator: "\n") + "\n").utf8
    )
    .write(to: night1)
    try Data(
      ([same, Self.record("PEND", "p1", amount: "20.00", state: "COMPLETED")].joined(separator: "\n") + "\n").utf8
    )
    .write(to: night2)
    let state1 = directory.appendingPathComponent("1.state").path
    let state2 = directory.appendingPathComponent("2.state").path
    let flags = [command, "--per-account", "--format", "jsonl", "--changed-only", "--quiet"]
    let first = try CLIRunner.run(flags + ["--state-out", state1, night1.path])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try Self.byAccount(first.stdout).keys.sorted() == ["PEND", "SAME"])
    let second = try CLIRunner.run(flags + ["--state-in", state1, "--state-out", state2, night2.path])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try Self.byAccount(second.stdout).keys.sorted() == ["PEND"])
  }

  @Test("without --per-account, without a state or with a selection: a usage error (64)", arguments: commands)
  func usage(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = CLIRunner.fixture("per-account.jsonl")
    let state = directory.appendingPathComponent("s.state").path
    let cases: [([String], String)] = [
      (["--changed-only", "--state-out", state], "--changed-only needs --per-account"),
      (["--changed-only", "--per-account"], "--changed-only needs --state-in/--state-out"),
      (
        ["--changed-only", "--per-account", "--state-out", state, "--since", "2023-01-01"],
        "cannot be used with a selection"
      ),
    ]
    for (flags, message) in cases {
      let run = try CLIRunner.run([command] + flags + [input])
      #expect(run.status == 64, "\(command) \(flags): \(run.stderr)")
      #expect(run.stderr.contains(message), "\(command) \(flags): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: state))
    }
  }

  @Test("the text report's accounting and a run without --changed-only")
  func accountingWords() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = CLIRunner.fixture("per-account.jsonl")
    let state = directory.appendingPathComponent("s.state").path
    let text = try CLIRunner.run(
      ["group", "--per-account", "--format", "text", "--changed-only", "--quiet", "--state-out", state, input])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.text.contains(" · changed "), "\(text.text.suffix(200))")
    // Without the flag nothing says changedAccounts.
    let stats = directory.appendingPathComponent("stats.json").path
    let plain = try CLIRunner.run(
      [
        "group", "--per-account", "--format", "json", "--quiet", "--stats", stats, "--state-in", state,
        "--state-out", directory.appendingPathComponent("t.state").path, input,
      ])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(!plain.text.contains("changedAccounts"))
    #expect(!(try String(contentsOfFile: stats, encoding: .utf8)).contains("changedAccounts"))
  }

  @Test("--dry-run: the run summary counts the changed accounts and does not say they were written")
  func dryRunSummary() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = CLIRunner.fixture("per-account.jsonl")
    let state = directory.appendingPathComponent("s.state").path
    let arguments = ["group", "--per-account", "--format", "jsonl", "--changed-only", "--state-out", state, input]
    let checked = try CLIRunner.run(arguments + ["--dry-run"])
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdout.isEmpty && !FileManager.default.fileExists(atPath: state))
    #expect(checked.stderr.contains("accounts changed tonight (--dry-run: none written)"), "\(checked.stderr)")
    #expect(!checked.stderr.contains("wrote those"), "\(checked.stderr)")
    let real = try CLIRunner.run(arguments)
    #expect(real.stderr.contains("accounts changed tonight (--changed-only wrote those)"), "\(real.stderr)")
  }

  @Test("a night that changed no account says so in text and html, not 'No transactions.'", arguments: commands)
  func noAccountChanged(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = CLIRunner.fixture("per-account.jsonl")
    let state = directory.appendingPathComponent("s.state").path
    let first = try CLIRunner.run([command, "--per-account", "--quiet", "--state-out", state, input])
    try #require(first.status == 0, "\(first.stderr)")
    for format in ["text", "html"] {
      let again = try CLIRunner.run(
        [command, "--per-account", "--format", format, "--changed-only", "--quiet", "--state-in", state, input])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.text.contains("No account changed tonight."), "\(format): \(again.text.suffix(300))")
      #expect(!again.text.contains("No transactions."), "\(format): \(again.text.suffix(300))")
    }
    guard command == "group" else { return }
    let pages = directory.appendingPathComponent("pages").path
    let index = try CLIRunner.run(
      [command, "--per-account", "--changed-only", "--quiet", "--state-in", state, "--output-dir", pages, input])
    #expect(index.status == 0, "\(index.stderr)")
    let page = try String(contentsOfFile: pages + "/index.html", encoding: .utf8)
    #expect(page.contains("No account changed tonight.") && !page.contains("No transactions."))
  }

  @Test("a failed --changed-only run's stats document has changedAccounts too, null as the other counts")
  func failedRunStats() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = CLIRunner.fixture("per-account.jsonl")
    let state = directory.appendingPathComponent("s.state").path
    let stats = directory.appendingPathComponent("stats.json").path
    let run = try CLIRunner.run([
      "group", "--per-account", "--changed-only", "--quiet", "--state-out", state, "--stats", stats,
      "--min-accepted", "1000", input,
    ])
    #expect(run.status == 65, "\(run.stderr)")
    let text = try String(contentsOfFile: stats, encoding: .utf8)
    #expect(text.hasSuffix(",\"accounts\":null,\"changedAccounts\":null}\n"), "\(text)")
  }
}
