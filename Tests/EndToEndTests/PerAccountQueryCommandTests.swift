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
      (["list", "--limit", "2", "--format", "html"], "per-account-list.html"),
      (["summary", "--format", "html"], "per-account-summary.html"),
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
    // Rows only: one line per account, no `{"stats":…}` line (the accounting is on standard error).
    #expect(!inMemory.text.contains(#"{"stats""#))
    #expect(inMemory.text.split(separator: "\n").allSatisfy { $0.hasPrefix(#"{"account":"#) })
    #expect(inMemory.stderr.contains("62 lines: 60 accepted, 2 rejected"), "\(inMemory.stderr)")
  }

  @Test(
    "usage errors exit 64 and say what to do",
    arguments: [
      (["list", "--per-account", "--schema", "ledger"], "map one with --field account=PATH"),
      (["summary", "--per-account", "--schema", "ledger"], "map one with --field account=PATH"),
      (["list", "--account-from-file"], "--account-from-file needs --per-account"),
      (["summary", "--account-from-file"], "--account-from-file needs --per-account"),
      (["summary", "--per-account", "--memory-limit", "0"], "--memory-limit must be a size of at least 1 byte"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(arguments + [Self.fixture])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test("--format html is one page, no longer a usage error", arguments: ["list", "summary"])
  func htmlIsAPage(command: String) throws {
    let outcome = try CLIRunner.run([command, "--per-account", "--format", "html", Self.fixture])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let page = outcome.text
    #expect(page.hasPrefix("<!DOCTYPE html>\n"))
    #expect(page.hasSuffix("</main>\n</body>\n</html>\n"))
    #expect(page.components(separatedBy: "<!DOCTYPE html>").count == 2)
    #expect(!page.contains("<script") && !page.contains("http:") && !page.contains("https:"))
    // The accounts in byte-wise order, each in its own section, the accounting at the end.
    // (An id is one token: a span that never wraps, whole in its tooltip.)
    let headings = page.components(separatedBy: "<h2 id=\"account-").dropFirst().map {
      $0.components(separatedBy: " <span class=\"count\">")[0]
    }
    #expect(
      headings
        == ["0", "1", "2", "3"].map {
          "\($0)\">Account <span class=\"id\" title=\"A000000000\($0)\">A000000000\($0)</span>"
        })
    #expect(page.contains("<div class=\"stat accounts\"><dt>Accounts</dt><dd>4</dd></div>"))
    // Ids stay unique on a page of many accounts.
    let ids = page.components(separatedBy: " id=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
    #expect(Set(ids).count == ids.count)
  }

  @Test(
    "--format html: each account's section is the html page of its records alone, and localised",
    arguments: ["list", "summary"])
  func htmlSectionsAreThePlainPages(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
    let c1 = directory.appendingPathComponent("C1.jsonl").path
    let c2 = directory.appendingPathComponent("C2.jsonl").path
    try Data((lines[0..<10].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: c1))
    try Data((lines[25..<40].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: c2))
    let options = ["--format", "html", "--locale", "fr"] + (command == "list" ? ["--limit", "4"] : [])
    let outcome = try CLIRunner.run([command, "--per-account", "--account-from-file"] + options + [c2, c1])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let page = outcome.text
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"fr\">"))
    let first = try #require(page.range(of: "Compte <span class=\"id\" title=\"C1\">C1</span> "))
    let second = try #require(page.range(of: "Compte <span class=\"id\" title=\"C2\">C2</span> "))
    #expect(first.lowerBound < second.lowerBound)
    for path in [c1, c2] {
      let alone = try CLIRunner.run([command] + options + [path])
      #expect(alone.status == 0, "\(alone.stderr)")
      // The table up to the end of what follows it (list: the sums; summary: its section).
      let start = try #require(alone.text.range(of: "<table class=\"rows"))
      let end = try #require(alone.text.range(of: "</section>\n", range: start.upperBound..<alone.text.endIndex))
      let body = String(alone.text[start.lowerBound..<end.upperBound])
      #expect(page.contains(body), "\(path)")
    }
  }

  @Test("--format html without accounts: a page that says so", arguments: ["list", "summary"])
  func htmlWithoutAccounts(command: String) throws {
    let outcome = try CLIRunner.run([
      command, "--per-account", "--format", "html", "--category", "No such category", Self.fixture,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let page = outcome.text
    #expect(!page.contains("<section class=\"account\""))
    #expect(page.contains("<p class=\"empty\">No transactions.</p>\n<section class=\"stats\""))
    #expect(page.contains("<div class=\"stat accounts\"><dt>Accounts</dt><dd>0</dd></div>"))
    #expect(page.hasSuffix("</main>\n</body>\n</html>\n"))
  }

  @Test("--format html escapes the account", arguments: ["group", "list", "summary"])
  func htmlEscapesTheAccount(command: String) throws {
    let record = """
      {"arrangementId":"<script>alert(1)</script> & co","id":"t1","description":"Rent","category":"Home",\
      "transactionAmountCurrency":{"amount":"12.50","currencyCode":"EUR"},"creditDebitIndicator":"DBIT",\
      "creationTime":"2024-05-01T10:00:00","state":"COMPLETED"}

      """
    let outcome = try CLIRunner.run([command, "--per-account", "--format", "html"], stdin: Array(record.utf8))
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"
    #expect(
      outcome.text.contains(
        ">Account <span class=\"id\" title=\"\(escaped)\">\(escaped)</span> <span class=\"count\">"))
    #expect(!outcome.text.contains("<script"))
    #expect(!outcome.text.contains("& co"))
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

  /// Accounts `café` (é as one scalar) and `café` (e and a combining accent) are equal as Swift
  /// `String`s but are two ids byte-wise: every format keeps them apart, as `group` does.
  @Test(
    "accounts that differ only in Unicode normalisation stay two accounts in every format",
    arguments: [
      ["list", "--format", "text"], ["list", "--format", "text", "--threads", "1"],
      ["list", "--format", "html"], ["summary", "--by", "category", "--format", "text", "--threads", "1"],
      ["list", "--format", "jsonl"], ["summary", "--by", "category", "--format", "jsonl"],
    ])
  func accountsAreBytes(arguments: [String]) throws {
    let rows = [("caf\u{E9}", "1"), ("cafe\u{301}", "2"), ("caf\u{E9}", "3"), ("cafe\u{301}", "4")].enumerated().map {
      index, pair in
      #"{"id":"\#(pair.1)","arrangementId":"\#(pair.0)","creationTime":"2019-05-1\#(index + 1)T10:00:00","#
        + #""transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","#
        + #""state":"COMPLETED","category":"Food"}"#
    }
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stats = directory.appendingPathComponent("stats.json")
    let outcome = try CLIRunner.run(
      arguments + ["--per-account", "--quiet", "--stats", stats.path],
      stdin: Array((rows.joined(separator: "\n") + "\n").utf8))
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = outcome.text
    if arguments.contains("jsonl") {
      #expect(report.split(separator: "\n").count == 2, "\(report)")
    } else {
      #expect(report.contains("2 transactions") && !report.contains("4 transactions"), "\(report)")
    }
    #expect(try String(contentsOf: stats, encoding: .utf8).contains(#""accounts":2"#))
  }

  /// `--limit 0` shows no rows, but each account still has its matching transactions: every
  /// format lists the accounts that jsonl lists (`Shown 0 of N`), and `--output-dir` writes
  /// their pages, as `stats.accounts` counts them.
  @Test(
    "list --per-account --limit 0 lists every matching account in every format",
    arguments: [["--format", "text"], ["--format", "html"], ["--format", "text", "--threads", "1"]])
  func limitZeroListsAccounts(arguments: [String]) throws {
    let rows = try CLIRunner.run(["list", "--per-account", "--limit", "0", "--format", "jsonl", Self.fixture])
    let accounts = rows.text.split(separator: "\n").count
    #expect(accounts == 4, "\(rows.text)")
    let outcome = try CLIRunner.run(["list", "--per-account", "--limit", "0", "--quiet"] + arguments + [Self.fixture])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let headings = outcome.text.components(separatedBy: "Account ").count - 1
    #expect(headings >= accounts, "\(outcome.text)")
    #expect(outcome.text.components(separatedBy: "Shown 0 of ").count - 1 == accounts, "\(outcome.text)")
  }

  @Test("list --per-account --limit 0 --output-dir writes every matching account's page")
  func limitZeroWritesPages() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run([
      "list", "--per-account", "--limit", "0", "--quiet", "--output-dir", pages.path, Self.fixture,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: pages.path)
    #expect(files.filter { !$0.hasPrefix("index") }.count == 4, "\(files)")
  }
}
