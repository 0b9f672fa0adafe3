import Foundation
import Testing

/// `--output-dir`'s index past `--memory-limit`: its entries spill into
/// `--temp-dir` as every spill does (a private directory, removed on every
/// exit, an interrupt's included), and the pages are byte for byte those of
/// a run that kept them in memory, for every command, thread count and order
/// of the input. Every path is inside a scratch directory of the test's own.
@Suite("--output-dir's index spilled")
struct OutputDirectorySpillTests {
  typealias Group = OutputDirectoryCommandTests

  /// Every file of `directory`, by name.
  static func files(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in Group.contents(directory) {
      files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return files
  }

  /// A dump of 2,000 records over 250 accounts, in day order or by account.
  static func dump(in directory: URL, order: String) throws -> URL {
    let input = directory.appendingPathComponent("bank-\(order).jsonl")
    let outcome = try CLIRunner.run([
      "gen", "--count", "2000", "--accounts", "250", "--seed", "5", "--order", order, "-o", input.path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return input
  }

  @Test(
    "Spilled at every account, the pages are those kept in memory, with 1 and 4 threads",
    arguments: [
      ["group"], ["group", "--sorted-by-account"], ["list"], ["summary"],
      ["summary", "--by", "month", "--sort", "count"],
    ])
  func spilledPagesAreTheSame(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.dump(in: directory, order: command.contains("--sorted-by-account") ? "account" : "day")
    let spills = directory.appendingPathComponent("spills")
    try FileManager.default.createDirectory(at: spills, withIntermediateDirectories: false)
    var expected: [String: Data]?
    for (name, options) in [
      ("held", ["--threads", "2"]),
      ("spilled-1", ["--threads", "1", "--memory-limit", "1", "--temp-dir", spills.path]),
      ("spilled-4", ["--threads", "4", "--memory-limit", "1", "--temp-dir", spills.path]),
    ] {
      let pages = directory.appendingPathComponent(name)
      let outcome = try CLIRunner.run(
        command + ["--quiet", "--per-account", "--output-dir", pages.path] + options + [input.path])
      #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
      let files = try Self.files(pages)
      #expect(files.count > 200, "\(name): \(files.count) files")
      if let expected {
        #expect(files.keys.sorted() == expected.keys.sorted(), "\(name)")
        for (file, bytes) in files where expected[file] != bytes { Issue.record("\(name): \(file) differs") }
      } else {
        expected = files
      }
      #expect(Group.contents(spills).isEmpty, "\(name) left \(Group.contents(spills))")
    }
  }

  /// `group --sorted-by-account` folds with nothing on disk: only the index can spill there.
  @Test("Past --memory-limit the index spills into --temp-dir: a file there fails the run (74), leaving no DIR")
  func spillsIntoTempDir() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = try Self.dump(in: directory, order: "account")
    let notADirectory = directory.appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: notADirectory)
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--sorted-by-account", "--memory-limit", "1", "--temp-dir",
      notADirectory.path, "--output-dir", pages.path, input.path,
    ])
    #expect(outcome.status == 74, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("cannot create the index's temporary storage"), "\(outcome.stderr)")
    #expect(Group.contents(directory) == ["bank-account.jsonl", "not-a-directory"])
  }

  @Test("SIGINT while the index spills exits 130 and leaves no DIR and nothing in --temp-dir")
  func interruptWhileSpilling() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let spills = directory.appendingPathComponent("spills")
    try FileManager.default.createDirectory(at: spills, withIntermediateDirectories: false)
    let pages = directory.appendingPathComponent("pages")
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "group", "--quiet", "--per-account", "--sorted-by-account", "--memory-limit", "1", "--temp-dir", spills.path,
      "--output-dir", pages.path,
    ]
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    // Accounts in order, standard input left open: the accounts of the chunks read are written,
    // and the index spills from its second entry on.
    input.fileHandleForWriting.write(Group.dump((0..<20_000).map { String(format: "A%05d", $0) }))
    let spilling = CLIRunner.waitUntil(milliseconds: 10_000) {
      Group.contents(spills).contains(where: { $0.hasPrefix("txfold-sort-") })
    }
    #expect(spilling, "the index made no directory in --temp-dir")
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(Group.contents(spills).isEmpty)
    #expect(Group.contents(directory) == ["spills"])
  }
}
