import Foundation
import Testing

/// `--max-reject-rate` on group, list, summary and group --per-account: 65 and no output past the
/// share, the report within it, 64 for a value that is not a share.
@Suite("--max-reject-rate")
struct RejectRateCommandTests {
  /// 20 good lines and 2 bad ones: 9.09 % rejected.
  static func input(in directory: URL) throws -> String {
    let lines = try String(contentsOfFile: CLIRunner.fixture("per-account.jsonl"), encoding: .utf8)
      .split(separator: "\n").prefix(20)
    let path = directory.appendingPathComponent("dump.jsonl").path
    try Data((lines.joined(separator: "\n") + "\n{bad\n[1]\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "past the share: 65, the share in the message, no output file",
    arguments: [["group"], ["list"], ["summary"], ["group", "--per-account"]])
  func pastTheShare(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.input(in: directory)
    let output = directory.appendingPathComponent("report.txt").path
    let failed = try CLIRunner.run(command + ["--max-reject-rate", "0.05", "-o", output, input])
    #expect(failed.status == 65)
    #expect(failed.stderr.contains("of 22 lines rejected"), "\(failed.stderr)")
    #expect(failed.stderr.contains("more than --max-reject-rate 0.05 allows"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let passed = try CLIRunner.run(command + ["--max-reject-rate", "0.2", "-o", output, input])
    #expect(passed.status == 0, "\(passed.stderr)")
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test("a value that is not a share from 0 to 1 is a usage error", arguments: ["2", "-0.1", "abc", "1e-2x"])
  func usage(value: String) throws {
    let outcome = try CLIRunner.run(["group", "--max-reject-rate", value, CLIRunner.fixture("per-account.jsonl")])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--max-reject-rate must be a share from 0 to 1"))
  }
}
