import Foundation
import Testing

/// `--since`, `--until` and `--period` take a day, ISO week, month, quarter or year (`2024-05-17`, `2024-W20`,
/// `2024-05`, `2024-Q2`, `2024`): a shorthand for the first or last day, checked here against
/// the same run written with whole days.
@Suite("Period shorthands") struct PeriodSelectionTests {
  /// A generated dump over 2023–2024, shared by the comparisons.
  static let dump: [UInt8] = {
    (try? CLIRunner.run(["gen", "--count", "6000", "--seed", "4"]).stdout) ?? []
  }()

  static func run(_ command: String, _ arguments: [String]) throws -> CLIRunner.Outcome {
    try CLIRunner.run([command, "--quiet", "--format", "json"] + arguments, stdin: dump)
  }

  @Test(
    "A shorthand selects what its days select",
    arguments: [
      (["--since", "2024-01"], ["--since", "2024-01-01"]),
      (["--until", "2024-02"], ["--until", "2024-02-29"]),
      (["--until", "2023-02"], ["--until", "2023-02-28"]),
      (["--since", "2024-Q2"], ["--since", "2024-04-01"]),
      (["--until", "2023-Q4"], ["--until", "2023-12-31"]),
      (["--until", "2023"], ["--until", "2023-12-31"]),
      (["--period", "2024-Q1"], ["--since", "2024-01-01", "--until", "2024-03-31"]),
      (["--period", "2023-11"], ["--since", "2023-11-01", "--until", "2023-11-30"]),
      (["--period", "2024"], ["--since", "2024-01-01", "--until", "2024-12-31"]),
      (["--period", "2024-03-05"], ["--since", "2024-03-05", "--until", "2024-03-05"]),
      // ISO weeks, as `summary --by week` prints them: week 1 holds the year's first Thursday.
      (["--period", "2024-W01"], ["--since", "2024-01-01", "--until", "2024-01-07"]),
      (["--period", "2023-W52"], ["--since", "2023-12-25", "--until", "2023-12-31"]),
      (["--since", "2024-w10"], ["--since", "2024-03-04"]),
      (["--until", "2023-W10"], ["--until", "2023-03-12"]),
    ])
  func sameAsDays(shorthand: [String], days: [String]) throws {
    #expect(!Self.dump.isEmpty)
    for command in ["summary", "list"] {
      let short = try Self.run(command, shorthand)
      let long = try Self.run(command, days)
      #expect(short.status == 0, "\(command) \(shorthand): \(short.stderr)")
      #expect(short.stdout == long.stdout, "\(command) \(shorthand)")
    }
    // Not a vacuous comparison: the selection leaves some transactions out.
    let all = try Self.run("summary", [])
    #expect(try Self.run("summary", days).stdout != all.stdout)
  }

  @Test(
    "A period that is not one is a usage error naming the option",
    arguments: [
      "2024-13", "2024-00", "2024-Q0", "2024-Q5", "0000", "24", "2024-1", "2024-02-30", "May", "2024-W00", "2024-W53",
      "2024-W5", "0001-W00",
    ])
  func refused(text: String) throws {
    for option in ["--since", "--until", "--period"] {
      let outcome = try CLIRunner.run(["summary", option, text, "-"], stdin: [])
      #expect(outcome.status == 64)
      #expect(outcome.stderr.contains("\(option) must be a day, week, month, quarter or year"), "\(outcome.stderr)")
    }
  }

  @Test("A week 53 is one where the year has it; the week of a summary key selects that key's transactions")
  func weeks() throws {
    // 2020 and 2026 have 53 ISO weeks (their week 53 ends in January of the next year); 2024 has 52.
    #expect(try CLIRunner.run(["summary", "--period", "2020-W53", "-"], stdin: []).status != 64)
    #expect(try CLIRunner.run(["summary", "--period", "2026-W53", "-"], stdin: []).status != 64)
    let week53 = try Self.run("list", ["--period", "2020-W53"])
    let days = try Self.run("list", ["--since", "2020-12-28", "--until", "2021-01-03"])
    #expect(week53.stdout == days.stdout)
    // A key `summary --by week` prints is a period `--period` takes, with the same count.
    let summary = try CLIRunner.run(["summary", "--quiet", "--by", "week", "--format", "csv"], stdin: Self.dump)
    // csv ends its rows with CRLF, one Character in Swift: split on either.
    let csv = String(decoding: summary.stdout, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
    let key = try #require(csv.first.map { String($0.prefix(8)) }, "\(summary.stderr)")
    let count = csv.filter { $0.hasPrefix(key + ",") }.compactMap { Int($0.split(separator: ",")[2]) }.reduce(0, +)
    let list = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", "--period", key], stdin: Self.dump)
    #expect(list.status == 0, "\(key): \(list.stderr)")
    #expect(count > 0 && list.stdout.filter { $0 == UInt8(ascii: "\n") }.count == count, "\(key): \(count)")
  }

  @Test("--period sets both ends, so it refuses --since and --until; ends must be in order")
  func conflicts() throws {
    let both = try CLIRunner.run(["list", "--period", "2024", "--until", "2024-06", "-"], stdin: [])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--period sets both ends"))
    let reversed = try CLIRunner.run(["list", "--since", "2024-03", "--until", "2024-02", "-"], stdin: [])
    #expect(reversed.status == 64)
    #expect(reversed.stderr.contains("--since (2024-03-01) must not be after --until (2024-02-29)."))
  }
}
