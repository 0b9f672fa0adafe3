import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outputs never destroy anything: every kind of output path with every
/// command, outputs that name inputs, missing directories, a full disk, and
/// what each failing exit leaves of existing files (README, "Outputs").
@Suite("Output safety")
struct OutputSafetyTests {
  /// Where `-o` points.
  enum OutputKind: String, CaseIterable, CustomTestStringConvertible {
    case regularFile, newFile, symbolicLink, danglingSymbolicLink, fifo, linkToFifo, terminal, standardOutput
    var testDescription: String { rawValue }
  }

  @Test("Every kind of output path, with every command", arguments: OutputCommand.allCases, OutputKind.allCases)
  func outputKinds(command: OutputCommand, kind: OutputKind) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let expected = try CLIRunner.run(command.arguments(scene))
    try #require(expected.status == 0, "\(expected.stderr)")
    try #require(!expected.stdout.isEmpty)
    let before = try scene.names()

    switch kind {
    case .regularFile:
      try scene.write("an older report\n", to: "report", mode: 0o600)
      let run = try CLIRunner.run(command.arguments(scene, output: scene.path("report")))
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.isEmpty)
      #expect(try sameBytes(scene.contents("report"), expected.stdout))
      #expect(scene.mode("report") == S_IFREG | 0o600, "the replaced file keeps its permissions")
      #expect(try scene.names() == (before + ["report"]).sorted(), "no temporary file is left")

    case .newFile:
      let mask = umask(0)
      umask(mask)
      let run = try CLIRunner.run(command.arguments(scene, output: scene.path("report")))
      #expect(run.status == 0, "\(run.stderr)")
      #expect(try sameBytes(scene.contents("report"), expected.stdout))
      #expect(scene.mode("report") == S_IFREG | (0o666 & ~mask), "a new file gets the umask's permissions")
      #expect(try scene.names() == (before + ["report"]).sorted())

    case .symbolicLink, .danglingSymbolicLink:
      // The link is relative and goes through a second link, as links in real setups do.
      try FileManager.default.createDirectory(atPath: scene.path("reports"), withIntermediateDirectories: false)
      if kind == .symbolicLink { try scene.write("an older report\n", to: "reports/today", mode: 0o640) }
      symlink("reports/today", scene.path("middle"))
      symlink("middle", scene.path("link"))
      let run = try CLIRunner.run(command.arguments(scene, output: scene.path("link")))
      #expect(run.status == 0, "\(run.stderr)")
      #expect(try sameBytes(scene.contents("reports/today"), expected.stdout), "the link's final target is written")
      #expect(scene.mode("link").map { $0 & S_IFMT } == S_IFLNK, "the link stays a link")
      #expect(scene.mode("middle").map { $0 & S_IFMT } == S_IFLNK)
      #expect(try scene.names("reports") == ["today"])
      if kind == .symbolicLink { #expect(scene.mode("reports/today") == S_IFREG | 0o640) }

    case .fifo, .linkToFifo:
      try #require(mkfifo(scene.path("pipe"), 0o600) == 0)
      // Open for reading first (not blocking), so the writer's open does not wait for a reader.
      let descriptor = open(scene.path("pipe"), O_RDONLY | O_NONBLOCK)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      let reader = DrainingReader(descriptor)
      // A link to a FIFO stands in for /dev/stdout, a link to a descriptor that is no regular file.
      if kind == .linkToFifo { symlink("pipe", scene.path("link")) }
      let output = scene.path(kind == .fifo ? "pipe" : "link")
      let run = try CLIRunner.run(command.arguments(scene, output: output))
      let received = reader.finish()
      #expect(run.status == 0, "\(run.stderr)")
      #expect(sameBytes(received, expected.stdout))
      #expect(scene.mode("pipe").map { $0 & S_IFMT } == S_IFIFO, "the FIFO is not replaced")
      #expect(try scene.names() == (before + (kind == .fifo ? ["pipe"] : ["link", "pipe"])).sorted())
      if kind == .linkToFifo { #expect(scene.mode("link").map { $0 & S_IFMT } == S_IFLNK) }

    case .terminal:
      // A pseudo-terminal stands in for a character device such as /dev/null.
      var master: Int32 = -1
      var slave: Int32 = -1
      try #require(openpty(&master, &slave, nil, nil, nil) == 0)
      defer {
        close(master)
        close(slave)
      }
      var settings = termios()
      tcgetattr(slave, &settings)
      cfmakeraw(&settings)
      tcsetattr(slave, TCSANOW, &settings)
      let name = try #require(ttyname(slave).map { String(cString: $0) })
      var device = stat()
      stat(name, &device)
      let reader = DrainingReader(master)
      let run = try CLIRunner.run(command.arguments(scene, output: name))
      let received = reader.finish()
      #expect(run.status == 0, "\(run.stderr)")
      #expect(sameBytes(received, expected.stdout))
      var after = stat()
      #expect(stat(name, &after) == 0)
      #expect(after.st_mode & S_IFMT == S_IFCHR, "the device is not replaced")
      #expect(after.st_ino == device.st_ino)

    case .standardOutput:
      let run = try CLIRunner.run(command.arguments(scene, output: "-"), in: scene.directory)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(sameBytes(run.stdout, expected.stdout))
      #expect(try scene.names() == before, "no file named '-'")
    }
  }

