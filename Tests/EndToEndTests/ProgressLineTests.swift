import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The progress line on a terminal's standard error: a gzip input whose compressed size is below
/// the threshold (64 MiB) but which inflates past it gets one, by compressed position with the bytes
/// inflated; a small input and a pipe get none.
@Suite("Progress line", .serialized)
struct ProgressLineTests {
  /// Runs `txfold arguments` with standard error on a pseudo-terminal of type `term`; returns the
  /// exit status and what the terminal received.
  static func runOnTerminal(
    _ arguments: [String], term: String = "xterm-256color"
  ) throws -> (status: Int32, terminal: String) {
    var master: Int32 = -1
    var slave: Int32 = -1
    try #require(openpty(&master, &slave, nil, nil, nil) == 0)
    defer { close(master) }
    let reader = DrainingReader(master)
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["TERM": term]) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    try process.run()
    process.waitUntilExit()
    close(slave)
    return (process.terminationStatus, String(decoding: reader.finish(), as: UTF8.self))
  }

  @Test("a gzip input of 9 MiB that inflates to 68 MiB shows progress by compressed position and bytes inflated")
  func gzipProgress() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl.gz").path
    #expect(try CLIRunner.run(["gen", "--count", "165000", "--gzip", "-o", dump]).status == 0)
    let stored = try #require(try FileManager.default.attributesOfItem(atPath: dump)[.size] as? Int)
    #expect(stored < 64 << 20, "the compressed size alone is under the threshold")
    let output = directory.appendingPathComponent("report.csv").path
    // One thread: the line is first drawn after 250 ms, which the debug build takes many times over.
    let run = try Self.runOnTerminal(["group", "--threads", "1", "--format", "csv", "-o", output, dump])
    #expect(run.status == 0)
    let lines = run.terminal.components(separatedBy: "\r").filter { $0.hasPrefix("txfold: ") && $0.contains(" / ") }
    #expect(!lines.isEmpty, "no progress line: \(run.terminal)")
    for line in lines {
      // `txfold: 2.3 MiB / 9.0 MiB (25%), 17.1 MiB inflated, 53.1 MiB/s, ETA 1 s`; on a slow machine
      // (the thread sanitizer's build) the first line can come before 1 MiB is read: `512.0 KiB / 9.0 MiB`.
      let position = #"^txfold: [0-9]+\.[0-9] (KiB|MiB) / 9\.[0-9] MiB \([0-9]+%\), [0-9.]+ (KiB|MiB) inflated, "#
      #expect(line.range(of: position, options: .regularExpression) != nil, "\(line)")
      #expect(line.contains("/s, ETA "), "\(line)")
    }
    // The line is erased before the run summary.
    #expect(run.terminal.contains("\r\u{1B}[Ktxfold: 165000 lines"), "\(run.terminal)")
    // A terminal that shows no escapes gets blanks over the line instead of `[K`.
    let dumb = try Self.runOnTerminal(["group", "--threads", "1", "--format", "csv", "-o", output, dump], term: "dumb")
    #expect(dumb.status == 0)
    #expect(!dumb.terminal.contains("\u{1B}"), "\(dumb.terminal)")
    let erased = try #require(dumb.terminal.range(of: "\rtxfold: 165000 lines"), "\(dumb.terminal)")
    #expect(dumb.terminal[..<erased.lowerBound].hasSuffix("  "), "blanks over the last progress line")

    let quiet = try Self.runOnTerminal(["group", "--quiet", "--format", "csv", "-o", output, dump])
    #expect(quiet.status == 0)
    #expect(quiet.terminal.isEmpty)

    // list and summary read through the other reader, which reports the same progress.
    let summary = try Self.runOnTerminal(["summary", "--by", "day", "--format", "csv", "-o", output, dump])
    #expect(summary.status == 0)
    #expect(
      summary.terminal.components(separatedBy: "\r").contains { $0.contains(" MiB inflated, ") },
      "\(summary.terminal)")
  }

  @Test("a small input gets no progress line, only the summary")
  func smallInput() throws {
    let run = try Self.runOnTerminal(["group", "--format", "csv", CLIRunner.fixture("corpus.jsonl.gz")])
    #expect(run.status == 0)
    #expect(!run.terminal.contains(" / "), "\(run.terminal)")
    #expect(run.terminal.hasPrefix("txfold: 8 lines"), "\(run.terminal)")
  }
}
