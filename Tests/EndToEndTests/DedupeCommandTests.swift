import Foundation
import Testing

/// `--dedupe` on the command line: with `--per-account` (refused before),
/// over standard input, with a tiny `--memory-limit`, and with every id
/// hashing alike. The expected output is always a plain run over inputs the
/// test deduplicated by hand.
@Suite struct DedupeCommandTests {
  static func record(
    _ id: String, account: String, time: String, state: String = "COMPLETED", amount: String = "10.00",
    description: String = "v1"
  ) -> String {
    #"{"id":"\#(id)","arrangementId":"\#(account)","creationTime":"\#(time)","state":"\#(state)","#
      + #""creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"#
      + #""description":"\#(description)"}"#
  }

  /// Ids that share their first 40 bytes.
  static func id(_ suffix: String) -> String { "reference-0000000000000000000000000000000-" + suffix }

  /// Night 1 and night 2, and by hand what each keeps: t1 of A completes on
  /// night 2 (another day); t2 of A is re-sent exactly (the later one wins a
  /// tie); night 2's t3 of B is an older version (it loses); t1 of B is
  /// another transaction than t1 of A, per account.
  static let night1 = [
    record(id("t1"), account: "A", time: "2024-03-01T09:00:00Z", state: "PENDING"),
    record(id("t2"), account: "A", time: "2024-03-01T10:00:00Z", amount: "20.00"),
    record(id("t3"), account: "B", time: "2024-03-02T10:00:00Z", amount: "30.00"),
    record(id("t1"), account: "B", time: "2024-03-01T08:00:00Z", amount: "40.00"),
  ]
  static let night2 = [
    record(id("t1"), account: "A", time: "2024-03-03T09:00:00Z", description: "completed"),
    record(id("t2"), account: "A", time: "2024-03-01T10:00:00Z", amount: "20.00"),
    record(id("t3"), account: "B", time: "2024-03-01T10:00:00Z", amount: "3.00", description: "older"),
  ]
  static let kept1 = [night1[2], night1[3]]
  static let kept2 = [night2[0], night2[1]]

  static func write(_ lines: [String], _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
  }

  @Test(
    "--per-account --dedupe: each (account, id) once, as a plain run over the inputs deduplicated by hand",
    arguments: [
      ["group", "--per-account", "--format", "csv"], ["group", "--per-account", "--format", "jsonl"],
      ["list", "--per-account", "--format", "csv"], ["summary", "--per-account", "--format", "csv"],
    ])
  func perAccount(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputs = [
      try Self.write(Self.night1, "n1.jsonl", in: directory), try Self.write(Self.night2, "n2.jsonl", in: directory),
    ]
    let kept = [
      try Self.write(Self.kept1, "k1.jsonl", in: directory), try Self.write(Self.kept2, "k2.jsonl", in: directory),
    ]
    let expected = try CLIRunner.run(command + ["-q"] + kept)
    #expect(expected.status == 0, "\(expected.stderr)")
    let deduplicated = try CLIRunner.run(command + ["--dedupe", "-q"] + inputs)
    #expect(deduplicated.status == 0, "\(deduplicated.stderr)")
    #expect(deduplicated.text == expected.text)
    let stats = try CLIRunner.run(command + ["--dedupe"] + inputs)
    #expect(stats.stderr.contains("7 lines: 7 accepted, 0 rejected, 3 duplicates"), "\(stats.stderr)")
  }

  @Test("Without --per-account the key is the id alone: t1 of B is a version of t1 too")
  func wholeRun() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputs = [
      try Self.write(Self.night1, "n1.jsonl", in: directory), try Self.write(Self.night2, "n2.jsonl", in: directory),
    ]
    // t1's latest version is A's completion on night 2; B's t1 of night 1 loses to it.
    let kept = [
      try Self.write([Self.night1[2]], "k1.jsonl", in: directory),
      try Self.write(Self.kept2, "k2.jsonl", in: directory),
    ]
    let expected = try CLIRunner.run(["group", "--format", "csv", "-q"] + kept)
    let run = try CLIRunner.run(["group", "--format", "csv", "--dedupe"] + inputs)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.text == expected.text)
    #expect(run.stderr.contains("4 duplicates"), "\(run.stderr)")
  }

  @Test("Standard input (copied for the second pass), a tiny --memory-limit and colliding hashes change nothing")
  func everyWayGivesTheSameBytes() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Enough distinct ids that a 1-byte limit spills the id table many times.
    var lines: [String] = []
    for index in 0..<3_000 {
      let day = 1 + index % 20
      lines.append(
        Self.record(
          Self.id("\(index % 1_700)"), account: "A\(index % 3)",
          time: "2024-03-\(String(format: "%02d", day))T10:\(String(format: "%02d", index % 60)):00Z",
          state: index % 4 == 0 ? "PENDING" : "COMPLETED", amount: "\(index % 97).\(index % 10)5"))
    }
    let path = try Self.write(lines, "dump.jsonl", in: directory)
    let spill = directory.appendingPathComponent("spill")
    try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
    for command in [
      ["group", "--format", "csv"], ["group", "--per-account", "--format", "csv"], ["list", "--format", "csv"],
    ] {
      let plain = try CLIRunner.run(command + ["--dedupe", "-q", path])
      #expect(plain.status == 0, "\(plain.stderr)")
      #expect(!plain.text.isEmpty)
      let piped = try CLIRunner.run(
        command + ["--dedupe", "-q", "--temp-dir", spill.path, "-"],
        stdin: Array((lines.joined(separator: "\n") + "\n").utf8))
      #expect(piped.text == plain.text, "\(command) from standard input")
      let tiny = try CLIRunner.run(command + ["--dedupe", "-q", "--memory-limit", "1", "--temp-dir", spill.path, path])
      #expect(tiny.status == 0, "\(tiny.stderr)")
      #expect(tiny.text == plain.text, "\(command) with the id table spilled")
      let weak = try CLIRunner.run(command + ["--dedupe", "-q", path], environment: ["TXFOLD_WEAK_ID_HASH": "1"])
      #expect(weak.text == plain.text, "\(command) with every id hashing alike")
      #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
    }
  }

  @Test(
    "SIGINT or SIGTERM while --dedupe copies standard input: 130/143, and no directory is left in --temp-dir",
    arguments: [["group"], ["summary"], ["group", "--per-account"]], [Int32(2), Int32(15)])
  func interrupted(command: [String], signalNumber: Int32) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = command + ["--dedupe", "-q", "--temp-dir", directory.path, "-"]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Records in, standard input left open: the copy's directory is made on the first read.
    input.fileHandleForWriting.write(Data((Self.night1.joined(separator: "\n") + "\n").utf8))
    let made = CLIRunner.waitUntil(milliseconds: 5_000) {
      (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == false
    }
    #expect(made, "no temporary directory while the first pass reads")
    kill(process.processIdentifier, signalNumber)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + signalNumber)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }
}
