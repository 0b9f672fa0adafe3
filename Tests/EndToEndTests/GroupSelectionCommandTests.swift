import Foundation
import Testing

/// `group` takes `list`'s selection flags (one implementation): the report
/// counts exactly the transactions `list` selects with the same flags, the
/// stats say how many, per account too; `--emit partial` refuses them.
@Suite("group selection flags")
struct GroupSelectionCommandTests {

  /// The rows `list --format csv` writes with `flags`.
  static func listed(_ flags: [String], input: String) throws -> Int {
    let list = try CLIRunner.run(["list", "--format", "csv", "-q"] + flags + [input])
    #expect(list.status == 0, "\(list.stderr)")
    // CSV rows end in CRLF (RFC 4180): count line feeds, not characters.
    return list.stdout.split(separator: UInt8(ascii: "\n")).count - 1
  }

  @Test(
    "the report counts what list selects with the same flags",
    arguments: [
      ["--state", "pending"], ["--category", "Groceries", "--category", "Shopping"], ["--period", "2019-05"],
      ["--since", "2019-05-30", "--until", "2019-05-31"], ["--only-currency", "usd"],
      ["--state", "completed", "--only-currency", "EUR", "--category", "(none)", "--category", "Transfers"],
    ])
  func countsWhatListSelects(flags: [String]) throws {
    let input = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    let group = try CLIRunner.run(["group", "--format", "jsonl", "-q"] + flags + [input])
    #expect(group.status == 0, "\(group.stderr)")
    let lines = group.text.split(separator: "\n")
    var counted = 0
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["stats"] == nil)
      counted += object["count"] as? Int ?? 0
    }
    // The accounting is not in the jsonl (rows only): the json document carries it.
    let document = try CLIRunner.run(["group", "--format", "json", "-q"] + flags + [input])
    let stats = try #require(
      (try JSONSerialization.jsonObject(with: Data(document.text.utf8)) as? [String: Any])?["stats"]
        as? [String: Any])
    let expected = try Self.listed(flags, input: input)
    #expect(counted == expected, "\(flags)")
    #expect(stats["selected"] as? Int == expected)
    #expect(stats["accepted"] as? Int == 17)
  }

  @Test("--emit partial refuses a selection; a bad period is a usage error")
  func usage() throws {
    let input = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    let partial = try CLIRunner.run(["group", "--emit", "partial", "--state", "pending", input])
    #expect(partial.status == 64)
    #expect(partial.stderr.contains("--emit partial folds every accepted record"))
    let period = try CLIRunner.run(["group", "--period", "2019-13", input])
    #expect(period.status == 64)
    #expect(period.stderr.contains("--period must be a day, week, month, quarter or year"))
  }

  @Test("per account: each account's report counts its selected records")
  func perAccount() throws {
    let fixture = CLIRunner.fixture("per-account.jsonl")
    let group = try CLIRunner.run(["group", "--per-account", "--format", "jsonl", "-q", "--state", "PENDING", fixture])
    #expect(group.status == 0, "\(group.stderr)")
    let list = try CLIRunner.run(["list", "--per-account", "--format", "jsonl", "-q", "--state", "PENDING", fixture])
    #expect(list.status == 0, "\(list.stderr)")
    func counts(_ text: String) throws -> [String: Int] {
      var result: [String: Int] = [:]
      for line in text.split(separator: "\n") {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        result[object["account"] as? String ?? "?"] = object["count"] as? Int
      }
      return result
    }
    let groupCounts = try counts(group.text)
    #expect(!groupCounts.isEmpty)
    #expect(groupCounts == (try counts(list.text)).filter { $0.value > 0 })
  }

  /// The sample user's pending May, as a reviewed golden in every format and language:
  /// the stats show `selected` beside the other counts.
  @Test(
    "golden selected reports",
    arguments: [
      ("text", "en"), ("text", "fr"), ("text", "de"), ("text", "nl"), ("text", "es"), ("json", "en"),
      ("csv", "en"), ("html", "en"), ("html", "fr"),
    ])
  func golden(format: String, locale: String) throws {
    let outcome = try CLIRunner.run(
      [
        "group", "--quiet", "--color", "never", "--wide", "--format", format, "--locale", locale, "--state", "pending",
        "--period", "2019-05", CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let suffix = locale == "en" ? format : "\(locale).\(format)"
    Snapshot.assertMatches(outcome.stdout, named: "group-selected-pending-2019-05.\(suffix)")
  }
}

/// `TXFOLD_MAX_KERNEL` (a measuring aid: the AVX2 path on an AVX-512 CPU) never changes a byte.
@Suite("TXFOLD_MAX_KERNEL")
struct KernelCapCommandTests {
  @Test(
    "every capped kernel writes the report the CPU's best writes", arguments: ["portable", "sse2", "avx2", "avx512"])
  func sameReport(cap: String) throws {
    let input = CLIRunner.fixture("corpus.jsonl.gz")
    let best = try CLIRunner.run(["group", "--quiet", "--format", "json", "--members", "all", input])
    let capped = try CLIRunner.run(
      ["group", "--quiet", "--format", "json", "--members", "all", input], environment: ["TXFOLD_MAX_KERNEL": cap])
    #expect(best.status == 0 && capped.status == 0)
    #expect(capped.stdout == best.stdout)
  }
}
