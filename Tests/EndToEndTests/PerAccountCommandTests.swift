import Foundation
import Testing

/// `txfold group --per-account` as a nightly job runs it: every format against a
/// reviewed golden file, the usage errors, spilling to a private directory that
/// is gone afterwards, and accounts taken from file names (arrays, JSON lines, gzip).
@Suite("group --per-account")
struct PerAccountCommandTests {
  /// 62 lines over 4 accounts (`txfold gen --count 60 --seed 5 --accounts 4`),
  /// plus one record without `arrangementId` (line 11) and one with it empty (line 21).
  static let fixture = CLIRunner.fixture("per-account.jsonl")

  @Test("every format against its golden file", arguments: ["jsonl", "json", "csv", "text", "html"])
  func formats(format: String) throws {
    let outcome = try CLIRunner.run(["group", "--per-account", "--members", "2", "--format", format, Self.fixture])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "per-account.\(format)")
  }

  @Test("spilling changes nothing: the bytes of a tiny --memory-limit equal the in-memory run's")
  func spillGivesTheSameBytes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inMemory = try CLIRunner.run(["group", "--per-account", "--format", "jsonl", Self.fixture])
    for threads in ["1", "2", "4"] {
      let spilled = try CLIRunner.run([
        "group", "--per-account", "--format", "jsonl", "--memory-limit", "1K", "--threads",
        threads, "--temp-dir", directory.path, Self.fixture,
      ])
      #expect(spilled.status == 0, "\(spilled.stderr)")
      #expect(spilled.stdout == inMemory.stdout)
      #expect(spilled.stderr.contains("runs on disk (--memory-limit 1K)"), "\(spilled.stderr)")
      // The private spill directory is removed once the accounts are written.
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }

  @Test(
    "SIGINT while runs are on disk exits 130 and leaves no temporary file and no output, however soon it comes",
    arguments: [UInt32(0), 1_000, 5_000, 20_000, 100_000])
  func interruptWhileSpilled(delay: UInt32) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    let outputs = directory.appendingPathComponent("out")
    for url in [temporary, outputs] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    let generated = try CLIRunner.run(["gen", "--count", "400", "--seed", "3", "--accounts", "20"])
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "group", "--per-account", "--quiet", "--memory-limit", "1K", "--temp-dir", temporary.path, "--format", "jsonl",
      "-o", outputs.appendingPathComponent("accounts.jsonl").path,
    ]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Records in, standard input left open: the fold has spilled and is waiting for more.
    input.fileHandleForWriting.write(Data(generated.stdout))
    var waited = 0
    while waited < 2_000 {
      if !((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty { break }
      usleep(1_000)
      waited += 1
    }
    #expect(waited < 2_000, "the fold never spilled")
    // The directory may be seen the moment `mkdtemp` made it, before the worker has
    // registered it for cleanup: the cleanup waits for the registration (`TemporaryNames`).
    usleep(delay)
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.path).isEmpty)
  }

  @Test(
    "a closed output pipe ends a per-account run quietly with 0, spilled or not (the report is written on a thread of its own)"
  )
  func closedPipe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(
      try CLIRunner.run(["gen", "--count", "30000", "--seed", "4", "--accounts", "3000", "-o", dump]).status == 0)
    for limit in ["1K", "512M"] {
      let (status, errors) = try CLIRunner.runIntoClosedPipe([
        "group", "--per-account", "--quiet", "--memory-limit", limit, "--temp-dir", directory.path, "--format", "jsonl",
        dump,
      ])
      #expect(status == "status=0", "\(limit): \(status) \(errors)")
      #expect(errors.isEmpty, "\(limit): \(errors)")
    }
    // Only the dump is left: no spill directory.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["dump.jsonl"])
  }

  @Test("a run that fails after spilling leaves no temporary file and no output")
  func failureAfterSpill() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let output = directory.appendingPathComponent("accounts.jsonl").path
    // About nine chunks of records, spilled one by one, then three bad lines: past --max-rejects 2.
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "20000", "--seed", "5", "--accounts", "50", "-o", dump]).status == 0)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dump))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{bad\n{bad\n{bad\n".utf8))
    try handle.close()
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--memory-limit", "1K", "--temp-dir", temporary.path, "--max-rejects", "2", "-o",
      output, dump,
    ])
    #expect(outcome.status == 65, "\(outcome.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("records without an account are rejected missing-field, field 'account'")
  func missingAccount() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--format", "jsonl", "--rejects", rejects, Self.fixture,
    ])
    #expect(outcome.status == 0)
    let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    for (line, number) in zip(lines, [11, 21]) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["line"] as? Int == number)
      #expect(object["reason"] as? String == "missing-field")
      #expect(object["field"] as? String == "account")
    }
    // jsonl holds only the accounts' rows; the accounting is on standard error.
    #expect(!outcome.text.contains(#"{"stats""#))
    #expect(outcome.text.split(separator: "\n").count == 4)
    #expect(outcome.stderr.contains("62 lines: 60 accepted, 2 rejected"), "\(outcome.stderr)")
  }

  @Test(
    "usage errors exit 64 and say what to do",
    arguments: [
      (["--schema", "ledger"], "map one with --field account=PATH"),
      (["--format", "xml"], "xml"),
      (["--memory-limit", "0"], "--memory-limit must be a size of at least 1 byte"),
      (["--memory-limit", "lots"], "--memory-limit"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(["group", "--per-account"] + arguments + [Self.fixture])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test("--account-from-file needs --per-account and named inputs")
  func accountFromFileUsage() throws {
    let withoutPerAccount = try CLIRunner.run(["group", "--account-from-file", Self.fixture])
    #expect(withoutPerAccount.status == 64)
    #expect(withoutPerAccount.stderr.contains("--account-from-file needs --per-account"))
    let fromStandardInput = try CLIRunner.run(
      ["group", "--per-account", "--account-from-file"], stdin: Array("{}\n".utf8))
    #expect(fromStandardInput.status == 64)
    #expect(fromStandardInput.stderr.contains("standard input has no name"))
  }

  @Test("--account-from-file: one export per customer, as an array, JSON lines or gzip")
  func accountsFromFileNames() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
    // Three customers' exports: C1 a JSON array, C2 JSON lines, C3 gzip JSON lines.
    let parts = [Array(lines[0..<20]), Array(lines[25..<40]), Array(lines[40..<62])]
    let c1 = directory.appendingPathComponent("C1.json").path
    let c2 = directory.appendingPathComponent("C2.export.jsonl").path
    let c3 = directory.appendingPathComponent("C3.jsonl.gz").path
    try Data(("[\n" + parts[0].joined(separator: ",\n") + "\n]\n").utf8).write(to: URL(fileURLWithPath: c1))
    try Data((parts[1].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: c2))
    let plain = directory.appendingPathComponent("C3.jsonl")
    try Data((parts[2].joined(separator: "\n") + "\n").utf8).write(to: plain)
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-9", plain.path]
    try gzip.run()
    gzip.waitUntilExit()
    #expect(FileManager.default.fileExists(atPath: c3))

    // Listed out of order: the accounts still come in byte-wise order.
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--account-from-file", "--format", "json", "--members", "3", c3, c1, c2,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
    let accounts = try #require(report["accounts"] as? [[String: Any]])
    #expect(accounts.compactMap { $0["account"] as? String } == ["C1", "C2", "C3"])
    // Each account is exactly the whole report of its own file.
    for (account, path) in zip(accounts, [c1, c2, c3]) {
      let alone = try CLIRunner.run(["group", "--format", "json", "--members", "3", path])
      let whole = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout)) as? [String: Any])
      let sections = try JSONSerialization.data(withJSONObject: account["sections"] ?? [], options: .sortedKeys)
      let expected = try JSONSerialization.data(withJSONObject: whole["sections"] ?? [], options: .sortedKeys)
      #expect(sections == expected, "account \(account["account"] ?? "?")")
      let stats = try #require(whole["stats"] as? [String: Any])
      #expect(account["count"] as? Int == stats["accepted"] as? Int)
    }
  }
}

