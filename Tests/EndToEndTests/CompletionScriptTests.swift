import Foundation
import Testing

/// `txfold --generate-completion-script bash|zsh|fish` offers the values of the options that take
/// one of a few words, and file names where a path goes; the bash script is also run in bash.
@Suite("Completion scripts")
struct CompletionScriptTests {
  static let values: [(command: String, option: String, words: [String])] = [
    ("group", "--format", ["text", "json", "jsonl", "csv", "html"]),
    ("group", "--locale", ["en", "fr", "de", "nl", "es"]),
    ("group", "--color", ["auto", "always", "never"]),
    ("group", "--theme", ["standard", "blue-orange", "mono"]),
    ("group", "--schema", ["auto", "backbase", "payback", "ledger", "swile", "psd2", "custom"]),
    ("group", "--emit", ["report", "partial"]),
    ("group", "--members", ["all"]),
    ("list", "--format", ["text", "json", "jsonl", "csv", "html"]),
    ("list", "--state", ["PENDING", "COMPLETED"]),
    ("summary", "--by", ["category", "day", "week", "month", "year", "counterparty", "state"]),
    ("summary", "--sort", ["key", "expense", "income", "count"]),
    ("merge", "--emit", ["report", "partial"]),
  ]

  static func script(_ shell: String) throws -> String {
    let outcome = try CLIRunner.run(["--generate-completion-script", shell])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return outcome.text
  }

  @Test("the bash script lists every option's values")
  func bashScriptHoldsTheValues() throws {
    let script = try Self.script("bash")
    for (_, option, words) in Self.values {
      let offer = "__txfold_add_completions -W " + words.map { "'\($0)'" }.joined(separator: "$'\\n'")
      #expect(script.contains("'\(option)')\n        \(offer)"), "\(option): \(offer)")
    }
    for option in ["'-o'|'--output')", "'--stats')", "'--rejects')", "'--only-ids')"] {
      #expect(script.contains("\(option)\n        __txfold_add_completions -f"), "\(option)")
    }
    #expect(script.contains("'--temp-dir')\n        __txfold_add_completions -d"))
  }

  @Test("zsh and fish offer the values and files too")
  func zshAndFish() throws {
    let zsh = try Self.script("zsh")
    #expect(zsh.contains("local -ar ___format=('text' 'json' 'jsonl' 'csv' 'html')"))
    #expect(zsh.contains("local -ar ___by=('category' 'day' 'week' 'month' 'year' 'counterparty' 'state')"))
    #expect(zsh.contains("'*:files:_files'"))
    let fish = try Self.script("fish")
    #expect(fish.contains("-rfka 'text json jsonl csv html'"))
    #expect(fish.contains("-rfka 'en fr de nl es'"))
    #expect(fish.contains("-rfka 'key expense income count'"))
  }

  /// What bash's completion function offers for `words` (the last one being completed), in `directory`.
  static func complete(_ words: [String], in directory: URL, script: URL) throws -> [String] {
    let line = words.joined(separator: " ")
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(script.path)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
      _txfold txfold '\(words.last ?? "")' '\(words.count > 1 ? words[words.count - 2] : "")'
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["--noprofile", "--norc", "-c", program]
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test(
    "bash completes the values and file names",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"))
  func bashCompletes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("txfold.bash")
    try Data(try Self.script("bash").utf8).write(to: script)
    try Data().write(to: directory.appendingPathComponent("dump.jsonl"))
    for (command, option, words) in Self.values {
      #expect(try Self.complete(["txfold", command, option, ""], in: directory, script: script) == words, "\(option)")
    }
    #expect(try Self.complete(["txfold", "summary", "--by", "w"], in: directory, script: script) == ["week"])
    #expect(try Self.complete(["txfold", "group", "du"], in: directory, script: script) == ["dump.jsonl"])
    #expect(try Self.complete(["txfold", "list", "-o", "du"], in: directory, script: script) == ["dump.jsonl"])
    #expect(try Self.complete(["txfold", "merge", "--stats", "du"], in: directory, script: script) == ["dump.jsonl"])
  }
}
