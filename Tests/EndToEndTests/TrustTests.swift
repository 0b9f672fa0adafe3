import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nothing lost, nothing hung: standard input and output counted by the files
/// they are, empty paths, the commit order, closed streams, FIFOs that have no
/// reader or are named twice, currency codes, escaped messages. Each test was
/// written for a defect an adversarial probe found, and ran against the build
/// before its fix (`TXFOLD_BINARY`) to see it fail. Hangs are bounded by
/// `timeout`, and every FIFO is the test's own, in its scratch directory.
@Suite("Nothing lost, nothing hung")
struct TrustTests {
  /// A scratch directory holding the sample dump as `dump.jsonl`.
  struct Scene {
    let directory: URL
    init() throws {
      directory = try CLIRunner.temporaryDirectory()
      try FileManager.default.copyItem(
        atPath: CLIRunner.fixture("corpus-one-malformed.jsonl"), toPath: path("dump.jsonl"))
    }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: directory) }
    func contents(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
    func text(_ name: String) throws -> String { String(decoding: try contents(name), as: UTF8.self) }
    func write(_ text: String, to name: String) throws {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
    }
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }
    /// `stats`'s document, parsed.
    func statsDocument(_ name: String) throws -> [String: Any] {
      try #require(JSONSerialization.jsonObject(with: Data(try contents(name))) as? [String: Any])
    }
  }

  /// Runs `script` with bash in the scene's directory, `$TXFOLD` the binary; its status, stdout and stderr.
  static func shell(_ script: String, in scene: Scene) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = scene.directory
    var environment = ProcessInfo.processInfo.environment
    environment["TXFOLD"] = CLIRunner.binary.path
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let collected = ErrorCollector(errors.fileHandleForReading)
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), collected.finish())
  }

  // MARK: - D1, D9: standard input and output are files too

  @Test(
    "An output that is the file on standard input is refused (64) and the input kept",
    arguments: [
      #"$TXFOLD group -q -o dump.jsonl < dump.jsonl"#,
      #"$TXFOLD list -q --rejects dump.jsonl < dump.jsonl"#,
      #"$TXFOLD summary -q --stats dump.jsonl < dump.jsonl"#,
      #"$TXFOLD group -q --emit partial dump.jsonl > b.partial && $TXFOLD merge -q -o b.partial < b.partial"#,
    ])
  func outputIsStandardInput(script: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let dump = try scene.contents("dump.jsonl")
    let run = try Self.shell(script, in: scene)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("standard input"), "\(run.stderr)")
    #expect(try scene.contents("dump.jsonl") == dump, "the dump is kept")
    if script.contains("merge") { #expect(try !scene.contents("b.partial").isEmpty, "the partial is kept") }
  }

  @Test(
    "A stats or rejects file that is the file standard output writes the report to is refused (64)",
    arguments: ["--stats", "--rejects"])
  func outputIsStandardOutput(option: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let run = try Self.shell("$TXFOLD group -q \(option) out.txt dump.jsonl > out.txt", in: scene)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains(option) && run.stderr.contains("standard output"), "\(run.stderr)")
    #expect(run.stderr.contains("txfold group --help") && !run.stderr.contains("<subcommand>"), "\(run.stderr)")
  }

  @Test("A report on standard output that is an input's file is refused (64)")
  func standardOutputIsInput() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let dump = try scene.contents("dump.jsonl")
    let run = try Self.shell("$TXFOLD group -q dump.jsonl >> dump.jsonl", in: scene)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(try scene.contents("dump.jsonl") == dump)
  }

  // MARK: - D10: empty paths

  @Test(
    "An empty output or temporary-directory path is refused before anything is written",
    arguments: [
      ["group", "-o", ""], ["group", "--rejects", ""], ["group", "--stats", ""], ["list", "--stats", ""],
      ["group", "--per-account", "--temp-dir", ""], ["list", "--temp-dir", ""],
      ["summary", "--per-account", "--temp-dir", ""],
      ["group", "-o", "", "--rejects", "rj", "--stats", "st"],
    ])
  func emptyPaths(arguments: [String]) throws {
    let scene = try Scene()
    defer { scene.remove() }
    try scene.write("old rejects\n", to: "rj")
    try scene.write("old stats\n", to: "st")
    let before = try scene.names()
    let run = try CLIRunner.run(arguments + ["-q", scene.path("dump.jsonl")], in: scene.directory)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("empty path"), "\(run.stderr)")
    #expect(try scene.names() == before)
    #expect(try scene.text("rj") == "old rejects\n" && scene.text("st") == "old stats\n")
  }

  // MARK: - D2: a failing commit leaves every existing output as it was

  /// Runs `group` on a dump fed through a pipe, and makes `path` a directory while it waits for the rest.
  static func runWithDirectoryAppearing(at path: String, arguments: [String], in scene: Scene) throws -> Int32 {
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = arguments
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data(try scene.contents("dump.jsonl")))
    // Once the outputs are open (their temporary files exist), the directory takes the target's place.
    let name = URL(fileURLWithPath: path).lastPathComponent
    for _ in 0..<200 where try !scene.names().contains(where: { $0.hasPrefix(".\(name).txfold-") }) {
      usleep(50_000)
    }
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test("A report that cannot be put in place (74) leaves the existing rejects as they were")
  func reportRenameFails() throws {
    let scene = try Scene()
    defer { scene.remove() }
    try scene.write("old rejects\n", to: "rejects")
    let status = try Self.runWithDirectoryAppearing(
      at: scene.path("report"),
      arguments: [
        "group", "-q", "-o", scene.path("report"), "--rejects", scene.path("rejects"), "--stats",
        scene.path("stats"),
      ],
      in: scene)
    #expect(status == 74)
    #expect(try scene.text("rejects") == "old rejects\n")
    let stats = try scene.statsDocument("stats")
    #expect(stats["exitStatus"] as? Int == 74, "the stats document, written last, tells the failure")
    #expect(try scene.names() == ["dump.jsonl", "rejects", "report", "stats"], "no temporary file is left")
  }

  @Test("A rejects file that cannot be put in place (74) puts the report already renamed back as it was")
  func rejectsRenameFailsAfterReport() throws {
    let scene = try Scene()
    defer { scene.remove() }
    try scene.write("old report\n", to: "report")
    let status = try Self.runWithDirectoryAppearing(
      at: scene.path("rejects"),
      arguments: ["group", "-q", "-o", scene.path("report"), "--rejects", scene.path("rejects")], in: scene)
    #expect(status == 74)
    #expect(try scene.text("report") == "old report\n", "the report renamed first is put back")
    #expect(try scene.names() == ["dump.jsonl", "rejects", "report"], "no temporary file or second name is left")
  }

  @Test("A new report renamed before a failing rejects file is removed again (74)")
  func newReportRemovedOnFailure() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let status = try Self.runWithDirectoryAppearing(
      at: scene.path("rejects"),
      arguments: ["group", "-q", "-o", scene.path("report"), "--rejects", scene.path("rejects")], in: scene)
    #expect(status == 74)
    #expect(try scene.names() == ["dump.jsonl", "rejects"])
  }

  // MARK: - D11 and §11: the stats document on every exit

  @Test("A closed report pipe (0) still replaces the stats document, which says the report is incomplete")
  func closedPipeWritesStats() throws {
    let scene = try Scene()
    defer { scene.remove() }
    try scene.write("old stats\n", to: "stats.json")
    let dump = scene.path("big.jsonl")
    let gen = try CLIRunner.run(["gen", "--count", "20000", "--seed", "3", "-o", dump])
    try #require(gen.status == 0)
    let (status, errors) = try CLIRunner.runIntoClosedPipe(
      ["list", "--quiet", "--format", "jsonl", "--stats", scene.path("stats.json"), dump])
    #expect(status == "status=0", "\(errors)")
    let stats = try scene.statsDocument("stats.json")
    #expect(stats["exitStatus"] as? Int == 0)
    #expect((stats["error"] as? String)?.contains("closed") == true, "\(stats)")
  }

  @Test(
    "A closed --rejects pipe ends the rejects, not the run: 0, the report and stats written, every rejection counted")
  func closedRejectsPipe() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let generated = scene.path("good.jsonl")
    try #require(try CLIRunner.run(["gen", "--count", "2000", "--seed", "3", "-o", generated]).status == 0)
    // Ten bad lines after each good one: far more rejects than a pipe holds once its reader is gone.
    let good = try String(contentsOfFile: generated, encoding: .utf8).split(separator: "\n")
    try scene.write(good.map { $0 + "\n" + String(repeating: "{bad\n", count: 10) }.joined(), to: "dump.jsonl")
    for command in ["group", "list", "summary"] {
      let (status, errors) = try CLIRunner.runIntoClosedPipe([
        command, "--quiet", "--rejects", "-", "-o", scene.path("report"), "--stats", scene.path("stats.json"),
        scene.path("dump.jsonl"),
      ])
      #expect(status == "status=0", "\(command): \(errors)")
      #expect(errors.contains("the reader of --rejects '-' closed its end of the pipe"), "\(command): \(errors)")
      let expected = try CLIRunner.run([command, "--quiet", scene.path("dump.jsonl")])
      #expect(try scene.contents("report") == expected.stdout, "\(command)")
      let stats = try scene.statsDocument("stats.json")
      #expect(stats["exitStatus"] as? Int == 0, "\(command): \(stats)")
      #expect(stats["rejected"] as? Int == 20_000, "\(command): \(stats)")
      try FileManager.default.removeItem(atPath: scene.path("report"))
    }
  }

  struct FailingRun: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var arguments: @Sendable (Scene) throws -> [String]
    var status: Int32
  }

  static let failingRuns: [FailingRun] = [
    FailingRun(
      testDescription: "65 --strict", arguments: { ["group", "--strict", $0.path("dump.jsonl")] }, status: 65),
    FailingRun(
      testDescription: "65 --max-reject-rate",
      arguments: { ["summary", "--max-reject-rate", "0", $0.path("dump.jsonl")] },
      status: 65),
    FailingRun(testDescription: "66 missing input", arguments: { ["list", $0.path("absent.jsonl")] }, status: 66),
    FailingRun(
      testDescription: "73 report directory missing",
      arguments: { ["group", "-o", $0.path("missing/report"), $0.path("dump.jsonl")] }, status: 73),
    FailingRun(
      testDescription: "74 truncated gzip",
      arguments: { _ in ["group", CLIRunner.fixture("corpus-truncated.jsonl.gz")] }, status: 74),
    FailingRun(
      testDescription: "65 merge of a malformed partial",
      arguments: { scene in
        try scene.write("{\"not\": \"a partial\"}\n", to: "bad.partial")
        return ["merge", scene.path("bad.partial")]
      }, status: 65),
  ]

  @Test("Every failing exit writes the stats document, with its status and message", arguments: failingRuns)
  func statsOnFailure(run failing: FailingRun) throws {
    let scene = try Scene()
    defer { scene.remove() }
    try scene.write("old stats\n", to: "stats.json")
    let arguments = try failing.arguments(scene)
    let run = try CLIRunner.run(
      [arguments[0], "-q", "--stats", scene.path("stats.json")] + arguments.dropFirst(), in: scene.directory)
    #expect(run.status == failing.status, "\(run.stderr)")
    let stats = try scene.statsDocument("stats.json")
    #expect(stats["exitStatus"] as? Int == Int(failing.status))
    let error = try #require(stats["error"] as? String, "\(stats)")
    #expect(run.stderr.contains(error), "the message as printed: \(error) / \(run.stderr)")
    #expect(stats["statsVersion"] as? Int == 2)
    #expect((stats["argv"] as? [String])?.dropFirst().first == arguments[0])
    #expect(stats["startedAt"] is String && stats["endedAt"] is String)
    #expect(stats["lines"] is NSNull, "a failed run has no complete counts")
    #expect(try scene.names().filter { $0.hasPrefix(".") }.isEmpty, "no temporary file is left")
  }

  @Test("A successful run's stats document names the inputs, with their sizes, and the times")
  func statsOnSuccess() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let run = try CLIRunner.run(["group", "-q", "--stats", scene.path("s.json"), scene.path("dump.jsonl")])
    #expect(run.status == 0)
    let stats = try scene.statsDocument("s.json")
    #expect(stats["exitStatus"] as? Int == 0 && stats["error"] is NSNull)
    let inputs = try #require(stats["inputs"] as? [[String: Any]])
    #expect(inputs.count == 1)
    #expect(inputs.first?["path"] as? String == scene.path("dump.jsonl"))
    #expect(inputs.first?["bytes"] as? Int == (try scene.contents("dump.jsonl")).count)
    #expect(inputs.first?["fingerprint"] is String)
    let lines = try #require(stats["lines"] as? Int)
    #expect(lines == 9 && stats["accepted"] as? Int == 8 && stats["rejected"] as? Int == 1, "\(stats)")
  }

  // MARK: - D3, D13: FIFOs

  @Test(
    "SIGINT ends a run whose output FIFO has no reader (130), leaving no temporary file",
    arguments: ["-o", "--stats", "--rejects"])
  func interruptWhileWaitingForFifoReader(option: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    try #require(mkfifo(scene.path("fifo"), 0o600) == 0)
    try scene.write("old\n", to: "report")
    let others = option == "-o" ? ["--stats", scene.path("stats")] : ["-o", scene.path("report")]
    let script = """
      $TXFOLD group -q \(option) fifo \(others.joined(separator: " ")) dump.jsonl & pid=$!
      sleep 0.5; kill -INT $pid
      for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      if kill -0 $pid 2>/dev/null; then kill -KILL $pid; echo hung; fi
      wait $pid; echo "status=$?"
      """
    let run = try Self.shell(script, in: scene)
    #expect(run.stdout.contains("status=130") && !run.stdout.contains("hung"), "\(run.stdout) \(run.stderr)")
    #expect(try scene.text("report") == "old\n")
    #expect(try scene.names().filter { $0.hasPrefix(".") }.isEmpty, "no temporary file is left")
    if option == "-o" {
      // The stats document, opened first, says the run was interrupted (130).
      let stats = try scene.statsDocument("stats")
      #expect(stats["exitStatus"] as? Int == 130 && (stats["error"] as? String)?.contains("SIGINT") == true)
    }
  }

  @Test("A FIFO named twice as input is refused (64) instead of waiting forever")
  func fifoNamedTwice() throws {
    let scene = try Scene()
    defer { scene.remove() }
    try #require(mkfifo(scene.path("fifo"), 0o600) == 0)
    let run = try Self.shell(
      "(cat dump.jsonl > fifo &) ; timeout -s KILL 10 $TXFOLD group -q fifo fifo; echo \"status=$?\"; "
        + "timeout -s KILL 2 cat fifo > /dev/null; true",
      in: scene)
    #expect(run.stdout.contains("status=64"), "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("named twice"), "\(run.stderr)")
  }

  @Test("A FIFO inside TZDIR is not a zone file: refused at once, not waited on")
  func fifoInZoneDatabase() throws {
    let scene = try Scene()
    defer { scene.remove() }
    try FileManager.default.createDirectory(atPath: scene.path("zones/Europe"), withIntermediateDirectories: true)
    try #require(mkfifo(scene.path("zones/Europe/Amsterdam"), 0o600) == 0)
    let run = try Self.shell(
      "TZDIR=\"$PWD/zones\" timeout -s KILL 10 $TXFOLD group -q --timezone Europe/Amsterdam dump.jsonl; echo \"status=$?\"",
      in: scene)
    #expect(!run.stdout.contains("status=137"), "it waited: \(run.stdout)")
    #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
  }

  // MARK: - FIFO inputs are opened once

  /// The runs over one FIFO input, each as its arguments before the input.
  static let fifoRuns: [[String]] = [
    ["group", "-q", "--format", "csv"], ["group", "-q", "--format", "csv", "--dedupe"],
    ["group", "-q", "--format", "csv", "--per-account"], ["list", "-q", "--format", "csv"],
    ["summary", "-q", "--format", "csv"], ["merge", "-q", "--format", "csv"],
  ]

  @Test(
    "A FIFO input whose writer writes and closes at once is read, not waited on forever",
    arguments: fifoRuns)
  func fifoWriterDoneBeforeRead(arguments: [String]) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let lines = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
      .split(separator: "\n").prefix(30)
    try scene.write(lines.joined(separator: "\n") + "\n", to: "records.jsonl")
    var input = "records.jsonl"
    if arguments[0] == "merge" {
      let partial = try CLIRunner.run(["group", "-q", "--emit", "partial", scene.path("records.jsonl")])
      try #require(partial.status == 0, "\(partial.stderr)")
      try scene.write(partial.text, to: "records.partial")
      input = "records.partial"
    }
    let expected = try CLIRunner.run(arguments + [scene.path(input)])
    try #require(expected.status == 0, "\(expected.stderr)")
    let bytes = try scene.contents(input)
    let command = arguments.map { "'\($0)'" }.joined(separator: " ")
    for round in 1...5 {
      try? FileManager.default.removeItem(atPath: scene.path("fifo"))
      try #require(mkfifo(scene.path("fifo"), 0o600) == 0)
      let writer = FIFOWriter(path: scene.path("fifo"), bytes: bytes, giveUpAfter: 15)
      let run = try Self.shell("timeout -s KILL 10 $TXFOLD \(command) fifo > out.csv; echo \"status=$?\"", in: scene)
      writer.wait()
      #expect(run.stdout == "status=0\n", "round \(round): \(run.stdout) \(run.stderr)")
      #expect(try scene.contents("out.csv") == expected.stdout, "round \(round)")
      guard run.stdout == "status=0\n" else { return }
    }
  }

  /// A producer as fast as any: it opens the FIFO the moment a reader has
  /// (a non-blocking open, retried), writes every byte and closes at once, on
  /// a thread of its own. A reader that opened the FIFO to check it, closed it
  /// and opened it again lost those bytes with its first descriptor and waited
  /// forever on the second open. SIGPIPE is blocked on the thread: a reader
  /// that closes first makes the write fail, not the tests' process end.
  final class FIFOWriter: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(path: String, bytes: [UInt8], giveUpAfter seconds: Double) {
      Thread.detachNewThread { [done] in
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let deadline = Date().addingTimeInterval(seconds)
        var descriptor: Int32 = -1
        while descriptor < 0 && Date() < deadline {
          // ENXIO until a reader has the FIFO open.
          descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
          if descriptor < 0 { sched_yield() }
        }
        var offset = 0
        while descriptor >= 0 && offset < bytes.count && Date() < deadline {
          let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
          if count > 0 {
            offset += count
          } else if errno == EAGAIN || errno == EINTR {
            sched_yield()
          } else {
            break
          }
        }
        if descriptor >= 0 { close(descriptor) }
        done.signal()
      }
    }

    /// Waits until the writer has closed the FIFO or given up.
    func wait() { done.wait() }
  }

  // MARK: - D8: a closed standard input

  @Test("A closed standard input is an input that cannot be opened (66), not an empty one")
  func closedStandardInput() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let run = try Self.shell("$TXFOLD group -q --stats s.json <&-; echo \"status=$?\"", in: scene)
    #expect(run.stdout.contains("status=66"), "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("standard input is closed"), "\(run.stderr)")
    #expect(try scene.statsDocument("s.json")["exitStatus"] as? Int == 66)
  }

  // MARK: - D6: merge checks

  @Test("merge refuses a partial that counts duplicates without dedupe (65)")
  func mergeRefusesDuplicatesWithoutDedupe() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let partial = try CLIRunner.run(["group", "-q", "--emit", "partial", scene.path("dump.jsonl")])
    try #require(partial.status == 0)
    let forged = partial.text.replacingOccurrences(of: "\"duplicates\":0", with: "\"duplicates\":1000")
    try #require(forged != partial.text)
    try scene.write(forged, to: "forged.partial")
    let run = try CLIRunner.run(["merge", "-q", scene.path("forged.partial")])
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains("duplicates"), "\(run.stderr)")
  }

  /// Edits of a per-account partial that a plain partial's checks refuse.
  enum AccountPartialForgery: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case groupRepeated, dateContradictsLatest, groupsOutOfOrder
    var testDescription: String { rawValue }

    /// The partial's lines, edited; its counts kept consistent.
    func apply(to lines: [String]) throws -> [String] {
      var lines = lines
      switch self {
      case .groupRepeated:
        // The account's first group and its member once more, with every count raised to match.
        lines.insert(contentsOf: lines[2...3], at: 4)
        let account = try #require(lines[1].range(of: #""groups":\d+"#, options: .regularExpression))
        let groups = try #require(Int(lines[1][account].dropFirst(9)))
        lines[1].replaceSubrange(account, with: "\"groups\":\(groups + 1)")
        let statsIndex = try #require(lines.lastIndex { $0.hasPrefix("{\"stats\"") })
        let document = try #require(
          JSONSerialization.jsonObject(with: Data(lines[statsIndex].utf8)) as? [String: [String: Any]])
        var stats = try #require(document["stats"])
        for key in ["groups", "lines", "accepted"] {
          stats[key] = try #require(stats[key] as? Int) + 1
        }
        lines[statsIndex] = String(
          decoding: try JSONSerialization.data(withJSONObject: ["stats": stats]), as: UTF8.self)
      case .dateContradictsLatest:
        lines[2] = lines[2].replacingOccurrences(of: #""date":"2023-01-01""#, with: #""date":"2023-01-02""#)
      case .groupsOutOfOrder:
        lines.swapAt(2, 4)
        lines.swapAt(3, 5)
      }
      return lines
    }
  }

  @Test(
    "merge --per-account makes the group checks plain merge makes (65)", arguments: AccountPartialForgery.allCases)
  func perAccountMergeChecksGroups(forgery: AccountPartialForgery) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let partial = try CLIRunner.run(
      ["group", "-q", "--per-account", "--emit", "partial", CLIRunner.fixture("per-account.jsonl")])
    try #require(partial.status == 0)
    let lines = partial.text.split(separator: "\n").map(String.init)
    try #require(lines[2].contains(#""date":"2023-01-01""#) && lines[4].contains(#""date":"2023-01-25""#))
    try scene.write(lines.joined(separator: "\n") + "\n", to: "good.partial")
    let good = try CLIRunner.run(["merge", "-q", "--per-account", scene.path("good.partial")])
    try #require(good.status == 0, "the unedited partial merges: \(good.stderr)")
    try scene.write(try forgery.apply(to: lines).joined(separator: "\n") + "\n", to: "forged.partial")
    let run = try CLIRunner.run(["merge", "-q", "--per-account", scene.path("forged.partial")])
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
  }

  // MARK: - D7: currency codes

  static func currencyLine(_ id: Int, _ code: String) -> String {
    #"{"id":"\#(id)","transactionAmountCurrency":{"amount":"1.00","currencyCode":"\#(code)"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"PENDING"}"#
  }

  @Test("Currency codes are upper-cased in every command; surrounding spaces are invalid-field")
  func currencyCodes() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let lines = [
      Self.currencyLine(1, "EUR"), Self.currencyLine(2, "eur"), Self.currencyLine(3, "Eur"),
      Self.currencyLine(4, " EUR"), Self.currencyLine(5, "EUR "),
    ]
    try scene.write(lines.joined(separator: "\n") + "\n", to: "codes.jsonl")
    let group = try CLIRunner.run(["group", "-q", "--format", "csv", scene.path("codes.jsonl")])
    #expect(
      group.text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",")[4] } == ["EUR"],
      "\(group.text)")
    #expect(group.text.contains(",3,EUR,3,3.00,"), "\(group.text)")
    let list = try CLIRunner.run(["list", "-q", "--format", "csv", scene.path("codes.jsonl")])
    #expect(
      list.text.split(whereSeparator: \.isNewline).dropFirst().allSatisfy { $0.contains(",EUR,") }, "\(list.text)")
    let summary = try CLIRunner.run(["summary", "-q", "--format", "csv", scene.path("codes.jsonl")])
    #expect(summary.text.contains("EUR,3,3.00,0.00"), "\(summary.text)")
    let rejected = try CLIRunner.run(
      ["group", "--rejects", "-", "-o", scene.path("report.txt"), scene.path("codes.jsonl")])
    #expect(rejected.text.components(separatedBy: "invalid-field").count - 1 == 2, "\(rejected.text)")
    #expect(rejected.stderr.contains("3 accepted, 2 rejected"), "\(rejected.stderr)")
  }

  // MARK: - D5: open descriptors

  @Test("A sort into more runs than the soft descriptor limit allows still succeeds: the soft limit is raised")
  func softDescriptorLimitRaised() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let gen = try CLIRunner.run(["gen", "--count", "20000", "--seed", "5", "-o", scene.path("big.jsonl")])
    try #require(gen.status == 0)
    let expected = try CLIRunner.run(["list", "-q", "--format", "csv", scene.path("big.jsonl")])
    try #require(expected.status == 0)
    let run = try Self.shell(
      "[ \"$(ulimit -Hn)\" = unlimited ] || [ \"$(ulimit -Hn)\" -ge 4096 ] || { echo skipped; exit 0; }; "
        + "ulimit -Sn 256; $TXFOLD list -q --format csv --memory-limit 4K big.jsonl > sorted.csv; echo \"status=$?\"",
      in: scene)
    if run.stdout.contains("skipped") { return }
    #expect(run.stdout.contains("status=0"), "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("sorted.csv") == expected.stdout)
  }

  @Test("When the hard descriptor limit is reached, the message names the limit")
  func hardDescriptorLimitNamed() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let gen = try CLIRunner.run(["gen", "--count", "20000", "--seed", "5", "-o", scene.path("big.jsonl")])
    try #require(gen.status == 0)
    let run = try Self.shell(
      "ulimit -n 64; $TXFOLD list -q --format csv --memory-limit 4K big.jsonl > sorted.csv; echo \"status=$?\"",
      in: scene)
    // More runs than descriptors: either merged within the budget, or refused with the limit named.
    if !run.stdout.contains("status=0") {
      #expect(run.stdout.contains("status=74"), "\(run.stdout) \(run.stderr)")
      #expect(run.stderr.contains("the limit is 64 open files"), "\(run.stderr)")
    }
  }

  @Test("group --per-account spilling more runs than descriptors allow merges them in passes, same bytes")
  func perAccountRunsMergedInPasses() throws {
    let scene = try Scene()
    defer { scene.remove() }
    // 40,000 records over 300 accounts: at 4K every chunk spills, about 18 runs, more than the 12 descriptors.
    let gen = try CLIRunner.run(
      ["gen", "--count", "40000", "--seed", "5", "--accounts", "300", "-o", scene.path("accounts.jsonl")])
    try #require(gen.status == 0)
    let expected = try CLIRunner.run([
      "group", "-q", "--per-account", "--format", "jsonl", scene.path("accounts.jsonl"),
    ])
    try #require(expected.status == 0)
    let run = try Self.shell(
      "ulimit -n 12; TMPDIR=$PWD timeout -s KILL 300 $TXFOLD group -q --per-account --format jsonl --threads 2 "
        + "--memory-limit 4K accounts.jsonl > out.jsonl; echo \"status=$?\"",
      in: scene)
    #expect(run.stdout.contains("status=0"), "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("out.jsonl") == expected.stdout)
    #expect(try scene.names().allSatisfy { !$0.hasPrefix("txfold-sort-") }, "no spill directory left")
  }

  @Test(
    "list and summary --per-account sort into more runs than descriptors allow: merged in passes, same bytes",
    arguments: ["list", "summary"])
  func perAccountSortInPasses(command: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    // At 4K a run holds a few records: hundreds of runs for 5,000 records, against 64 descriptors.
    let gen = try CLIRunner.run(
      ["gen", "--count", "5000", "--seed", "3", "--accounts", "50", "-o", scene.path("accounts.jsonl")])
    try #require(gen.status == 0)
    let expected = try CLIRunner.run([command, "-q", "--per-account", "--format", "csv", scene.path("accounts.jsonl")])
    try #require(expected.status == 0)
    let run = try Self.shell(
      "ulimit -n 64; TMPDIR=$PWD timeout -s KILL 300 $TXFOLD \(command) -q --per-account --format csv "
        + "--memory-limit 4K accounts.jsonl > out.csv; echo \"status=$?\"",
      in: scene)
    #expect(run.stdout.contains("status=0"), "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("out.csv") == expected.stdout)
    #expect(try scene.names().allSatisfy { !$0.hasPrefix("txfold-sort-") }, "no spill directory left")
  }

  @Test("merge --per-account of 300 partials under 64 descriptors merges in passes: the bytes of a merge in steps")
  func perAccountMergeOfManyPartials() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let gen = try CLIRunner.run(
      ["gen", "--count", "60", "--seed", "9", "--accounts", "12", "-o", scene.path("base.jsonl")])
    try #require(gen.status == 0)
    let base = try CLIRunner.run(["group", "-q", "--per-account", "--emit", "partial", scene.path("base.jsonl")])
    try #require(base.status == 0)
    // 300 partials of distinct inputs (the fingerprint changed), their accounts spread over 7 prefixes
    // so that each account is merged from about 43 of them.
    let fingerprint = try NSRegularExpression(pattern: #""xxh64":"[0-9a-f]+""#)
    var names: [String] = []
    for index in 0..<300 {
      var text = base.text.replacingOccurrences(of: #"{"account":{"id":""#, with: #"{"account":{"id":"\#(index % 7)-"#)
      let first = try #require(fingerprint.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
      text = (text as NSString).replacingCharacters(
        in: first.range, with: "\"xxh64\":\"\(String(format: "%016llx", 0x1000 + index))\"")
      let name = String(format: "p%03d.apartial", index)
      try scene.write(text, to: name)
      names.append(name)
    }
    // The reference: three merges of 100, each within the limit, then their merge.
    for (step, slice) in [names[0..<100], names[100..<200], names[200..<300]].enumerated() {
      let merged = try CLIRunner.run(
        ["merge", "-q", "--per-account", "--emit", "partial", "-o", scene.path("step\(step).apartial")]
          + slice.map { scene.path($0) })
      try #require(merged.status == 0, "\(merged.stderr)")
    }
    let expected = try CLIRunner.run(
      ["merge", "-q", "--per-account", "--format", "jsonl"] + (0..<3).map { scene.path("step\($0).apartial") })
    try #require(expected.status == 0, "\(expected.stderr)")
    let run = try Self.shell(
      "ulimit -n 64; TMPDIR=$PWD timeout -s KILL 300 $TXFOLD merge -q --per-account --format jsonl "
        + "-o out.jsonl p*.apartial; echo \"status=$?\"",
      in: scene)
    #expect(run.stdout.contains("status=0"), "\(run.stdout) \(run.stderr)")
    #expect(try scene.contents("out.jsonl") == expected.stdout)
    #expect(try scene.names().allSatisfy { !$0.hasPrefix("txfold-sort-") }, "no spill directory left")
  }

  // MARK: - D12, D14: messages and names

  @Test("Terminal escapes in a file name are shown escaped, never sent to the terminal")
  func escapesInMessages() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let evil = scene.path("evil\u{1B}[31mRED\u{07}.jsonl")
    let missing = try CLIRunner.run(["group", evil])
    #expect(missing.status == 66)
    #expect(
      !missing.stderr.contains("\u{1B}") && !missing.stderr.contains("\u{07}"), "\(missing.stderr.debugDescription)")
    #expect(missing.stderr.contains("evil\\x1B[31mRED\\x07.jsonl"), "\(missing.stderr)")
    try scene.write("x\n", to: "evil\u{1B}[31mRED\u{07}.jsonl")
    let conflict = try CLIRunner.run(["group", "-o", evil, evil])
    #expect(conflict.status == 64)
    #expect(!conflict.stderr.contains("\u{1B}"), "\(conflict.stderr.debugDescription)")
    // A partial's schema, shown in merge's run summary.
    let partial = try CLIRunner.run(["group", "-q", "--emit", "partial", scene.path("dump.jsonl")])
    // (A template: its `\\u001b` writes the JSON escape `\u001b`.)
    let forged = partial.text.replacingOccurrences(
      of: #""schema":"[^"]*""#, with: #""schema":"evil\\u001b[31mRED""#, options: .regularExpression)
    try #require(forged != partial.text)
    try scene.write(forged, to: "evil.partial")
    let merged = try CLIRunner.run(["merge", "-o", scene.path("merged.json"), scene.path("evil.partial")])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(
      merged.stderr.contains("evil\\x1B[31mRED") && !merged.stderr.contains("\u{1B}"),
      "\(merged.stderr.debugDescription)")
  }

  @Test("Bidirectional overrides and isolates in a file name are shown escaped, never reorder the message")
  func bidiInMessages() throws {
    let scene = try Scene()
    defer { scene.remove() }
    // U+202E RIGHT-TO-LEFT OVERRIDE shows `evil\u{202E}lmth.exe` as `evilexe.html`.
    let evil = scene.path("evil\u{202E}lmth.exe\u{2066}x\u{2069}.jsonl")
    let missing = try CLIRunner.run(["group", evil])
    #expect(missing.status == 66)
    for control in ["\u{202E}", "\u{2066}", "\u{2069}"] {
      #expect(!missing.stderr.contains(control), "\(missing.stderr.debugDescription)")
    }
    #expect(missing.stderr.contains("evil\\u{202E}lmth.exe\\u{2066}x\\u{2069}.jsonl"), "\(missing.stderr)")
  }

  /// Zero-width and other format characters print nothing, so `Fo\u{200B}od` looked like `Food`:
  /// text and html show every one as U+FFFD (the rule of the bidi overrides); json and csv keep
  /// the text as read.
  @Test(
    "Zero-width and other invisible format characters show as U+FFFD in text and html, kept in json and csv",
    arguments: ["\u{200B}", "\u{200D}", "\u{200E}", "\u{2060}", "\u{2064}", "\u{FEFF}", "\u{00AD}", "\u{E0041}"])
  func invisibleCharacters(hidden: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let lookalike = "Fo\(hidden)od"
    let records = [("1", "Food"), ("2", lookalike)].map { id, text in
      #"{"id":"\#(id)","transactionAmountCurrency":{"amount":"5.00","currencyCode":"EUR"},"#
        + #""creditDebitIndicator":"DBIT","creationTime":"2024-01-05T10:00:00Z","state":"COMPLETED","#
        + #""category":"\#(text)","description":"\#(text) shop"}"#
    }
    try records.joined(separator: "\n").appending("\n").write(
      toFile: scene.path("lookalike.jsonl"), atomically: true, encoding: .utf8)
    let input = scene.path("lookalike.jsonl")
    for command in [["summary"], ["list"], ["group"]] {
      for format in ["text", "html"] {
        let run = try CLIRunner.run(command + ["-q", "--format", format, input])
        #expect(run.status == 0, "\(run.stderr)")
        // Bytes, not characters: a joiner is part of the character before it.
        #expect(!run.stdout.contains(Array(hidden.utf8)), "\(command) \(format)")
        #expect(run.stdout.contains(Array("Fo\u{FFFD}od".utf8)), "\(command) \(format): \(run.text)")
      }
    }
    for format in ["json", "csv"] {
      let run = try CLIRunner.run(["list", "-q", "--format", format, input])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains(Array(lookalike.utf8)), "\(format)")
      #expect(!run.stdout.contains(Array("\u{FFFD}".utf8)), "\(format)")
    }
  }

  /// A joiner between two scalars of a script that joins (an emoji sequence, a Persian word's
  /// non-joiner) does a joiner's work and is shown; between Latin letters it only hides, and
  /// `invisibleCharacters` shows it as U+FFFD.
  @Test(
    "Joiners in emoji sequences and Persian words are shown in text and html; between Latin letters they are not",
    arguments: ["👩\u{200D}💻 club", "می\u{200C}خواهم", "क्\u{200D}ष"])
  func joinersWhereScriptsNeedThem(text: String) throws {
    let scene = try Scene()
    defer { scene.remove() }
    let records = [("1", text), ("2", "Fo\u{200D}od")].map { id, text in
      #"{"id":"\#(id)","transactionAmountCurrency":{"amount":"5.00","currencyCode":"EUR"},"#
        + #""creditDebitIndicator":"DBIT","creationTime":"2024-01-05T10:00:00Z","state":"COMPLETED","#
        + #""category":"\#(text)","description":"\#(text)"}"#
    }
    try records.joined(separator: "\n").appending("\n").write(
      toFile: scene.path("joiners.jsonl"), atomically: true, encoding: .utf8)
    for command in [["summary"], ["list"], ["group"]] {
      for format in ["text", "html"] {
        let run = try CLIRunner.run(command + ["-q", "--format", format, scene.path("joiners.jsonl")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(Array(text.utf8)), "\(command) \(format): \(run.text)")
        #expect(run.stdout.contains(Array("Fo\u{FFFD}od".utf8)), "\(command) \(format): \(run.text)")
      }
    }
  }

  @Test(
    "--memory-limit and --temp-dir are refused where nothing spills, not silently ignored",
    arguments: [
      ["group", "--memory-limit", "1M"], ["group", "--temp-dir", "."], ["summary", "--memory-limit", "1M"],
      ["summary", "--temp-dir", "."],
    ])
  func spillOptionsWhereNothingSpills(arguments: [String]) throws {
    let run = try CLIRunner.run(arguments + ["-q", CLIRunner.fixture("corpus.jsonl")])
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("needs --per-account"), "\(run.stderr)")
  }

  @Test("The IANA zone names GMT+0 and GMT-0 are zones, not refused offsets", arguments: ["GMT+0", "GMT-0"])
  func zeroOffsetZoneNames(name: String) throws {
    // Without the system's zone database (tzdata) there is nothing to read; .ci/run installs it.
    guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name) else { return }
    let zoned = try CLIRunner.run([
      "group", "-q", "--format", "csv", "--timezone", name, CLIRunner.fixture("corpus.jsonl"),
    ])
    let utc = try CLIRunner.run([
      "group", "-q", "--format", "csv", "--timezone", "UTC", CLIRunner.fixture("corpus.jsonl"),
    ])
    #expect(zoned.status == 0, "\(zoned.stderr)")
    #expect(zoned.stdout == utc.stdout)
  }

  @Test("UTF-16 and compressed input are diagnosed as such, not as CR-only line ends")
  func encodingDiagnosis() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let text = try scene.text("dump.jsonl")
    var utf16 = Data([0xFF, 0xFE])
    utf16.append(text.data(using: .utf16LittleEndian) ?? Data())
    try utf16.write(to: URL(fileURLWithPath: scene.path("utf16.jsonl")))
    let wide = try CLIRunner.run(["group", "-q", scene.path("utf16.jsonl")])
    #expect(wide.status == 65)
    #expect(wide.stderr.contains("UTF-16") && !wide.stderr.contains("CR-only"), "\(wide.stderr)")
    // Bytes with carriage returns here and there, as compressed data has.
    var binary: [UInt8] = [0x78, 0x9C, 0x01, 0x0D, 0x00, 0x8F, 0x0D, 0x41, 0x00, 0x13]
    binary += (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }.filter { $0 != 0x0A }
    binary.append(0x0A)  // a whole line: without it, an input that ends inside a record is cut off (74)
    try Data(binary).write(to: URL(fileURLWithPath: scene.path("packed.bin")))
    let packed = try CLIRunner.run(["group", "-q", scene.path("packed.bin")])
    #expect(packed.status == 65)
    #expect(packed.stderr.contains("binary data") && !packed.stderr.contains("CR-only"), "\(packed.stderr)")
  }

  @Test("A partial whose version is the string \"3\" is not told it has version 3 and needs version 3")
  func stringVersionMessage() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let partial = try CLIRunner.run(["group", "-q", "--emit", "partial", scene.path("dump.jsonl")])
    let forged = partial.text.replacingOccurrences(of: "\"version\":3", with: "\"version\":\"3\"")
    try #require(forged != partial.text)
    try scene.write(forged, to: "string.partial")
    let run = try CLIRunner.run(["merge", "-q", scene.path("string.partial")])
    #expect(run.status == 65)
    #expect(run.stderr.contains("a string, not a number"), "\(run.stderr)")
  }

  @Test("An output name of 250 bytes is written (its temporary file's name is shortened)")
  func longOutputName() throws {
    let scene = try Scene()
    defer { scene.remove() }
    let name = String(repeating: "r", count: 246) + ".txt"
    let run = try CLIRunner.run(["group", "-q", "-o", scene.path(name), scene.path("dump.jsonl")])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try scene.names() == ["dump.jsonl", name])
  }
}
