import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--color auto` as the conventions of terminals have it: colour on a terminal that shows it
/// (`TERM` set and not `dumb`), never with `NO_COLOR` or `CLICOLOR=0`, and with `CLICOLOR_FORCE`
/// also into a pipe (never into an `--output` file). Standard output is a pseudo-terminal here.
@Suite("Colour under --color auto")
struct ColourCommandTests {
  /// The colour variables the host's environment may hold, removed before each case sets its own.
  static let colourVariables = ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"]

  /// Runs `txfold arguments` in an environment without the colour variables but `environment`,
  /// with standard output on a pseudo-terminal (`terminal`) or a pipe; returns what it received.
  static func run(_ arguments: [String], environment: [String: String], terminal: Bool) throws -> [UInt8] {
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for name in colourVariables + ["LC_ALL", "LC_MESSAGES", "LANG", "COLUMNS"] { env.removeValue(forKey: name) }
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let input = Pipe()
    process.standardInput = input
    try input.fileHandleForWriting.close()
    let errors = Pipe()
    process.standardError = errors
    let collected = ErrorCollector(errors.fileHandleForReading)
    guard terminal else {
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let bytes = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      _ = collected.finish()
      #expect(process.terminationStatus == 0)
      return Array(bytes)
    }
    var master: Int32 = -1
    var slave: Int32 = -1
    try #require(openpty(&master, &slave, nil, nil, nil) == 0)
    defer { close(master) }
    var settings = termios()
    tcgetattr(slave, &settings)
    cfmakeraw(&settings)
    tcsetattr(slave, TCSANOW, &settings)
    let reader = DrainingReader(master)
    process.standardOutput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    try process.run()
    process.waitUntilExit()
    close(slave)
    _ = collected.finish()
    #expect(process.terminationStatus == 0)
    return reader.finish()
  }

  static let xterm = ["TERM": "xterm-256color"]

  @Test(
    "On a terminal: colour where TERM shows it, none for TERM=dumb or unset, NO_COLOR or CLICOLOR=0",
    arguments: [
      (xterm, true),
      (["TERM": "dumb"], false),
      ([:], false),
      (xterm.merging(["NO_COLOR": "1"]) { $1 }, false),
      (xterm.merging(["NO_COLOR": ""]) { $1 }, true),
      (xterm.merging(["CLICOLOR": "0"]) { $1 }, false),
      (["TERM": "dumb", "CLICOLOR_FORCE": "1"], true),
    ])
  func terminal(environment: [String: String], coloured: Bool) throws {
    for command in [["group"], ["list"], ["summary", "--by", "category"]] {
      let received = try Self.run(
        command + ["--quiet", CLIRunner.fixture("corpus.jsonl")], environment: environment, terminal: true)
      #expect(!received.isEmpty)
      #expect(received.contains(0x1B) == coloured, "\(command) in \(environment)")
    }
  }

  @Test(
    "Into a pipe: colour only with CLICOLOR_FORCE set and not 0, and never with NO_COLOR",
    arguments: [
      ([:], false),
      (["CLICOLOR_FORCE": "1"], true),
      (["CLICOLOR_FORCE": "0"], false),
      (["CLICOLOR_FORCE": ""], false),
      (["CLICOLOR_FORCE": "1", "NO_COLOR": "1"], false),
    ])
  func pipe(environment: [String: String], coloured: Bool) throws {
    let received = try Self.run(
      ["list", "--quiet", CLIRunner.fixture("corpus.jsonl")], environment: environment, terminal: false)
    #expect(!received.isEmpty)
    #expect(received.contains(0x1B) == coloured, "\(environment)")
  }

  @Test("--color never and always win over the environment; an --output file gets none under auto")
  func explicitChoice() throws {
    let fixture = CLIRunner.fixture("corpus.jsonl")
    let never = try Self.run(
      ["list", "--quiet", "--color", "never", fixture], environment: Self.xterm, terminal: true)
    #expect(!never.contains(0x1B))
    let always = try Self.run(
      ["list", "--quiet", "--color", "always", fixture], environment: ["TERM": "dumb"], terminal: true)
    #expect(always.contains(0x1B))
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.txt").path
    _ = try Self.run(
      ["list", "--quiet", "-o", report, fixture], environment: ["CLICOLOR_FORCE": "1"], terminal: true)
    let written = try Data(contentsOf: URL(fileURLWithPath: report))
    #expect(!written.isEmpty)
    #expect(!written.contains(0x1B))
  }
}
