import Foundation
import Testing

/// Usage errors that teach: a negative number gets the option's own rule, not "Missing value",
/// and a mistyped command gets the command it was probably meant to be. Both are exit 64.
@Suite("Usage messages") struct UsageMessageTests {
  @Test(
    "A negative number is judged by the option's rule",
    arguments: [
      (["group", "--members", "-1"], "--members must be a number of at least 0 or 'all', not '-1'."),
      (["group", "--threads", "-2"], "--threads must be from 1 to 256."),
      (["list", "--limit", "-1"], "--limit must be at least 0."),
      (["summary", "--max-rejects", "-1"], "--max-rejects must be at least 0."),
      (["gen", "--count", "-5"], "--count must be at least 0."),
      (["gen", "--count", "2", "--accounts", "-1"], "--accounts must be between 0 and 10000000000, not -1."),
    ])
  func negativeNumbers(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("Missing value"))
    #expect(outcome.stdout.isEmpty)
  }

  @Test(
    "A mistyped command gets a suggestion",
    arguments: [
      ("grp", "group"), ("lst", "list"), ("summry", "summary"), ("marge", "merge"), ("gne", "gen"), ("GROUP", "group"),
    ])
  func suggestion(typed: String, meant: String) throws {
    let outcome = try CLIRunner.run([typed, "whatever.json"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("Unknown command '\(typed)'. Did you mean '\(meant)'?"), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test("A word far from every command is left to the usual message")
  func noSuggestion() throws {
    for word in ["xyz", "report.json"] {
      let outcome = try CLIRunner.run([word])
      #expect(outcome.status == 64)
      #expect(!outcome.stderr.contains("Did you mean"), "\(word): \(outcome.stderr)")
      #expect(outcome.stderr.contains("Unexpected argument '\(word)'"), "\(word): \(outcome.stderr)")
    }
  }
}
