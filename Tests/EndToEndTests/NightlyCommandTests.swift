import Foundation
import Testing

/// Incremental nightly runs on the command line (`--state-in`, `--state-out`):
/// the report of night k from the state of night k-1 is, byte for byte, what
/// `--dedupe` over nights 1…k prints; a state written with other settings,
/// damaged or cut short is refused (65) and nothing is written; a failed or
/// interrupted night leaves `--state-in` as it was and writes no `--state-out`.
@Suite struct NightlyCommandTests {
  /// `txfold gen` records (skewed accounts, 30 % re-sent, PENDING ones coming
  /// back COMPLETED), cut into `count` nights in order.
  static func nights(_ count: Int, records: Int = 6_000, in directory: URL) throws -> [String] {
    let all = directory.appendingPathComponent("all.jsonl").path
    let generated = try CLIRunner.run([
      "gen", "--count", String(records), "--accounts", "60", "--resend", "0.3", "--seed", "11", "-o", all,
    ])
    #expect(generated.status == 0, "\(generated.stderr)")
    let lines = try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n")
    let size = (lines.count + count - 1) / count
    return try (0..<count).map { night in
      let part = lines[(night * size)..<min(lines.count, (night + 1) * size)]
      return try DedupeCommandTests.write(part.map(String.init), "night\(night).jsonl", in: directory)
    }
  }

