import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--stats FILE` (Documentation/Formats.md, "The stats document"): its keys and values, the same
/// report with and without it, and the output rules every output follows.
@Suite("--stats")
struct StatsCommandTests {
  /// The documented keys, in their order.
  static let keys = [
    "statsVersion", "version", "command", "argv", "inputs", "startedAt", "endedAt", "exitStatus", "error", "lines",
    "accepted", "rejected", "rejectedByReason", "duplicates", "schema", "bytesRead",
    "bytesInflated", "elapsedSeconds", "bytesPerSecond", "recordsPerSecond", "partials", "accounts",
  ]
  static let reasons = [
    "invalid-json", "not-an-object", "missing-field", "invalid-field", "invalid-amount", "amount-out-of-range",
    "invalid-timestamp", "invalid-indicator", "record-too-large", "nesting-too-deep", "invalid-utf8",
  ]

  /// The document's keys in the order written, and its values.
  static func parse(_ bytes: [UInt8]) throws -> (keys: [String], values: [String: Any]) {
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "one line: \(text)")
    let values = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    // Top-level keys in written order: each `"key":` outside the nested reasons object.
    var keys: [String] = []
    var depth = 0
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "{" { depth += 1 }
      if character == "}" { depth -= 1 }
      if character == "\"" && depth == 1 {
        let end = try #require(text[text.index(after: index)...].firstIndex(of: "\""))
        let name = String(text[text.index(after: index)..<end])
        index = text.index(after: end)
        if index < text.endIndex && text[index] == ":" { keys.append(name) }
        continue
      }
      index = text.index(after: index)
    }
    return (keys, values)
  }

  @Test("group: every key, the accounting of the run, and the report unchanged")
  func groupDocument() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let plain = try CLIRunner.run(["group", "--quiet", "--format", "json", "-o", scene.path("plain.json"), scene.input])
    #expect(plain.status == 0)
    let run = try CLIRunner.run([
      "group", "--quiet", "--format", "json", "-o", scene.path("report.json"), "--stats", scene.path("stats.json"),
      scene.input,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(try scene.contents("report.json") == scene.contents("plain.json"))
    let (keys, values) = try Self.parse(try scene.contents("stats.json"))
    #expect(keys == Self.keys)
    #expect(values["statsVersion"] as? Int == 2)
    #expect(values["version"] as? String == "0.1.0")
    #expect(values["exitStatus"] as? Int == 0 && values["error"] is NSNull)
    #expect(values["command"] as? String == "group")
    #expect(values["lines"] as? Int == 9)
    #expect(values["accepted"] as? Int == 8)
    #expect(values["rejected"] as? Int == 1)
    let reasons = try #require(values["rejectedByReason"] as? [String: Int])
    #expect(reasons.keys.sorted() == Self.reasons.sorted())
    #expect(reasons["invalid-json"] == 1)
    #expect(reasons.values.reduce(0, +) == 1)
    #expect(values["duplicates"] as? Int == 0)
    #expect(values["schema"] as? String == "backbase")
    let size = try FileManager.default.attributesOfItem(atPath: scene.input)[.size] as? Int
    #expect(values["bytesRead"] as? Int == size)
    #expect(values["bytesInflated"] as? Int == size)
    #expect((values["elapsedSeconds"] as? Double).map { $0 > 0 && $0 < 60 } == true)
    #expect((values["bytesPerSecond"] as? Int).map { $0 > 0 } == true)
    #expect((values["recordsPerSecond"] as? Int).map { $0 > 0 } == true)
    #expect(values["partials"] is NSNull)
    #expect(values["accounts"] is NSNull)
  }

  @Test("a gzip input: bytes read are the compressed ones, bytes inflated the JSON's")
  func gzipBytes() throws {
    let run = try CLIRunner.run(["group", "--quiet", "--stats", "-", "-o", "-", CLIRunner.fixture("corpus.jsonl.gz")])
    // `-o -` and `--stats -` are one file: refused.
    #expect(run.status == 64)
    let scene = try OutputScene()
    defer { scene.remove() }
    let gzip = try CLIRunner.run([
      "group", "--quiet", "-o", scene.path("out"), "--stats", "-", CLIRunner.fixture("corpus.jsonl.gz"),
    ])
    #expect(gzip.status == 0, "\(gzip.stderr)")
    let (_, values) = try Self.parse(gzip.stdout)
    let attributes = FileManager.default.attributesOfItem
    #expect(values["bytesRead"] as? Int == (try attributes(CLIRunner.fixture("corpus.jsonl.gz"))[.size] as? Int))
    #expect(values["bytesInflated"] as? Int == (try attributes(CLIRunner.fixture("corpus.jsonl"))[.size] as? Int))
    #expect(values["accepted"] as? Int == 8)
  }

  @Test("list, summary, merge and per-account runs name themselves; merge counts its partials")
  func otherCommands() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    for (command, input) in [("list", scene.input), ("summary", scene.input), ("merge", scene.partial)] {
      let run = try CLIRunner.run([command, "--quiet", "-o", scene.path("out-\(command)"), "--stats", "-", input])
      #expect(run.status == 0, "\(run.stderr)")
      let (keys, values) = try Self.parse(run.stdout)
      #expect(keys == Self.keys)
      #expect(values["command"] as? String == command)
      #expect(values["lines"] as? Int == 9)
      #expect(values["rejected"] as? Int == 1)
      if command == "merge" {
        #expect(values["partials"] as? Int == 1)
        #expect(values["recordsPerSecond"] is NSNull)
      } else {
        #expect(values["partials"] is NSNull)
      }
    }
    let perAccount = try CLIRunner.run([
      "group", "--per-account", "--quiet", "-o", scene.path("accounts"), "--stats", "-",
      CLIRunner.fixture("per-account.jsonl"),
    ])
    #expect(perAccount.status == 0, "\(perAccount.stderr)")
    #expect(try Self.parse(perAccount.stdout).values["accounts"] as? Int == 4)
  }

  @Test(
    "a usage error (64) before anything is read when --stats names an input or another output",
    arguments: [
      ["--stats", "INPUT"], ["--stats", "X", "-o", "X"], ["--stats", "X", "--rejects", "X"], ["--stats", "-"],
      ["--stats", "-", "-o", "-"], ["--stats", "X", "-o", "SUB/../X"],
    ])
  func conflicts(arguments: [String]) throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    try FileManager.default.createDirectory(atPath: scene.path("SUB"), withIntermediateDirectories: false)
    let input = try scene.contents("input.jsonl")
    let before = try scene.names()
    let resolved = arguments.map { argument in
      switch argument {
      case "INPUT": return scene.input
      case "X", "SUB/../X": return scene.path(argument)
      default: return argument
      }
    }
    let run = try CLIRunner.run(["group", "--quiet"] + resolved + [scene.input], in: scene.directory)
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("--stats"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(try scene.contents("input.jsonl") == input)
    #expect(try scene.names() == before)
  }

  @Test("a FIFO is written in place, a link's target replaced and the link kept")
  func fifoAndLink() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let reference = try CLIRunner.run(["group", "--quiet", "-o", scene.path("r0"), "--stats", "-", scene.input])
    try #require(reference.status == 0)

    try #require(mkfifo(scene.path("pipe"), 0o600) == 0)
    let descriptor = open(scene.path("pipe"), O_RDONLY | O_NONBLOCK)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let reader = DrainingReader(descriptor)
    let run = try CLIRunner.run([
      "group", "--quiet", "-o", scene.path("r1"), "--stats", scene.path("pipe"), scene.input,
    ])
    let received = reader.finish()
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.parse(received).values["accepted"] as? Int == 8)
    #expect(scene.mode("pipe").map { $0 & S_IFMT } == S_IFIFO)

    try scene.write("old stats\n", to: "target", mode: 0o600)
    symlink("target", scene.path("link"))
    let linked = try CLIRunner.run([
      "group", "--quiet", "-o", scene.path("r2"), "--stats", scene.path("link"), scene.input,
    ])
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(scene.mode("link").map { $0 & S_IFMT } == S_IFLNK)
    #expect(try Self.parse(try scene.contents("target")).values["lines"] as? Int == 9)
  }

  @Test("a failed run (65) writes the stats document with its exit status and message, and no report")
  func failedRun() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    try scene.write("older stats\n", to: "stats.json")
    let run = try CLIRunner.run([
      "group", "--quiet", "--strict", "-o", scene.path("report"), "--stats", scene.path("stats.json"), scene.input,
    ])
    #expect(run.status == 65, "\(run.stderr)")
    let (keys, values) = try Self.parse(try scene.contents("stats.json"))
    #expect(keys == Self.keys)
    #expect(values["exitStatus"] as? Int == 65)
    #expect((values["error"] as? String).map { run.stderr.contains($0) } == true, "\(values)")
    #expect(values["rejected"] is Int && values["lines"] is NSNull, "counts so far; lines unknown")
    #expect(try scene.names() == ["ids.txt", "input.jsonl", "input.partial", "stats.json"])
  }

  /// The run summary goes to standard error after the outputs are committed; a signal that comes
  /// while it is written (here a pipe nobody reads, full before the run starts) finds the run done.
  @Test("SIGTERM after the outputs are committed: the exit status is the stats document's, 0")
  func signalAfterCommit() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let errors = Pipe()
    let writing = errors.fileHandleForWriting.fileDescriptor
    // Fill the pipe, so that the run's first write to standard error (its summary) waits.
    let flags = fcntl(writing, F_GETFL)
    _ = fcntl(writing, F_SETFL, flags | O_NONBLOCK)
    let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
    while filler.withUnsafeBytes({ write(writing, $0.baseAddress, $0.count) }) > 0 {}
    _ = fcntl(writing, F_SETFL, flags)
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "group", "-o", scene.path("report.json"), "--state-out", scene.path("night.state"), "--stats",
      scene.path("stats.json"), scene.input,
    ]
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let committed = CLIRunner.waitUntil(milliseconds: 10_000) {
      FileManager.default.fileExists(atPath: scene.path("stats.json"))
    }
    #expect(committed, "the run never committed its outputs")
    kill(process.processIdentifier, SIGTERM)
    // Drain the pipe: a run that waits on it ends either way.
    let drained = Thread { _ = errors.fileHandleForReading.readDataToEndOfFile() }
    try? errors.fileHandleForWriting.close()
    drained.start()
    process.waitUntilExit()
    let values = try Self.parse(try scene.contents("stats.json")).values
    #expect(values["exitStatus"] as? Int == 0, "\(values)")
    #expect(process.terminationStatus == 0, "the stats document says 0; the process ended \(process.terminationStatus)")
    #expect(try scene.names().contains("night.state") && scene.names().contains("report.json"))
  }

  /// Last night's state is read as much as tonight's export: a monitor that compares fingerprints
  /// must see which state a night was folded onto.
  @Test("--state-in is one of the inputs, with its size and fingerprint")
  func stateInInputs() throws {
    let scene = try OutputScene()
    defer { scene.remove() }
    let state = scene.path("night1.state")
    let first = try CLIRunner.run(["group", "--quiet", "-o", scene.path("r1"), "--state-out", state, scene.input])
    try #require(first.status == 0, "\(first.stderr)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int)
    for extra in [[], ["--dry-run"]] {
      let run = try CLIRunner.run(
        ["group", "--quiet", "-o", scene.path("r2"), "--stats", scene.path("stats.json"), "--state-in", state]
          + extra + [scene.input])
      #expect(run.status == 0, "\(run.stderr)")
      let inputs = try #require(try Self.parse(try scene.contents("stats.json")).values["inputs"] as? [[String: Any]])
      #expect(inputs.map { $0["path"] as? String } == [scene.input, state], "\(inputs)")
      #expect(inputs.last?["bytes"] as? Int == size && inputs.last?["fingerprint"] is String, "\(inputs)")
    }
  }
}
