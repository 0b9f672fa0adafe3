import Foundation
import Testing

/// `--since`, `--until` and `--period` take a day, month, quarter or year (`2024-05-17`,
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
    arguments: ["2024-13", "2024-00", "2024-Q0", "2024-Q5", "0000", "24", "2024-1", "2024-02-30", "May"])
  func refused(text: String) throws {
    for option in ["--since", "--until", "--period"] {
      let outcome = try CLIRunner.run(["summary", option, text, "-"], stdin: [])
      #expect(outcome.status == 64)
      #expect(outcome.stderr.contains("\(option) must be a day, month, quarter or year"), "\(outcome.stderr)")
    }
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