  /// Runs every night with the previous night's state and checks each report,
  /// and the first line of the summary, against `--dedupe` over the nights so far.
  static func checkContract(
    _ command: [String], nights: [String], in directory: URL, environment: [String: String] = [:]
  ) throws {
    var previous: String?
    for (index, night) in nights.enumerated() {
      let state = directory.appendingPathComponent("state\(index)").path
      let incremental = try CLIRunner.run(
        command + (previous.map { ["--state-in", $0] } ?? []) + ["--state-out", state, night], environment: environment)
      #expect(incremental.status == 0, "\(command) night \(index): \(incremental.stderr)")
      let full = try CLIRunner.run(command + ["--dedupe"] + nights[0...index])
      #expect(full.status == 0, "\(full.stderr)")
      #expect(incremental.stdout == full.stdout, "\(command) night \(index): the report differs from --dedupe's")
      // "N lines: … duplicates; schema …": the counts are the long run's (the byte counts are tonight's).
      #expect(
        incremental.stderr.split(separator: "\n").first == full.stderr.split(separator: "\n").first,
        "\(incremental.stderr) vs \(full.stderr)")
      previous = state
    }
  }

  @Test(
    "Night k from the state of night k-1 prints what --dedupe over nights 1…k prints",
    arguments: [
      ["group", "--format", "json"], ["group", "--format", "csv", "--threads", "1"],
      ["group", "--format", "json", "--members", "1"], ["group", "--per-account", "--format", "jsonl"],
      ["group", "--per-account", "--format", "csv", "--memory-limit", "4K"], ["list", "--format", "csv"],
      ["list", "--per-account", "--format", "jsonl", "--threads", "1"], ["summary", "--format", "json"],
      ["summary", "--per-account", "--format", "csv", "--memory-limit", "4K"],
      // html's title and heading name every night's inputs ("night0.jsonl, … + 1 more" on the fourth).
      ["group", "--format", "html"], ["list", "--per-account", "--format", "html"], ["summary", "--format", "html"],
    ])
  func contract(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.checkContract(command, nights: try Self.nights(4, in: directory), in: directory)
  }

  @Test(
    "The previous state's ids are entered where tonight's keys may match (a filter of their hashes), or all of them: the same reports",
    arguments: [
      // Filtered; more of tonight's keys than a tiny limit's filter keeps (4,096), so none; every hash alike, so all pass.
      (["--threads", "2"], [:]), (["--memory-limit", "4K", "--threads", "1"], [:]),
      (["--threads", "2"], ["TXFOLD_WEAK_ID_HASH": "1"]),
    ] as [([String], [String: String])])
  func previousKeysFiltered(flags: [String], environment: [String: String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(2, records: 12_000, in: directory)
    try Self.checkContract(
      ["group", "--per-account", "--format", "csv"] + flags, nights: nights, in: directory, environment: environment)
  }

  @Test(
    "Tonight's records spilled as sorted runs (a tiny --memory-limit), or compressed on 1 to 3 threads, write the same state, byte for byte"
  )
  func spilledState() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(2, in: directory)
    var states: [Data] = []
    for (limit, threads) in [("4K", "2"), ("512M", "2"), ("512M", "1"), ("512M", "3")] {
      let first = directory.appendingPathComponent("first-\(limit)-\(threads)").path
      let second = directory.appendingPathComponent("second-\(limit)-\(threads)").path
      let command = ["group", "--per-account", "--format", "csv", "-q", "--memory-limit", limit, "--threads", threads]
      let one = try CLIRunner.run(command + ["--state-out", first, nights[0]])
      let two = try CLIRunner.run(command + ["--state-in", first, "--state-out", second, nights[1]])
      #expect(one.status == 0 && two.status == 0, "\(one.stderr) \(two.stderr)")
      states.append(try Data(contentsOf: URL(fileURLWithPath: second)))
    }
    #expect(states.allSatisfy { $0 == states[0] })
  }

  @Test("A PENDING payment that completes leaves its group, and the group's next member moves up")
  func pendingCompletes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let record = DedupeCommandTests.record
    // Night 1: two PENDING payments on 1 March; with --members 1 the group keeps p1 (the later).
    let night1 = [
      record("p1", "A", "2024-03-01T12:00:00Z", "PENDING", "10.00", "first"),
      record("p2", "A", "2024-03-01T09:00:00Z", "PENDING", "20.00", "second"),
    ]
    // Night 2: p1 comes back COMPLETED on 2 March.
    let night2 = [record("p1", "A", "2024-03-02T08:00:00Z", "COMPLETED", "10.00", "first, booked")]
    let inputs = [
      try DedupeCommandTests.write(night1, "n1.jsonl", in: directory),
      try DedupeCommandTests.write(night2, "n2.jsonl", in: directory),
    ]
    let command = ["group", "--format", "json", "--members", "1", "-q"]
    try Self.checkContract(command, nights: inputs, in: directory)
    let report = try CLIRunner.run(
      command + ["--state-in", directory.appendingPathComponent("state0").path, inputs[1]])
    #expect(report.status == 0, "\(report.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout)) as? [String: Any])
    let sections = try #require(document["sections"] as? [[String: Any]])
    func firstGroup(_ state: String) -> [String: Any]? {
      (sections.first { $0["state"] as? String == state }?["groups"] as? [[String: Any]])?.first
    }
    let pending = try #require(firstGroup("PENDING"))
    let completed = try #require(firstGroup("COMPLETED"))
    #expect(pending["count"] as? Int == 1)
    #expect((pending["transactions"] as? [[String: Any]])?.first?["id"] as? String == "p2")
    #expect((completed["transactions"] as? [[String: Any]])?.first?["id"] as? String == "p1")
  }

  @Test("The same night folded twice changes no group, only the duplicates")
  func sameNightTwice() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(2, records: 2_000, in: directory)
    let s1 = directory.appendingPathComponent("s1").path
    let s2 = directory.appendingPathComponent("s2").path
    let s3 = directory.appendingPathComponent("s3").path
    let command = ["group", "--per-account", "--format", "csv"]
    _ = try CLIRunner.run(command + ["--state-out", s1, nights[0]])
    let once = try CLIRunner.run(command + ["--state-in", s1, "--state-out", s2, nights[1]])
    let twice = try CLIRunner.run(command + ["--state-in", s2, "--state-out", s3, nights[1]])
    #expect(once.status == 0 && twice.status == 0, "\(once.stderr) \(twice.stderr)")
    #expect(once.stdout == twice.stdout)
    func duplicates(_ text: String) -> Int? {
      guard let range = text.range(of: #"(\d+) duplicates"#, options: .regularExpression) else { return nil }
      return Int(text[range].split(separator: " ")[0])
    }
    let first = try #require(duplicates(once.stderr))
    let second = try #require(duplicates(twice.stderr))
    // Every record of the night is sent again: each one replaces its twin.
    let nightRecords = try String(contentsOfFile: nights[1], encoding: .utf8).split(separator: "\n").count
    #expect(second == first + nightRecords)
  }

  /// The first night's state of `command`, and night 2, for the refusals.
  static func stateAndNight(_ command: [String], records: Int = 600, in directory: URL) throws -> (
    state: String, night: String
  ) {
    let nights = try Self.nights(2, records: records, in: directory)
    let state = directory.appendingPathComponent("s1").path
    let first = try CLIRunner.run(command + ["-q", "--state-out", state, nights[0]])
    #expect(first.status == 0, "\(first.stderr)")
    return (state, nights[1])
  }

  @Test(
    "A state written with other settings is refused (65), naming the setting; nothing is written",
    arguments: [
      (["--timezone", "Europe/Berlin"], "--timezone"), (["--members", "3"], "--members"),
      (["--schema", "psd2"], "--schema"), (["--currency", "USD"], "--currency"),
      (["--per-account"], "--per-account"), (["--schema", "backbase", "--field", "description=state"], "--field"),
    ])
  func otherSettings(flags: [String], named: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // For --field, both nights name the schema, so that the mapping is the one difference.
    let base = ["group", "--format", "csv"] + (named == "--field" ? ["--schema", "backbase"] : [])
    let (state, night) = try Self.stateAndNight(base, in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let out = directory.appendingPathComponent("s2").path
    let run = try CLIRunner.run(
      ["group", "--format", "csv", "--state-in", state, "--state-out", out] + flags + [night])
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("written with \(named)"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
  }

  @Test("A state written with --members all is refused under another --members, named as the flag is written")
  func membersAllNamed() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group", "--members", "all"], in: directory)
    let run = try CLIRunner.run(["group", "--members", "3", "--state-in", state, "--state-out", state + ".2", night])
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("written with --members all; this run has --members 3"), "\(run.stderr)")
    let back = try CLIRunner.run(["group", "--members", "all", "--state-in", state, "--state-out", state + ".3", night])
    #expect(back.status == 0, "\(back.stderr)")
  }

  @Test(
    "A --state-in that cannot be opened (missing, under a file, a directory) is 66; --stats says so; nothing else is written"
  )
  func stateCannotBeOpened() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group"], in: directory)
    let report = directory.appendingPathComponent("report.csv").path
    try Data("previous".utf8).write(to: URL(fileURLWithPath: report))
    let cases = [
      (directory.appendingPathComponent("missing").path, "No such file or directory"),
      (state + "/under-a-file", "Not a directory"),
      (directory.path, "is a directory"),
    ]
    for (path, reason) in cases {
      let stats = directory.appendingPathComponent("stats.json").path
      let out = directory.appendingPathComponent("s2").path
      let run = try CLIRunner.run([
        "group", "--format", "csv", "-o", report, "--stats", stats, "--state-in", path, "--state-out", out, night,
      ])
      #expect(run.status == 66, "\(path): \(run.stderr)")
      #expect(run.stderr.contains(path) && run.stderr.contains(reason), "\(run.stderr)")
      #expect(run.stderr.contains("state file"), "\(run.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats)))
      let values = try #require(document as? [String: Any])
      #expect(values["exitStatus"] as? Int == 66, "\(values)")
      #expect((values["error"] as? String)?.contains(reason) == true, "\(values)")
      #expect(!FileManager.default.fileExists(atPath: out))
      #expect(try String(contentsOfFile: report, encoding: .utf8) == "previous")
    }
  }

  @Test("A state written by another command is refused (65)")
  func otherCommand() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["list", "--format", "csv"], in: directory)
    let run = try CLIRunner.run(["group", "--state-in", state, "--state-out", state + ".2", night])
    #expect(run.status == 65)
    #expect(run.stderr.contains("it was written by 'txfold list'; this run is 'txfold group'"), "\(run.stderr)")
  }

  @Test(
    "A state goes on under --schema auto or the schema auto chose for it, either way; another schema is refused naming it"
  )
  func schemaAutoChose() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(3, records: 300, in: directory)
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func night(_ index: Int, _ flags: [String], from previous: String?, to state: String) throws -> CLIRunner.Outcome {
      try CLIRunner.run(
        ["group", "--format", "csv", "-q"] + flags + (previous.map { ["--state-in", $0] } ?? [])
          + ["--state-out", state, nights[index]])
    }
    // auto (which chooses backbase), then backbase, then auto again: each night the same report as
    // --dedupe over the nights so far.
    var previous: String?
    for (index, flags) in [[], ["--schema", "backbase"], ["--schema", "auto"]].enumerated() {
      let state = path("s\(index)")
      let run = try night(index, flags, from: previous, to: state)
      #expect(run.status == 0, "night \(index) \(flags): \(run.stderr)")
      let full = try CLIRunner.run(["group", "--format", "csv", "-q", "--dedupe"] + nights[0...index])
      #expect(run.text == full.text, "night \(index) \(flags)")
      previous = state
    }
    // Another schema is refused, naming what auto chose, or the schema named.
    for (state, written) in [(path("s0"), "--schema auto (which chose backbase)"), (path("s1"), "--schema backbase")] {
      let run = try night(1, ["--schema", "psd2"], from: state, to: path("refused"))
      #expect(run.status == 65, "\(run.stderr)")
      #expect(
        run.stderr.contains("it was written with \(written); this run has --schema psd2"), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: path("refused")))
    }
  }

  @Test("--allow-trailing-commas and --max-record-bytes are tonight's: a night with other values goes on")
  func readingFlagsAreTonights() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nights = try Self.nights(3, records: 300, in: directory)
    var previous: String?
    for (index, flags) in [
      ["--allow-trailing-commas", "--max-record-bytes", "64K"], [], ["--max-record-bytes", "2M"],
    ]
    .enumerated() {
      let state = directory.appendingPathComponent("s\(index)").path
      let run = try CLIRunner.run(
        ["group", "--format", "csv", "-q"] + flags + (previous.map { ["--state-in", $0] } ?? [])
          + ["--state-out", state, nights[index]])
      #expect(run.status == 0, "night \(index) \(flags): \(run.stderr)")
      let full = try CLIRunner.run(["group", "--format", "csv", "-q", "--dedupe"] + nights[0...index])
      #expect(run.text == full.text, "night \(index) \(flags)")
      previous = state
    }
  }

  @Test(
    "A damaged, cut-short, foreign or newer state is refused (65), naming the damage; nothing is written",
    arguments: [
      "header byte", "body byte", "trailer byte", "zstd frame header", "cut", "version", "not a state", "empty",
    ],
    // Per account, the previous state is read once, by the second pass's merge (`AccountMatcher`).
    [false, true])
  func damaged(damage: String, perAccount: Bool) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let command = ["group", "--format", "csv"] + (perAccount ? ["--per-account"] : [])
    // A state past 128 KiB of records is compressed in several steps: its frame has a window descriptor.
    let (state, night) = try Self.stateAndNight(
      command, records: damage == "zstd frame header" ? 8_000 : 600, in: directory)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: state)))
    let expected: String
    switch damage {
    case "header byte":
      bytes[40] ^= 0x20
      expected = "checksum does not match"
    case "body byte":
      bytes[bytes.count - 200] ^= 0x01
      expected = "damaged"
    case "zstd frame header":
      // The frame's window descriptor, one power of two larger: zstd decodes the same records
      // with it, so only the checksum of the stored bytes tells (found by fuzz target 13).
      let header = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
      bytes[16 + header + 5] &+= 0x08
      expected = "damaged"
    case "trailer byte":
      bytes[bytes.count - 20] ^= 0x01
      expected = "damaged"
    case "cut":
      bytes.removeLast(bytes.count / 3)
      expected = "truncated"
    case "version":
      bytes[8] = 9
      expected = "state version is 9; this txfold reads version 1"
    case "not a state":
      bytes = Array(#"{"id":"1"}"#.utf8) + Array(repeating: 0x20, count: 64)
      expected = "not a txfold state file"
    default:
      bytes = []
      expected = "too short"
    }
    let damaged = directory.appendingPathComponent("damaged").path
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let out = directory.appendingPathComponent("s2").path
    // One thread reads the state and checks its records; on two, one reads and the other checks.
    for threads in ["1", "2"] {
      let run = try CLIRunner.run(
        command + ["--threads", threads, "--state-in", damaged, "--state-out", out, night])
      #expect(run.status == 65, "\(damage), \(threads) threads: \(run.stderr)")
      #expect(run.stderr.contains(expected), "\(damage), \(threads) threads: \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
      #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: damaged))) == bytes)
    }
  }

  @Test(
    "A refused or damaged --state-in leaves --rejects and the report as they were; only --stats is written",
    arguments: ["other settings", "header byte", "body byte"], [false, true])
  func refusedStateWritesNoRejects(refusal: String, perAccount: Bool) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let command = ["group", "--format", "csv"] + (perAccount ? ["--per-account"] : [])
    let (state, night) = try Self.stateAndNight(command, records: 600, in: directory)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: state)))
    var flags: [String] = []
    switch refusal {
    case "other settings": flags = ["--members", "3"]
    case "header byte": bytes[40] ^= 0x20
    default: bytes[bytes.count - 200] ^= 0x01
    }
    let refused = directory.appendingPathComponent("refused").path
    try Data(bytes).write(to: URL(fileURLWithPath: refused))
    // Tonight has a rejected record too: its line must not reach --rejects either.
    let bad = try DedupeCommandTests.write(["{bad"], "bad.jsonl", in: directory)
    let report = directory.appendingPathComponent("report.csv").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let stats = directory.appendingPathComponent("stats.json").path
    for path in [report, rejects] { try Data("old\n".utf8).write(to: URL(fileURLWithPath: path)) }
    let out = directory.appendingPathComponent("s2").path
    for threads in ["1", "2"] {
      let run = try CLIRunner.run(
        command + flags + [
          "--threads", threads, "--state-in", refused, "--state-out", out, "-o", report, "--rejects", rejects,
          "--stats", stats, night, bad,
        ])
      #expect(run.status == 65, "\(refusal), \(threads) threads: \(run.stderr)")
      #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "old\n", "\(refusal), \(threads) threads")
      #expect(try String(contentsOfFile: report, encoding: .utf8) == "old\n", "\(refusal), \(threads) threads")
      #expect(!FileManager.default.fileExists(atPath: out))
      let document = try String(contentsOfFile: stats, encoding: .utf8)
      #expect(document.contains("\"exitStatus\":65"), "\(document)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
  }

  @Test("--state-out is never --state-in, an input or a FIFO; a failed night writes none and leaves --state-in")
  func outputSafety() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group"], in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let sameAsIn = try CLIRunner.run(["group", "--state-in", state, "--state-out", state, night])
    #expect(sameAsIn.status == 64, "\(sameAsIn.stderr)")
    let link = directory.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: state)
    let throughLink = try CLIRunner.run(["group", "--state-in", state, "--state-out", link, night])
    #expect(throughLink.status == 64, "\(throughLink.stderr)")
    let overInput = try CLIRunner.run(["group", "--state-in", state, "--state-out", night, night])
    #expect(overInput.status == 64, "\(overInput.stderr)")
    let fifo = directory.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let intoFIFO = try CLIRunner.run(["group", "--state-in", state, "--state-out", fifo, night])
    #expect(intoFIFO.status == 73, "\(intoFIFO.stderr)")
    #expect(intoFIFO.stderr.contains("regular file"), "\(intoFIFO.stderr)")
    // A night that fails (a rejected record with --max-rejects 0) keeps the old --state-out too.
    let out = directory.appendingPathComponent("s2").path
    try Data("previous".utf8).write(to: URL(fileURLWithPath: out))
    let bad = try DedupeCommandTests.write(["{\"id\":\"x\"}"], "bad.jsonl", in: directory)
    let failed = try CLIRunner.run(["group", "--state-in", state, "--state-out", out, "--max-rejects", "0", night, bad])
    #expect(failed.status == 65, "\(failed.stderr)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
  }

  @Test("--min-accepted judges tonight's export: an empty night fails (65) and writes no state")
  func thresholdsJudgeTonight() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group"], in: directory)
    let empty = try DedupeCommandTests.write([], "empty.jsonl", in: directory)
    let out = directory.appendingPathComponent("s2").path
    let failed = try CLIRunner.run(["group", "--state-in", state, "--state-out", out, "--min-accepted", "10", empty])
    #expect(failed.status == 65, "\(failed.stderr)")
    #expect(failed.stderr.contains("--min-accepted 10"), "\(failed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let passed = try CLIRunner.run(["group", "--state-in", state, "--state-out", out, "--min-accepted", "10", night])
    #expect(passed.status == 0, "\(passed.stderr)")
  }

  @Test("SIGTERM mid-night: 143, no --state-out, --state-in as it was, no temporary file left")
  func interrupted() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group", "--per-account"], in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let spill = directory.appendingPathComponent("spill")
    try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
    let out = directory.appendingPathComponent("s2").path
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "group", "--per-account", "-q", "--temp-dir", spill.path, "--state-in", state, "--state-out", out, "-",
    ]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Tonight's records in, standard input left open: the run waits inside its first pass.
    input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: night)))
    // Polled until the run has reached it or ended, with no deadline that a debug build starting
    // slowly on a loaded machine could miss.
    let copying = CLIRunner.waitUntil(milliseconds: 600_000) {
      !process.isRunning || (try? FileManager.default.contentsOfDirectory(atPath: spill.path))?.isEmpty == false
    }
    #expect(copying && process.isRunning, "the run never reached its first pass")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 143)
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
    #expect(left.isEmpty, "\(left)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
  }

  /// A closed report pipe ends a run quietly with 0, its report cut short; a nightly run stops there
  /// too, so tonight's state is not complete: an exit 0 without it would leave the next night
  /// without its --state-in.
  @Test("A report reader that goes away early fails a nightly run (74): no --state-out, --stats says why")
  func closedReportPipe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, night) = try Self.stateAndNight(["group", "--per-account"], records: 4_000, in: directory)
    let out = directory.appendingPathComponent("s2").path
    let stats = directory.appendingPathComponent("stats.json").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let (status, errors) = try CLIRunner.runIntoClosedPipe([
      "group", "--per-account", "--format", "jsonl", "--state-in", state, "--state-out", out, "--stats", stats,
      "--rejects", rejects, night,
    ])
    #expect(status == "status=74", "\(errors)")
    #expect(errors.contains("closed its end of the pipe") && errors.contains("--state-out"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: rejects))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
    #expect(document["exitStatus"] as? Int == 74, "\(document)")
  }

  @Test("A full disk while the state is written: the run fails, the old --state-out and --state-in stay")
  func fullDisk() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let small = directory.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
    // A 64 KiB tmpfs of the test's own; where mounting is not allowed (no root, a container) there is nothing to test.
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "txfold-test", small.path]
    mount.standardError = FileHandle.nullDevice
    guard (try? mount.run()) != nil else { return }
    mount.waitUntilExit()
    guard mount.terminationStatus == 0 else { return }
    defer {
      let unmount = Process()
      unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
      unmount.arguments = [small.path]
      try? unmount.run()
      unmount.waitUntilExit()
    }
    let (state, night) = try Self.stateAndNight(["group"], in: directory)
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let out = small.appendingPathComponent("s2").path
    try Data("previous".utf8).write(to: URL(fileURLWithPath: out))
    let big = try Self.nights(1, records: 4_000, in: directory)[0]
    let run = try CLIRunner.run(["group", "--state-in", state, "--state-out", out, night, big])
    #expect(run.status == 73 || run.status == 74, "\(run.stderr)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["s2"])

    // A state through a pipe is copied to --temp-dir first: a full one is the disk's failure (74,
    // a read error of the state), not a refused state (65).
    let bigState = directory.appendingPathComponent("big.state").path
    try #require(try CLIRunner.run(["group", "-q", "--state-out", bigState, big]).status == 0)
    let stats = directory.appendingPathComponent("stats.json").path
    let piped = Process()
    piped.executableURL = URL(fileURLWithPath: "/bin/bash")
    piped.arguments = [
      "-c",
      #""$TXFOLD" group -q --temp-dir "$SMALL" --state-in <(cat "$STATE") --state-out "$OUT" --stats "$STATS" "$NIGHT""#,
    ]
    piped.environment = [
      "TXFOLD": CLIRunner.binary.path, "SMALL": small.path, "STATE": bigState, "OUT": out, "STATS": stats,
      "NIGHT": night, "PATH": "/usr/bin:/bin",
    ]
    let errors = Pipe()
    piped.standardError = errors
    try piped.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    piped.waitUntilExit()
    #expect(piped.terminationStatus == 74, "\(said)")
    #expect(said.contains("Read error in") && said.contains("No space left on device"), "\(said)")
    #expect(!said.contains(".."), "\(said)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
    #expect(document["exitStatus"] as? Int == 74, "\(document)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "previous")
    #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["s2"])
  }

  @Test("Records without an id (their position is their id) are kept night after night, as --dedupe keeps them")
  func positionalIDs() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sample = CLIRunner.sample("swile-wallet.json")
    for command in [["group", "--format", "json"], ["list", "--format", "csv"]] {
      try Self.checkContract(command, nights: [sample, sample, sample], in: directory)
    }
  }
}