  @Test(
    "--rejects follows the same rules: a symbolic link, a FIFO, standard output",
    arguments: [OutputCommand.group, .list, .summary], [OutputKind.symbolicLink, .fifo, .standardOutput])
  func rejectsKinds(command: OutputCommand, kind: OutputKind) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let reference = try CLIRunner.run(
      command.arguments(scene, output: scene.path("report"), extra: ["--rejects", scene.path("expected")]))
    try #require(reference.status == 0)
    let expected = try scene.contents("expected")
    try #require(!expected.isEmpty)
    let report = try scene.contents("report")
    switch kind {
    case .symbolicLink:
      try scene.write("older rejects\n", to: "target", mode: 0o600)
      symlink("target", scene.path("link"))
      let run = try CLIRunner.run(
        command.arguments(scene, output: scene.path("out"), extra: ["--rejects", scene.path("link")]))
      #expect(run.status == 0, "\(run.stderr)")
      #expect(try sameBytes(scene.contents("target"), expected))
      #expect(scene.mode("link").map { $0 & S_IFMT } == S_IFLNK)
      #expect(scene.mode("target") == S_IFREG | 0o600)
    case .fifo:
      try #require(mkfifo(scene.path("pipe"), 0o600) == 0)
      let descriptor = open(scene.path("pipe"), O_RDONLY | O_NONBLOCK)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      let reader = DrainingReader(descriptor)
      let run = try CLIRunner.run(
        command.arguments(scene, output: scene.path("out"), extra: ["--rejects", scene.path("pipe")]))
      let received = reader.finish()
      #expect(run.status == 0, "\(run.stderr)")
      #expect(sameBytes(received, expected))
      #expect(scene.mode("pipe").map { $0 & S_IFMT } == S_IFIFO)
    default:
      let run = try CLIRunner.run(
        command.arguments(scene, output: scene.path("out"), extra: ["--rejects", "-"]), in: scene.directory)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(sameBytes(run.stdout, expected))
      #expect(!FileManager.default.fileExists(atPath: scene.path("-")))
    }
    #expect(try sameBytes(scene.contents("out"), report), "the report is as with a plain rejects file")
  }

  /// A run whose outputs conflict with an input or with each other.
  struct Conflict: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var arguments: @Sendable (OutputScene) -> [String]
    /// Words the message must hold (the options involved).
    var mentions: [String]
  }

  static let conflicts: [Conflict] = [
    Conflict(
      testDescription: "group -o INPUT", arguments: { ["group", "-o", $0.input, $0.input] }, mentions: ["--output"]),
    Conflict(
      testDescription: "group --rejects INPUT", arguments: { ["group", "--rejects", $0.input, $0.input] },
      mentions: ["--rejects"]),
    Conflict(
      testDescription: "group -o LINK-TO-INPUT",
      arguments: { scene in
        symlink(scene.input, scene.path("alias"))
        return ["group", "-o", scene.path("alias"), scene.input]
      }, mentions: ["--output"]),
    Conflict(
      testDescription: "group -o X --rejects X",
      arguments: { ["group", "-o", $0.path("x"), "--rejects", $0.path("x"), $0.input] },
      mentions: ["--output", "--rejects"]),
    Conflict(
      testDescription: "group -o X --rejects DIR/../X",
      arguments: { scene in
        try? FileManager.default.createDirectory(atPath: scene.path("sub"), withIntermediateDirectories: false)
        return ["group", "-o", scene.path("x"), "--rejects", scene.path("sub/../x"), scene.input]
      }, mentions: ["--output", "--rejects"]),
    Conflict(
      testDescription: "list -o INPUT", arguments: { ["list", "-o", $0.input, $0.input] }, mentions: ["--output"]),
    Conflict(
      testDescription: "list -o IDS --only-ids IDS",
      arguments: { ["list", "-o", $0.ids, "--only-ids", $0.ids, $0.input] },
      mentions: ["--output"]),
    Conflict(
      testDescription: "summary --rejects INPUT", arguments: { ["summary", "--rejects", $0.input, $0.input] },
      mentions: ["--rejects"]),
    Conflict(
      testDescription: "summary -o - --rejects -", arguments: { ["summary", "-o", "-", "--rejects", "-", $0.input] },
      mentions: ["--output", "--rejects"]),
    Conflict(
      testDescription: "merge -o PARTIAL", arguments: { ["merge", "-o", $0.partial, $0.partial] },
      mentions: ["--output"]),
  ]

  @Test("An output naming an input or the other output is a usage error before anything is read", arguments: conflicts)
  func conflictingOutputs(conflict: Conflict) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let arguments = conflict.arguments(scene)
    let input = try scene.contents("input.jsonl")
    let partial = try scene.contents("input.partial")
    let ids = try scene.contents("ids.txt")
    let before = try scene.names()
    // In the scene's directory, so a build that takes `-` for a file name writes it there.
    let run = try CLIRunner.run(arguments, in: scene.directory)
    #expect(run.status == 64, "\(run.stderr)")
    for word in conflict.mentions { #expect(run.stderr.contains(word), "\(run.stderr)") }
    #expect(try scene.contents("input.jsonl") == input)
    #expect(try scene.contents("input.partial") == partial)
    #expect(try scene.contents("ids.txt") == ids)
    #expect(try scene.names() == before)
    #expect(run.stdout.isEmpty)
  }

  @Test("An output in a missing directory fails with 73 before reading", arguments: OutputCommand.allCases)
  func missingDirectory(command: OutputCommand) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let before = try scene.names()
    let missing = scene.path("missing/report")
    let run = try CLIRunner.run(command.arguments(scene, output: missing))
    #expect(run.status == 73, "\(run.stderr)")
    #expect(run.stderr.contains(missing) && run.stderr.contains("does not exist"), "\(run.stderr)")
    #expect(try scene.names() == before)
    if command.hasRejects {
      let rejects = try CLIRunner.run(command.arguments(scene, extra: ["--rejects", missing]))
      #expect(rejects.status == 73, "\(rejects.stderr)")
      #expect(rejects.stdout.isEmpty, "nothing is read or written")
    }
  }

  /// A failing run over existing report and rejects files.
  struct Failure: CustomTestStringConvertible, Sendable {
    var testDescription: String
    /// The arguments, given the scene and the report and rejects paths.
    var arguments: @Sendable (OutputScene, String, String) throws -> [String]
    var status: Int32
    /// On a data error (65) the rejects file holds this many lines; otherwise it is untouched (nil).
    var rejectedLines: Int?
  }

  static let failures: [Failure] = [
    Failure(
      testDescription: "64 group --format xml",
      arguments: { ["group", "-o", $1, "--rejects", $2, "--format", "xml", $0.input] }, status: 64, rejectedLines: nil),
    Failure(
      testDescription: "65 group --strict",
      arguments: { ["group", "-q", "-o", $1, "--rejects", $2, "--strict", $0.input] },
      status: 65, rejectedLines: 1),
    Failure(
      testDescription: "65 list --strict",
      arguments: { ["list", "-q", "-o", $1, "--rejects", $2, "--strict", $0.input] },
      status: 65, rejectedLines: 1),
    Failure(
      testDescription: "65 summary --max-rejects 0",
      arguments: { ["summary", "-q", "-o", $1, "--rejects", $2, "--max-rejects", "0", $0.input] }, status: 65,
      rejectedLines: 1),
    Failure(
      testDescription: "65 group total overflow",
      arguments: { scene, report, rejects in
        let amount = String(repeating: "9", count: 38)
        let line =
          #"{"id":"1","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"PENDING"}"#
        try scene.write(line + "\n" + line + "\n", to: "huge.jsonl")
        return ["group", "-q", "-o", report, "--rejects", rejects, scene.input, scene.path("huge.jsonl")]
      }, status: 65, rejectedLines: 1),
    Failure(
      testDescription: "66 group, missing second input",
      arguments: { ["group", "-q", "-o", $1, "--rejects", $2, $0.input, $0.path("absent.jsonl")] }, status: 66,
      rejectedLines: nil),
    Failure(
      testDescription: "66 list, missing second input",
      arguments: { ["list", "-q", "-o", $1, "--rejects", $2, $0.input, $0.path("absent.jsonl")] }, status: 66,
      rejectedLines: nil),
    Failure(
      testDescription: "66 summary, missing id file",
      arguments: { ["summary", "-q", "-o", $1, "--rejects", $2, "--only-ids", $0.path("absent.txt"), $0.input] },
      status: 66, rejectedLines: nil),
    Failure(
      testDescription: "74 group, truncated gzip after a bad line",
      arguments: {
        ["group", "-q", "-o", $1, "--rejects", $2, $0.input, CLIRunner.fixture("corpus-truncated.jsonl.gz")]
      },
      status: 74, rejectedLines: nil),
    Failure(
      testDescription: "74 list, truncated gzip after a bad line",
      arguments: {
        ["list", "-q", "-o", $1, "--rejects", $2, $0.input, CLIRunner.fixture("corpus-truncated.jsonl.gz")]
      },
      status: 74, rejectedLines: nil),
    Failure(
      testDescription: "74 summary, bad CRC after a bad line",
      arguments: {
        ["summary", "-q", "-o", $1, "--rejects", $2, $0.input, CLIRunner.fixture("corpus-bad-crc.jsonl.gz")]
      },
      status: 74, rejectedLines: nil),
    Failure(
      testDescription: "65 merge, malformed partial",
      arguments: { scene, report, _ in
        try scene.write("{\"not\": \"a partial\"}\n", to: "bad.partial")
        return ["merge", "-q", "-o", report, scene.path("bad.partial")]
      }, status: 65, rejectedLines: nil),
    Failure(
      testDescription: "66 merge, missing partial",
      arguments: { scene, report, _ in ["merge", "-q", "-o", report, scene.partial, scene.path("absent.partial")] },
      status: 66, rejectedLines: nil),
  ]

  @Test(
    "A failing run leaves existing files as they were (65: the rejects, complete up to the stop)", arguments: failures)
  func failingRun(failure: Failure) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    try scene.write("the previous report\n", to: "report", mode: 0o600)
    try scene.write("{\"the\":\"previous rejects\"}\n", to: "rejects", mode: 0o600)
    let arguments = try failure.arguments(scene, scene.path("report"), scene.path("rejects"))
    let before = try scene.names()
    let run = try CLIRunner.run(arguments)
    #expect(run.status == failure.status, "\(run.stderr)")
    #expect(try scene.contents("report") == Array("the previous report\n".utf8), "the report is untouched")
    let rejects = String(decoding: try scene.contents("rejects"), as: UTF8.self)
    if let lines = failure.rejectedLines {
      let written = rejects.split(separator: "\n")
      #expect(written.count == lines, "\(rejects)")
      #expect(written.allSatisfy { $0.contains(#""reason":"invalid-json""#) }, "\(rejects)")
      #expect(scene.mode("rejects") == S_IFREG | 0o600)
    } else {
      #expect(rejects == "{\"the\":\"previous rejects\"}\n", "the rejects file is untouched")
    }
    #expect(try scene.names() == before, "no temporary file is left")
  }

  @Test("An interrupted run (130) leaves existing report and rejects files as they were")
  func interruptedRun() throws {
    signal(SIGPIPE, SIG_IGN)
    let scene = try OutputScene()
    defer { scene.remove() }
    try scene.write("the previous report\n", to: "report")
    try scene.write("{\"the\":\"previous rejects\"}\n", to: "rejects")
    let before = try scene.names()
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["group", "-q", "-o", scene.path("report"), "--rejects", scene.path("rejects")]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Bad lines (the rejects grow) then nothing: the run waits for more input.
    try input.fileHandleForWriting.write(contentsOf: Data(String(repeating: "{bad\n", count: 5000).utf8))
    usleep(300_000)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    #expect(process.terminationStatus == 130)
    #expect(try scene.contents("report") == Array("the previous report\n".utf8))
    #expect(try scene.contents("rejects") == Array("{\"the\":\"previous rejects\"}\n".utf8))
    #expect(try scene.names() == before)
  }

  @Test(
    "A disk that fills while writing the report or the rejects leaves the existing files as they were",
    .enabled(if: SmallFileSystem.available, "skipped: this machine does not let the test mount a tmpfs"),
    arguments: ["report", "rejects"])
  func fullDisk(which: String) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let full = scene.path("full")
    try SmallFileSystem.with(at: full) {
      try scene.write("the previous report\n", to: "full/report", mode: 0o600)
      try scene.write("{\"the\":\"previous rejects\"}\n", to: "full/rejects", mode: 0o600)
      let arguments: [String]
      if which == "report" {
        // About 400 bytes a record: well past the 64 KiB of the file system.
        arguments = ["gen", "--count", "2000", "-o", scene.path("full/report")]
      } else {
        try scene.write(String(repeating: "{bad\n", count: 5000), to: "bad.jsonl")
        arguments = [
          "group", "-q", "-o", scene.path("full/report"), "--rejects", scene.path("full/rejects"),
          scene.path("bad.jsonl"),
        ]
      }
      let run = try CLIRunner.run(arguments)
      #expect(run.status == 74, "\(run.stderr)")
      #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
      #expect(!run.stderr.contains(".."), "one full stop: \(run.stderr)")
      #expect(try scene.contents("full/report") == Array("the previous report\n".utf8))
      #expect(try scene.contents("full/rejects") == Array("{\"the\":\"previous rejects\"}\n".utf8))
      #expect(try scene.names("full") == ["rejects", "report"], "no temporary file is left")
    }
  }

  @Test(
    "With standard error closed the run ends normally and the report holds only the report",
    arguments: OutputCommand.allCases)
  func closedStandardError(command: OutputCommand) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    // Without --quiet: the run summary is written to standard error.
    let arguments = command.arguments(scene).filter { $0 != "--quiet" }
    let expected = try CLIRunner.run(arguments)
    try #require(expected.status == 0)
    let run = try RawSpawn.runWithStandardErrorClosed(arguments)
    #expect(run.status == 0)
    #expect(sameBytes(run.stdout, expected.stdout))

    // A report file: descriptor 2 is free when it is opened, and must not become the report.
    let toFile = try RawSpawn.runWithStandardErrorClosed(
      command.arguments(scene, output: scene.path("report")).filter { $0 != "--quiet" })
    #expect(toFile.status == 0)
    #expect(try sameBytes(scene.contents("report"), expected.stdout))

    // A failure: the message has nowhere to go, the exit code is still right.
    if command != .gen {
      let failed = try RawSpawn.runWithStandardErrorClosed(
        arguments + [scene.path("absent.jsonl")])
      #expect(failed.status == 66)
      #expect(failed.stdout.isEmpty)
    }
  }

  @Test("A total that overflows names the input being read")
  func overflowNamesTheFile() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let amount = String(repeating: "9", count: 38)
    let line =
      #"{"id":"1","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"PENDING"}"#
    try scene.write(line + "\n" + line + "\n", to: "huge.jsonl")
    let run = try CLIRunner.run(["group", "--threads", "1", scene.input, scene.path("huge.jsonl")])
    #expect(run.status == 65)
    #expect(run.stderr.contains("overflows 128 bits while reading '\(scene.path("huge.jsonl"))'"), "\(run.stderr)")
  }

  @Test(
    "A list's or summary's sum that overflows names its input as group's total does",
    arguments: [
      (["list"], "The EUR sum", false),
      (["list", "--threads", "1", "--format", "text"], "The EUR sum", false),
      (["list", "--per-account"], "The EUR sum", false),
      (["list", "--per-account", "--format", "text"], "The EUR sum", false),
      (["summary"], "The EUR total of 'Food'", true),
      (["summary", "--threads", "1"], "The EUR total of 'Food'", true),
      (["summary", "--per-account"], "The EUR total of 'Food'", false),
      (["summary", "--per-account", "--threads", "1"], "The EUR total of 'Food'", false),
    ] as [([String], String, Bool)])
  func queryOverflowNamesTheFile(arguments: [String], subject: String, whileReading: Bool) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let amount = String(repeating: "9", count: 38)
    let line =
      #"{"id":"1","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"PENDING","category":"Food","arrangementId":"a"}"#
    try scene.write(line + "\n" + line + "\n", to: "huge.jsonl")
    let huge = scene.path("huge.jsonl")
    // Summed as read, the input being read is named, as group names it; summed once every
    // input is read, the one input, or all of them, as group's workers' tables added up are.
    let run = try CLIRunner.run(arguments + [huge])
    #expect(run.status == 65)
    #expect(run.stdout.isEmpty)
    let source = whileReading ? "while reading '\(huge)'" : "in '\(huge)'"
    #expect(run.stderr.contains("\(subject) overflows 128 bits \(source); no report is written."), "\(run.stderr)")
    let both = try CLIRunner.run(arguments + [scene.input, huge])
    #expect(both.status == 65)
    let sources = whileReading ? "while reading '\(huge)'" : "over all the inputs together"
    // (The other input's amounts make the currency's total over every key overflow first.)
    #expect(both.stderr.contains(" overflows 128 bits \(sources); no report is written."), "\(both.stderr)")
  }

}

/// Whether `bytes` are `expected`, with a short message instead of two long byte arrays when not.
private func sameBytes(_ bytes: [UInt8], _ expected: [UInt8]) -> Bool {
  guard bytes != expected else { return true }
  let shown = { (bytes: [UInt8]) in String(decoding: bytes.suffix(120), as: UTF8.self) }
  Issue.record("\(bytes.count) bytes ending '\(shown(bytes))', expected \(expected.count) ending '\(shown(expected))'")
  return false
}
