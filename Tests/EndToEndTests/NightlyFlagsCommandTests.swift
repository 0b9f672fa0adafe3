import Foundation
import Testing

@testable import TxFold
@testable import TxFoldCLI

/// The flags of a nightly job (Guide, "Running it nightly"): `--min-accepted`, `--dry-run`, `--progress`, and the
/// per-account message for records without an account.
@Suite("Nightly flags")
struct NightlyFlagsCommandTests {
  static let commands: [[String]] = [["group"], ["list"], ["summary"], ["group", "--per-account"]]

  /// 20 good lines and 2 bad ones.
  static func input(in directory: URL) throws -> String {
    let lines = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
      .split(separator: "\n").prefix(20)
    let path = directory.appendingPathComponent("dump.jsonl").path
    try Data((lines.joined(separator: "\n") + "\n{bad\n[1]\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("--min-accepted: 65 below it with the counts, the report at it", arguments: commands)
  func minAccepted(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let output = directory.appendingPathComponent("report.txt").path
    // One of the 20 good lines has no account: a per-account run rejects it.
    let accepted = command.contains("--per-account") ? 19 : 20
    let failed = try CLIRunner.run(command + ["--min-accepted", "\(accepted + 1)", "-o", output, input])
    #expect(failed.status == 65, "\(command): \(failed.stderr)")
    #expect(
      failed.stderr.contains(
        "\(accepted) records accepted (of 22 read), fewer than --min-accepted \(accepted + 1) requires"),
      "\(failed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output))
    let passed = try CLIRunner.run(command + ["--min-accepted", "\(accepted)", "-o", output, input])
    #expect(passed.status == 0, "\(command): \(passed.stderr)")
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test("merge --min-accepted: judged over all the shards together, plain and per account")
  func mergeMinAccepted() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
      .split(separator: "\n")
    for perAccount in [false, true] {
      let flag = perAccount ? ["--per-account"] : []
      var partials: [String] = []
      for (index, part) in [lines.prefix(31), lines.dropFirst(31)].enumerated() {
        let shard = directory.appendingPathComponent("shard-\(index).jsonl").path
        try Data((part.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: shard))
        let partial = directory.appendingPathComponent("shard-\(index).partial").path
        let folded = try CLIRunner.run(["group", "--quiet", "--emit", "partial", "-o", partial, shard] + flag)
        #expect(folded.status == 0, "\(folded.stderr)")
        partials.append(partial)
      }
      let accepted = perAccount ? 60 : 62
      let output = directory.appendingPathComponent("merged.txt").path
      let failed = try CLIRunner.run(["merge", "--min-accepted", "\(accepted + 1)", "-o", output] + flag + partials)
      #expect(failed.status == 65, "\(failed.stderr)")
      #expect(failed.stderr.contains("fewer than --min-accepted \(accepted + 1)"), "\(failed.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output))
      let passed = try CLIRunner.run(
        ["merge", "--quiet", "--min-accepted", "\(accepted)", "-o", output] + flag + partials)
      #expect(passed.status == 0, "\(passed.stderr)")
      try? FileManager.default.removeItem(atPath: output)
    }
  }

  @Test("--min-accepted on an empty export: 65; a negative or non-numeric value: 64")
  func minAcceptedEmptyAndUsage() throws {
    let empty = try CLIRunner.run(["group", "--min-accepted", "1"], stdin: [])
    #expect(empty.status == 65)
    #expect(empty.stderr.contains("0 records accepted (of 0 read), fewer than --min-accepted 1"), "\(empty.stderr)")
    for value in ["-1", "x"] {
      let usage = try CLIRunner.run(["group", "--min-accepted", value, CLIRunner.fixture("corpus.jsonl")])
      #expect(usage.status == 64, "\(value): \(usage.stderr)")
      #expect(usage.stderr.contains("--min-accepted"), "\(usage.stderr)")
    }
  }

  @Test("--dry-run: rejects and stats written, the report not (nor standard output)", arguments: commands)
  func dryRun(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let output = directory.appendingPathComponent("report.txt").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let stats = directory.appendingPathComponent("stats.json").path
    try Data("yesterday\n".utf8).write(to: URL(fileURLWithPath: output))
    let run = try CLIRunner.run(
      command + ["--dry-run", "-o", output, "--rejects", rejects, "--stats", stats, input])
    #expect(run.status == 0, "\(command): \(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "yesterday\n")
    let accepted = command.contains("--per-account") ? 19 : 20
    #expect(try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n").count == 22 - accepted)
    #expect(try String(contentsOfFile: stats, encoding: .utf8).contains("\"accepted\":\(accepted)"))
    #expect(run.stderr.contains("22 lines: \(accepted) accepted, \(22 - accepted) rejected"), "\(run.stderr)")
    // Without -o, nothing goes to standard output either.
    let toStandardOutput = try CLIRunner.run(command + ["--dry-run", "--quiet", input])
    #expect(toStandardOutput.status == 0)
    #expect(toStandardOutput.stdout.isEmpty)
    #expect(toStandardOutput.stderr.isEmpty)
  }

  @Test(
    "--dry-run writes no state: an existing --state-out keeps its bytes, a new one is not made", arguments: commands)
  func dryRunWritesNoState(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let previous = directory.appendingPathComponent("previous.state").path
    let first = try CLIRunner.run(
      command + ["--quiet", "--state-out", previous, "-o", directory.appendingPathComponent("first.txt").path, input])
    try #require(first.status == 0, "\(command): \(first.stderr)")
    let state = directory.appendingPathComponent("tonight.state").path
    try Data("last night's state\n".utf8).write(to: URL(fileURLWithPath: state))
    let fresh = directory.appendingPathComponent("fresh.state").path
    for (stateIn, stateOut) in [(nil, state), (previous, state), (nil, fresh), (previous, fresh)] {
      let run = try CLIRunner.run(
        command + ["--dry-run", "--quiet"] + (stateIn.map { ["--state-in", $0] } ?? []) + [
          "--state-out", stateOut, input,
        ])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(run.stdout.isEmpty)
      #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == Data("last night's state\n".utf8), "\(command)")
      #expect(!FileManager.default.fileExists(atPath: fresh), "\(command)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
  }

  @Test("--dry-run keeps a real run's exit status: 65 past a limit, 74 for a cut input")
  func dryRunStatus() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let limited = try CLIRunner.run(["list", "--dry-run", "--max-rejects", "1", "--rejects", rejects, input])
    #expect(limited.status == 65)
    #expect(try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n").count == 2)
    let few = try CLIRunner.run(["summary", "--dry-run", "--min-accepted", "100", input])
    #expect(few.status == 65)
    let cut = directory.appendingPathComponent("cut.jsonl").path
    try Data(Array(try Data(contentsOf: URL(fileURLWithPath: input))).prefix(700)).write(to: URL(fileURLWithPath: cut))
    let truncated = try CLIRunner.run(["group", "--dry-run", cut])
    #expect(truncated.status == 74, "\(truncated.stderr)")
  }

  @Test("--progress on a pipe: plain lines with bytes, records, rate and ETA; none without it")
  func progressLines() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "12000", "-o", dump]).status == 0)
    let output = directory.appendingPathComponent("report.csv").path
    for command in [["group"], ["summary", "--by", "day"], ["list"]] {
      let run = try CLIRunner.run(
        command + ["--progress", "--quiet", "--threads", "1", "--format", "csv", "-o", output, dump],
        environment: ["TXFOLD_PROGRESS_INTERVAL": "0"])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(!run.stderr.contains("\r"))
      let lines = run.stderr.split(separator: "\n").map(String.init)
      #expect(lines.count >= 2, "\(command): \(run.stderr)")
      for line in lines {
        let pattern =
          #"^txfold: progress: [0-9.]+ (B|KiB|MiB) / [0-9.]+ MiB \([0-9]+%\), [0-9]+ records, [0-9.]+ (B|KiB|MiB)/s, ETA [0-9]+ s$"#
        #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)")
      }
      // Standard input has no known size: no share and no ETA.
      let piped = try CLIRunner.run(
        command + ["--progress", "--quiet", "--format", "csv", "-o", output],
        stdin: Array(try Data(contentsOf: URL(fileURLWithPath: dump))), environment: ["TXFOLD_PROGRESS_INTERVAL": "0"])
      #expect(piped.status == 0)
      #expect(piped.stderr.hasPrefix("txfold: progress: "), "\(piped.stderr)")
      #expect(piped.stderr.contains(" read, ") && !piped.stderr.contains("ETA"), "\(piped.stderr)")
    }
    let silent = try CLIRunner.run(["group", "--format", "csv", "-o", output, dump])
    #expect(!silent.stderr.contains("progress"), "\(silent.stderr)")
    // The default interval is 10 s — read from the setting, not timed: a run that took 10 s on a
    // loaded machine logged a line and failed a check that it logs none.
    #expect(RunSummary.logInterval(nil) == .seconds(10))
    #expect(RunSummary.logInterval("soon") == .seconds(10) && RunSummary.logInterval("-1") == .seconds(10))
    #expect(RunSummary.logInterval("0.25") == .milliseconds(250))
  }

  @Test("--progress when the input is read twice (--dedupe, a nightly run): the second read says so")
  func progressOfSecondRead() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "12000", "--resend", "0.3", "-o", dump]).status == 0)
    let output = directory.appendingPathComponent("report.csv").path
    let state = directory.appendingPathComponent("night.state").path
    #expect(try CLIRunner.run(["group", "-q", "--state-out", state, "-o", output, dump]).status == 0)
    let runs = [
      ["group", "--dedupe"], ["summary", "--by", "day", "--dedupe"], ["list", "--dedupe"],
      ["group", "--state-in", state],
    ]
    for command in runs {
      let run = try CLIRunner.run(
        command + ["--progress", "--quiet", "--threads", "1", "--format", "csv", "-o", output, dump],
        environment: ["TXFOLD_PROGRESS_INTERVAL": "0"])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      let lines = run.stderr.split(separator: "\n").map(String.init)
      let second = "txfold: progress (second read): "
      #expect(lines.contains { $0.hasPrefix(second) }, "\(command): \(run.stderr)")
      // The second read says when it starts, so its rate is timed from there (`ReadClock`).
      let start = try #require(lines.firstIndex { $0.hasPrefix(second) }, "\(command)")
      #expect(lines[start] == second + "0 B read, 0 records, 0 B/s", "\(command): \(lines[start])")
      // The counts start again at the second read: a line whose records go back is labelled, and
      // once the second read has begun, every line is.
      var previous = 0
      var rereading = false
      for line in lines {
        let records = try #require(
          line.range(of: #"[0-9]+ records"#, options: .regularExpression).map { Int(line[$0].dropLast(8)) ?? 0 })
        if records < previous { rereading = true }
        #expect(line.hasPrefix(second) == rereading, "\(command): \(line)")
        previous = records
      }
    }
  }

  @Test("A second read's rate and ETA are timed from its own start, not from the run's")
  func secondReadClock() {
    let start = ContinuousClock.now
    var clock = ReadClock(started: start)
    let first = PipelineProgress(storedBytesRead: 50 << 20, storedBytesTotal: 100 << 20)
    #expect(clock.seconds(first, now: start + .seconds(10)) == 10)
    // The first read ended at 20 s; the second read's start report, then its 50 MiB at 30 s.
    let again = PipelineProgress(storedBytesRead: 0, storedBytesTotal: nil, secondRead: true)
    #expect(clock.seconds(again, now: start + .seconds(20)) == 0)
    let halfway = PipelineProgress(storedBytesRead: 50 << 20, storedBytesTotal: 100 << 20, secondRead: true)
    let seconds = clock.seconds(halfway, now: start + .seconds(30))
    #expect(seconds == 10)
    #expect(
      RunSummary.logLine(halfway, seconds: seconds)
        == "txfold: progress (second read): 50.0 MiB / 100.0 MiB (50%), 0 records, 5.0 MiB/s, ETA 10 s")
    // The ticker's lines (no new counts) keep the second read's clock.
    #expect(clock.seconds(nil, now: start + .seconds(40)) == 20)
  }

  @Test(
    "--per-account over records without an account: 65 naming the field and --field account=PATH",
    arguments: [
      ["group", "--per-account"], ["group", "--per-account", "--schema", "backbase"],
      ["list", "--per-account"], ["summary", "--per-account", "--schema", "backbase"],
    ])
  func missingAccount(command: [String]) throws {
    let run = try CLIRunner.run(command + [CLIRunner.fixture("corpus.jsonl")])
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("the records have no account field 'arrangementId'"), "\(run.stderr)")
    #expect(run.stderr.contains("--field account=PATH"), "\(run.stderr)")
    #expect(!run.stderr.contains("fit no schema"), "\(run.stderr)")
  }

  @Test(
    "--per-account with --state-in over records without an account: the message names the schema's fields only",
    arguments: [["group", "--per-account"], ["list", "--per-account"], ["summary", "--per-account"]])
  func missingAccountWithState(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let state = directory.appendingPathComponent("s1").path
    let first = try CLIRunner.run(
      command + ["--quiet", "--state-out", state, "-o", directory.appendingPathComponent("first.txt").path, input])
    try #require(first.status == 0, "\(command): \(first.stderr)")
    let plain = try CLIRunner.run(command + [CLIRunner.fixture("corpus.jsonl")])
    let run = try CLIRunner.run(
      command + ["--state-in", state, "--state-out", state + ".2", CLIRunner.fixture("corpus.jsonl")])
    #expect(run.status == 65, "\(run.stderr)")
    let fields = "no account field 'arrangementId' or 'account.iban' or 'account.resourceId' ("
    #expect(plain.stderr.contains(fields), "\(plain.stderr)")
    #expect(run.stderr.contains(fields), "\(run.stderr)")
    #expect(!run.stderr.contains("'n'"), "\(run.stderr)")
    // A state run takes the account from each record: the advice names no flag it refuses (64).
    let firstNight = try CLIRunner.run(command + ["--state-out", state + ".3", CLIRunner.fixture("corpus.jsonl")])
    #expect(firstNight.status == 65, "\(firstNight.stderr)")
    for failed in [run, firstNight] {
      #expect(failed.stderr.contains("--field account=PATH"), "\(failed.stderr)")
      #expect(!failed.stderr.contains("--account-from-file"), "\(failed.stderr)")
    }
    #expect(plain.stderr.contains("--account-from-file"), "\(plain.stderr)")
  }

  @Test("--per-account with a schema that maps no account: 64 naming --field account=PATH")
  func noAccountMapping() throws {
    for command in [["group"], ["list"], ["summary"]] {
      let run = try CLIRunner.run(command + ["--per-account", "--schema", "ledger", CLIRunner.fixture("corpus.jsonl")])
      #expect(run.status == 64, "\(run.stderr)")
      #expect(run.stderr.contains("--field account=PATH"), "\(run.stderr)")
    }
  }
}