/// `group --per-account --emit partial` and `merge --per-account`: shards of one
/// dump, merged in any order and in stages, give the bytes of one run; every
/// damaged or mismatched partial is refused with 65 and a reason.
@Suite("merge --per-account")
struct PerAccountMergeTests {
  /// The fixture's 62 lines cut into three shards (20, 21, 21 lines), each folded to a per-account partial.
  static func shards(in directory: URL, extra: [String] = []) throws -> [String] {
    let lines = try String(contentsOfFile: PerAccountCommandTests.fixture, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    var partials: [String] = []
    for (index, range) in [0..<20, 20..<41, 41..<62].enumerated() {
      let shard = directory.appendingPathComponent("shard-\(index).jsonl").path
      try Data((lines[range].joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: shard))
      let partial = directory.appendingPathComponent("shard-\(index).part").path
      let outcome = try CLIRunner.run(
        ["group", "--per-account", "--emit", "partial", "--quiet", "-o", partial, shard] + extra)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      partials.append(partial)
    }
    return partials
  }

  @Test(
    "shards merged in any order, and in stages, equal one run in every format",
    arguments: ["jsonl", "json", "csv", "text"])
  func mergeEqualsOneRun(format: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let parts = try Self.shards(in: directory)
    let whole = try CLIRunner.run(["group", "--per-account", "--format", format, PerAccountCommandTests.fixture])
    #expect(whole.status == 0)
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
      let merged = try CLIRunner.run(["merge", "--per-account", "--format", format] + order.map { parts[$0] })
      #expect(merged.status == 0, "\(merged.stderr)")
      #expect(merged.stdout == whole.stdout, "order \(order)")
    }
    // Two stages: the first two shards merged into a partial, then with the third (gzip).
    let stage = directory.appendingPathComponent("stage.part").path
    let first = try CLIRunner.run(
      ["merge", "--per-account", "--emit", "partial", "--quiet", "-o", stage, parts[1], parts[0]])
    #expect(first.status == 0, "\(first.stderr)")
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-k", parts[2]]
    try gzip.run()
    gzip.waitUntilExit()
    let second = try CLIRunner.run(["merge", "--per-account", "--format", format, parts[2] + ".gz", stage])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == whole.stdout)
  }

  @Test("a shard whose records are all rejected still writes its partial, and the merge counts them")
  func shardWithOnlyRejections() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var parts = try Self.shards(in: directory)
    let bad = directory.appendingPathComponent("bad.jsonl").path
    try Data("{broken\n[1]\n".utf8).write(to: URL(fileURLWithPath: bad))
    let badPartial = directory.appendingPathComponent("bad.part").path
    let shard = try CLIRunner.run(["group", "--per-account", "--emit", "partial", "--quiet", "-o", badPartial, bad])
    #expect(shard.status == 0, "\(shard.stderr)")
    parts.append(badPartial)
    let merged = try CLIRunner.run(["merge", "--per-account", "--format", "json", "--quiet"] + parts)
    #expect(merged.status == 0)
    #expect(
      merged.text.hasSuffix(
        #"  "stats": {"lines":64,"accepted":60,"rejected":4,"duplicates":0,"accounts":4}"# + "\n}\n"))
    let lines = try CLIRunner.run(["merge", "--per-account", "--format", "jsonl", "--quiet"] + parts)
    #expect(lines.status == 0 && !lines.text.contains(#"{"stats""#))
    #expect(lines.text.split(separator: "\n").count == 4)
  }

  @Test("the per-account partial's first and last lines")
  func partialShape() throws {
    let outcome = try CLIRunner.run([
      "group", "--per-account", "--emit", "partial", "--members", "1", PerAccountCommandTests.fixture,
    ])
    #expect(outcome.status == 0)
    let lines = outcome.text.split(separator: "\n")
    #expect(lines.first?.hasPrefix(#"{"txfoldAccountPartial":{"version":2,"memberLimit":1,"#) == true)
    #expect(lines.first?.hasSuffix(#""accounts":"field"}}"#) == true)
    #expect(lines[1] == #"{"account":{"id":"A0000000000","groups":23}}"#)
    #expect(lines.last?.hasPrefix(#"{"stats":{"accounts":4,"groups":"#) == true)
    #expect(lines.filter { $0.hasPrefix(#"{"account":"#) }.count == 4)
  }

  @Test("damaged, mismatched and repeated partials are refused with 65")
  func refusals() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let parts = try Self.shards(in: directory)
    let otherLimit = try Self.shards(
      in: directory.appendingPathComponent("m3", isDirectory: true).creatingDirectory(), extra: ["--members", "3"])
    let plain = directory.appendingPathComponent("plain.part").path
    _ = try CLIRunner.run(["group", "--emit", "partial", "--quiet", "-o", plain, PerAccountCommandTests.fixture])
    let text = try String(contentsOfFile: parts[0], encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    let truncated = directory.appendingPathComponent("truncated.part").path
    try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: truncated))
    // Swap the first two account blocks: accounts out of order.
    let starts = lines.indices.filter { lines[$0].hasPrefix(#"{"account":"#) }
    let firstBlock = Array(lines[starts[0]..<starts[1]])
    let secondBlock = Array(lines[starts[1]..<starts[2]])
    lines.replaceSubrange(starts[0]..<starts[2], with: secondBlock + firstBlock)
    let swapped = directory.appendingPathComponent("swapped.part").path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: swapped))
    // The first account block twice: a repeated account, named as such (not "out of order").
    lines.replaceSubrange(starts[0]..<starts[2], with: firstBlock + firstBlock)
    let repeated = directory.appendingPathComponent("repeated.part").path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: repeated))

    for (inputs, message) in [
      ([plain], "merge it without --per-account"),
      ([parts[0], parts[0]], "The same input is merged twice"),
      ([truncated], "ends without its 'stats' line"),
      ([swapped], "accounts out of order"),
      ([repeated], "account 'A0000000000' repeated"),
      ([parts[0], otherLimit[1]], "different settings: --members 3"),
    ] {
      let outcome = try CLIRunner.run(["merge", "--per-account", "--format", "jsonl"] + inputs)
      #expect(outcome.status == 65, "\(inputs)")
      #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
      #expect(outcome.stdout.isEmpty)
    }
    let plainMerge = try CLIRunner.run(["merge", parts[0]])
    #expect(plainMerge.status == 65)
    #expect(plainMerge.stderr.contains("merge it with --per-account"))
  }
}

extension URL {
  fileprivate func creatingDirectory() throws -> URL {
    try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
    return self
  }
}
