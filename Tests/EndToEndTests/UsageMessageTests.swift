import Foundation
import Testing

/// Usage errors that teach: a negative number gets the option's own rule, not "Missing value",
/// and a mistyped command gets the command it was probably meant to be. Both are exit 64.
@Suite("Usage messages") struct UsageMessageTests {
  @Test(
    "A negative number is judged by the option's rule",
    arguments: [
      (["group", "--members", "-1"], "--members must be a whole number of at least 0 or 'all', not '-1'."),
      (["group", "--threads", "-2"], "--threads must be from 1 to 256, not -2."),
      (["group", "--threads", "x"], "The value 'x' is invalid for '--threads <threads>': it must be a whole number."),
      (["group", "--max-record-bytes", "-1"], "--max-record-bytes must be a size from 1 byte to 1GiB, not '-1'"),
      (
        ["group", "--per-account", "--memory-limit", "-1"], "--memory-limit must be a size of at least 1 byte, not '-1'"
      ),
      (["list", "--limit", "-1"], "--limit must be at least 0, not -1."),
      (["list", "--limit", "2.5"], "The value '2.5' is invalid for '--limit <limit>': it must be a whole number."),
      (["list", "--offset", "-3"], "--offset must be at least 0, not -3."),
      (["list", "--page-size", "-1", "--page", "1"], "--page-size must be at least 1, not -1."),
      (["list", "--memory-limit", "-1"], "--memory-limit must be a size of at least 1 byte, not '-1'"),
      (["summary", "--max-rejects", "-1"], "--max-rejects must be at least 0, not -1."),
      (["gen", "--count", "-5"], "--count must be at least 0, not -5."),
      (
        ["gen", "--count", "2", "--seed", "-1"],
        "The value '-1' is invalid for '--seed <seed>': it must be a whole number of 0 or more."
      ),
      (["gen", "--count", "2", "--accounts", "-1"], "--accounts must be between 0 and 10000000000, not -1."),
      (["gen", "--count", "2", "--order", "random"], "--order must be day, account or shuffled, not 'random'."),
      (["gen", "--count", "2", "--resend", "-0.1"], "--resend must be a share from 0 to 1"),
      (["gen", "--count", "2", "--resend", "1.5"], "not '1.5'."),
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

  @Test(
    "Every command's help ends its description with examples of itself",
    arguments: ["group", "list", "summary", "merge", "gen"])
  func helpExamples(command: String) throws {
    let outcome = try CLIRunner.run([command, "--help"], environment: ["COLUMNS": "80"])
    #expect(outcome.status == 0)
    let help = outcome.text
    let examples = try #require(help.range(of: "\nExamples:\n"))
    let usage = try #require(help.range(of: "\nUSAGE: "))
    #expect(examples.upperBound < usage.lowerBound)
    let lines = help[examples.upperBound..<usage.lowerBound].split(separator: "\n")
    #expect(lines.count >= 2)
    for line in lines {
      #expect(line.hasPrefix("  ") && line.contains("txfold \(command)"), "\(line)")
      #expect(line.count <= 80, "cut by the help's wrapping: \(line)")
    }
  }

  /// `--per-account --field account=acct` without `--schema` is a custom mapping lacking its
  /// instant and amount; the message used to stop there, leaving the user to guess that naming
  /// the schema is what adds one field to it.
  @Test("--field without --schema lacking instant and amount: 64, and how to add a field to a built-in schema")
  func fieldWithoutSchema() throws {
    for command in ["group", "list", "summary"] {
      let outcome = try CLIRunner.run([command, "--per-account", "--field", "account=acct", "-"])
      #expect(outcome.status == 64, "\(command): \(outcome.stderr)")
      #expect(
        outcome.stderr.contains("--field: the mapping needs 'instant=PATH' and 'amount=PATH'."), "\(outcome.stderr)")
      #expect(outcome.stderr.contains("name it: --schema backbase --field account=acct"), "\(outcome.stderr)")
    }
    // With a named schema the field is added to it, and nothing is missing.
    let named = try CLIRunner.run(["group", "--schema", "ledger", "--field", "account=acct", "-"], stdin: [])
    #expect(named.status == 0, "\(named.stderr)")
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

  /// A file name that is not UTF-8 (a Latin-1 `ü` is the byte FF) reaches `txfold` as bytes, but
  /// Swift hands the arguments over as repaired text: the file was then looked for under another
  /// name and reported missing though it is there.
  @Test("An argument that is not UTF-8 is named as such, not reported missing", arguments: ["group", "list", "merge"])
  func argumentNotUTF8(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The shell's printf makes the byte: Process takes its arguments as Strings.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", #"cd "$1" && name="$(printf 'bad\377name.jsonl')" && : > "$name" && exec "$0" "$2" "$name""#,
      CLIRunner.binary.path, directory.path, command,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 64, "\(message)")
    #expect(message.contains(#"'bad\xFFname.jsonl' is not valid UTF-8"#), "\(message)")
    #expect(!message.contains("No such file"), "\(message)")
  }
}
