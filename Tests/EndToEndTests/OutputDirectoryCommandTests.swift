import Foundation
import Testing

/// `txfold group --per-account --output-dir DIR`: one html page per account and
/// an index, file names safe for hostile account ids, all or nothing, and the
/// usage errors. Every path is inside a scratch directory of the test's own.
@Suite("group --per-account --output-dir")
struct OutputDirectoryCommandTests {
  static func contents(_ url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  /// One record per id, in account field `arrangementId`.
  static func dump(_ ids: [String]) -> Data {
    var lines = ""
    for (index, id) in ids.enumerated() {
      var escaped = "\""
      for scalar in id.unicodeScalars {
        switch scalar {
        case "\"", "\\": escaped += "\\" + String(scalar)
        case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
        default: escaped.unicodeScalars.append(scalar)
        }
      }
      escaped += "\""
      lines +=
        #"{"id":"\#(index)","arrangementId":\#(escaped),"description":"Pay \#(index)","#
        + #""transactionAmountCurrency":{"amount":"\#(index + 1).50","currencyCode":"EUR"},"#
        + #""creditDebitIndicator":"DBIT","creationTime":"2019-05-\#(10 + index % 18)T10:00:00","state":"COMPLETED"}"#
        + "\n"
    }
    return Data(lines.utf8)
  }

  static let hostileIDs = [
    "../../escape", "/abs", "a/b", "A/B", "a\u{1}b", "A1", "a1", "..", ".hidden", "-rf", "<b>x</b>",
    String(repeating: "L", count: 5_000), "index", "index.html", "Ünïcødé",
  ]

  @Test("Hostile account ids: one page each, all inside DIR, no two alike, each linked from the index")
  func hostileIDs() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    try Self.dump(Self.hostileIDs).write(to: input)
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--output-dir", pages.path, input.path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
    // Nothing outside DIR but the input: no escape, no private directory left.
    #expect(Self.contents(directory) == ["bank.jsonl", "pages"])
    let files = Self.contents(pages)
    #expect(files.count == Self.hostileIDs.count + 3, "\(files)")
    for name in ["index.html", "index-by-count.html", "index-by-latest.html"] { #expect(files.contains(name)) }
    #expect(Set(files.map { $0.lowercased() }).count == files.count)
    let index = try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(!index.contains("<b>"))
    for file in files where !file.hasPrefix("index") {
      #expect(!file.hasPrefix(".") && !file.hasPrefix("-") && file.utf8.count <= 62, "\(file)")
      #expect(index.contains("<a href=\"\(file)\">"), "\(file)")
      let page = try String(contentsOf: pages.appendingPathComponent(file), encoding: .utf8)
      #expect(page.contains("<a href=\"index.html\">All accounts</a>") && !page.contains("<b>"), "\(file)")
    }
    // Ids that differ only by case, '/' or a control character get pages of their own.
    for pair in [("A1", "a1"), ("a/b", "A/B")] {
      #expect(index.contains("title=\"\(pair.0)\"") && index.contains("title=\"\(pair.1)\""))
    }
    #expect(index.contains("title=\"a\u{FFFD}b\""))
  }

  @Test("The sample's account gets a page naming it, the input and the period; --format is html by default")
  func samplePage() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--account-from-file", "--output-dir", pages.path + "/",
      CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let files = Self.contents(pages)
    #expect(files.count == 4)
    let page = try #require(files.first { $0.hasPrefix("user-10015-grouped-mixed-") })
    let text = try String(contentsOf: pages.appendingPathComponent(page), encoding: .utf8)
    #expect(
      text.contains(
        "<title>Grouped transactions · Account user-10015-grouped-mixed · user-10015-grouped-mixed.jsonl · May 15, 2019 – May 31, 2019</title>"
      ))
  }

  @Test("An existing DIR that is not empty is refused before reading (73) and left as it was")
  func refusesFullDirectory() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: false)
    try Data("old".utf8).write(to: pages.appendingPathComponent("index.html"))
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--account-from-file", "--output-dir", pages.path,
      CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 73, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("is not empty"))
    #expect(Self.contents(pages) == ["index.html"])
    #expect(try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8) == "old")
    #expect(Self.contents(directory) == ["pages"])
  }

  /// An operator who made `DIR` private (0750, a web server's group) must not find it
  /// replaced by a world-readable one: like a replaced file, it keeps its permission bits,
  /// owner and group.
  @Test("An existing empty DIR keeps its permission bits, owner and group")
  func keepsDirectoryPermissions() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: false)
    var attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o750]
    // As root, another group than the process's, so keeping it is seen.
    if getuid() == 0 { attributes[.groupOwnerAccountID] = 1 }
    try FileManager.default.setAttributes(attributes, ofItemAtPath: pages.path)
    let before = try FileManager.default.attributesOfItem(atPath: pages.path)
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--account-from-file", "--output-dir", pages.path,
      CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(Self.contents(pages).contains("index.html"))
    let after = try FileManager.default.attributesOfItem(atPath: pages.path)
    #expect((after[.posixPermissions] as? Int) == 0o750)
    #expect((after[.ownerAccountID] as? Int) == (before[.ownerAccountID] as? Int))
    #expect((after[.groupOwnerAccountID] as? Int) == (before[.groupOwnerAccountID] as? Int))
  }

  @Test("A link as DIR is refused (73): nothing is written through it")
  func refusesLink() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("target")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
    let link = directory.appendingPathComponent("pages")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--per-account", "--account-from-file", "--output-dir", link.path,
      CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 73, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("symbolic link"))
    #expect(Self.contents(target).isEmpty)
    #expect(Self.contents(directory) == ["pages", "target"])
  }

  @Test("A failed run (65) leaves no DIR and no private directory; an empty DIR stays empty")
  func failedRunLeavesNothing() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    var bytes = Self.dump(["A", "B"])
    bytes.append(Data("not json\n".utf8))
    try bytes.write(to: input)
    for existing in [false, true] {
      let pages = directory.appendingPathComponent("pages")
      if existing { try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: false) }
      let outcome = try CLIRunner.run([
        "group", "--quiet", "--per-account", "--max-rejects", "0", "--output-dir", pages.path, input.path,
      ])
      #expect(outcome.status == 65, "\(outcome.stderr)")
      #expect(Self.contents(directory) == (existing ? ["bank.jsonl", "pages"] : ["bank.jsonl"]))
      #expect(Self.contents(pages).isEmpty)
    }
  }

  /// The cleanup on SIGTERM removes the private directory while the main thread may still be
  /// writing pages into it: that thread's failure is the signal's doing, not a write error to
  /// report (an operator's log would blame the disk).
  @Test("SIGTERM while the pages are written exits 143 with no write error on standard error")
  func terminateWhileWritingPages() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    try Self.dump((0..<4_000).map { "A\($0)" }).write(to: input)
    let pages = directory.appendingPathComponent("pages")
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["group", "--quiet", "--per-account", "--output-dir", pages.path, input.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()  // --output-dir writes nothing there
    try process.run()
    let collected = ErrorCollector(errors.fileHandleForReading)
    let writing = CLIRunner.waitUntil(milliseconds: 30_000) {
      guard let staging = Self.contents(directory).first(where: { $0.hasPrefix(".pages.txfold-") }) else {
        return false
      }
      return Self.contents(directory.appendingPathComponent(staging)).count > 10
    }
    #expect(writing, "no pages written")
    process.terminate()
    process.waitUntilExit()
    let stderr = collected.finish()
    #expect(process.terminationStatus == 143)
    #expect(!stderr.contains("error"), "\(stderr)")
    #expect(Self.contents(directory) == ["bank.jsonl"])
  }

  @Test("SIGINT while the run reads exits 130 and leaves no DIR and no private directory")
  func interrupt() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["group", "--quiet", "--per-account", "--sorted-by-account", "--output-dir", pages.path]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Records in, standard input left open: the private directory is made before reading.
    input.fileHandleForWriting.write(Self.dump(["A", "B"]))
    let made = CLIRunner.waitUntil(milliseconds: 5_000) {
      Self.contents(directory).contains(where: { $0.hasPrefix(".pages.txfold-") })
    }
    #expect(made, "no private directory beside DIR")
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(Self.contents(directory).isEmpty)
  }

  @Test(
    "Usage errors (64): without --per-account, with --output, another format, --emit partial or an empty path",
    arguments: [
      (["--output-dir", "DIR"], "--output-dir needs --per-account"),
      (["--per-account", "--output-dir", "DIR", "-o", "x.html"], "give one of them"),
      (["--per-account", "--output-dir", "DIR", "--format", "json"], "not --format json"),
      (["--per-account", "--output-dir", "DIR", "--emit", "partial"], "not --emit partial"),
      (["--per-account", "--output-dir", ""], "empty path"),
    ])
  func usageErrors(arguments: [String], message: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let resolved = arguments.map { $0 == "DIR" ? directory.appendingPathComponent("pages").path : $0 }
    let outcome = try CLIRunner.run(
      ["group", "--account-from-file"] + resolved + [CLIRunner.sample("user-10015-grouped-mixed.jsonl")],
      in: directory)
    #expect(outcome.status == 64, "\(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(Self.contents(directory).isEmpty)
  }

  /// DIR must be new or empty and holds the pages only: an output file staged inside it made it
  /// "not empty" (73) when it was, and a new DIR "does not exist" for the file.
  @Test(
    "An output file inside DIR (--rejects, --stats, --state-out): a usage error (64) naming both; DIR as it was",
    arguments: ["--rejects", "--stats", "--state-out"])
  func outputInsideDirectory(option: String) throws {
    let scratch = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("dump.jsonl")
    try Self.dump(["A1", "B2"]).write(to: input)
    let empty = scratch.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
    for directory in [empty, scratch.appendingPathComponent("new")] {
      let inside = directory.appendingPathComponent("out.file").path
      let run = try CLIRunner.run([
        "group", "--per-account", "--output-dir", directory.path, option, inside, input.path,
      ])
      #expect(run.status == 64, "\(directory.lastPathComponent): \(run.stderr)")
      #expect(run.stderr.contains("\(option) '\(inside)' is inside --output-dir"), "\(run.stderr)")
      #expect(Self.contents(directory).isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("new").path))
    // Beside DIR is fine.
    let beside = try CLIRunner.run([
      "group", "--per-account", "-q", "--output-dir", empty.path, option, scratch.appendingPathComponent("o").path,
      input.path,
    ])
    #expect(beside.status == 0, "\(beside.stderr)")
  }

  /// An output file named as DIR itself (new, or empty, or with a trailing slash) ran the whole
  /// night and failed at the end (74, "Is a directory"; the stats document lost).
  @Test(
    "An output file that is DIR itself (--rejects, --stats, --state-out): a usage error (64) before anything is read",
    arguments: ["--rejects", "--stats", "--state-out"])
  func outputIsDirectory(option: String) throws {
    let scratch = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("dump.jsonl")
    try Self.dump(["A1", "B2"]).write(to: input)
    let empty = scratch.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
    for (directory, output) in [(empty.path, empty.path + "/"), (scratch.path + "/new", scratch.path + "/new")] {
      let run = try CLIRunner.run(["group", "--per-account", "--output-dir", directory, option, output, input.path])
      #expect(run.status == 64, "\(directory): \(run.stderr)")
      #expect(
        run.stderr.contains("\(option) '\(output)' and --output-dir '\(directory)' are the same path"), "\(run.stderr)")
    }
    #expect(Self.contents(empty).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/new"))
  }
}
