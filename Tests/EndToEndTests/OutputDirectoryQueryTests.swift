import Foundation
import Testing

/// `list`, `summary` and `merge --per-account --output-dir DIR`: the same
/// directory as `group` writes (OutputDirectoryCommandTests): an index and one
/// page per account, file names safe for hostile account ids, each page what a
/// run over that account alone shows, all or nothing, and the same refusals.
/// Every path is inside a scratch directory of the test's own.
@Suite("list, summary and merge --per-account --output-dir")
struct OutputDirectoryQueryTests {
  typealias Group = OutputDirectoryCommandTests

  static let commands = ["list", "summary", "merge"]

  /// The index pages each command writes: a summary's has no period column, so no order by latest day.
  static func indexFiles(_ command: String) -> [String] {
    command == "summary"
      ? ["index-by-count.html", "index.html"] : ["index-by-count.html", "index-by-latest.html", "index.html"]
  }

  /// The inputs that make `command` read `input` (JSON lines): `merge` reads the
  /// per-account partials of the input's two halves, written beside it.
  static func inputs(_ command: String, _ input: URL) throws -> [String] {
    guard command == "merge" else { return [input.path] }
    let lines = try String(contentsOf: input, encoding: .utf8).split(separator: "\n")
    let middle = lines.count / 2
    var partials: [String] = []
    for (number, half) in [lines[..<middle], lines[middle...]].enumerated() {
      let shard = input.deletingLastPathComponent().appendingPathComponent("shard-\(number).jsonl")
      try Data((half.joined(separator: "\n") + "\n").utf8).write(to: shard)
      let partial = input.deletingLastPathComponent().appendingPathComponent("shard-\(number).partial")
      let outcome = try CLIRunner.run([
        "group", "--quiet", "--per-account", "--emit", "partial", "-o", partial.path, shard.path,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      try FileManager.default.removeItem(at: shard)
      partials.append(partial.path)
    }
    return partials
  }

  /// The file the index links for `id` (its `title` as the page escapes it).
  static func page(for id: String, in index: String) -> String? {
    let marker = "\"><span class=\"id\" title=\"\(id)\">"
    guard let end = index.range(of: marker) else { return nil }
    let before = index[..<end.lowerBound]
    guard let start = before.range(of: "<a href=\"", options: .backwards) else { return nil }
    return String(before[start.upperBound...])
  }

  /// What a page shows from `start` up to the run's accounting or the end of `<main>`.
  static func section(_ page: String, from start: String) -> String? {
    guard let begin = page.range(of: start) else { return nil }
    let rest = page[begin.lowerBound...]
    let end = rest.range(of: "<section class=\"stats\"")?.lowerBound ?? rest.range(of: "</main>")?.lowerBound
    return end.map { String(rest[..<$0]) }
  }

  @Test(
    "Hostile account ids: one page each, all inside DIR, no two alike, each linked from the index",
    arguments: commands)
  func hostileIDs(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputs = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: false)
    let input = inputs.appendingPathComponent("bank.jsonl")
    try Group.dump(Group.hostileIDs).write(to: input)
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run(
      [command, "--quiet", "--per-account", "--output-dir", pages.path] + Self.inputs(command, input))
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
    // Nothing outside DIR: no escape, no private directory left.
    #expect(Group.contents(directory) == ["in", "pages"])
    let files = Group.contents(pages)
    let indexFiles = Self.indexFiles(command)
    #expect(files.count == Group.hostileIDs.count + indexFiles.count, "\(files)")
    #expect(Set(indexFiles).isSubset(of: files))
    #expect(Set(files.map { $0.lowercased() }).count == files.count)
    let index = try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(!index.contains("<b>"))
    // The pages of ids `index` and `index.html` are `index-….html` and `index-html-….html`.
    for file in files where !indexFiles.contains(file) {
      #expect(!file.hasPrefix(".") && !file.hasPrefix("-") && file.utf8.count <= 62, "\(file)")
      #expect(index.contains("<a href=\"\(file)\">"), "\(file)")
      let page = try String(contentsOf: pages.appendingPathComponent(file), encoding: .utf8)
      #expect(page.contains("<a href=\"index.html\">All accounts</a>") && !page.contains("<b>"), "\(file)")
    }
    // Ids that differ only by case, '/' or a control character get pages of their own.
    var names: Set<String> = []
    for id in ["A1", "a1", "a/b", "A/B", "a\u{FFFD}b", "../../escape"] {
      let name = try #require(Self.page(for: id, in: index), "\(id)")
      #expect(!name.contains("/"))
      names.insert(name)
      let page = try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8)
      #expect(page.contains("<span class=\"id\" title=\"\(id)\">\(id)</span>"), "\(id)")
    }
    #expect(names.count == 6)
  }

  @Test("Each account's page shows what a run over that account alone shows", arguments: commands)
  func pageIsTheAccountsReport(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ids = ["A", "a", "A/B", "../x", "c\u{1}"]
    let all = directory.appendingPathComponent("bank.jsonl")
    // Three transactions per account, on different days.
    try Group.dump(ids + ids + ids).write(to: all)
    let options: [String] =
      switch command {
      case "list": ["--limit", "2"]
      case "summary": ["--by", "month"]
      default: []
      }
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run(
      [command, "--quiet", "--per-account", "--output-dir", pages.path] + options + Self.inputs(command, all))
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let index = try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8)
    let lines = try String(contentsOf: all, encoding: .utf8).split(separator: "\n")
    for (number, id) in ids.enumerated() {
      let shown = id == "c\u{1}" ? "c\u{FFFD}" : id
      let name = try #require(Self.page(for: shown, in: index), "\(id)")
      let page = try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8)
      #expect(page.contains("<span class=\"count\">3 transactions</span>"), "\(id)")
      // The account's records alone, in a file of their own.
      let alone = directory.appendingPathComponent("alone-\(number).jsonl")
      let own = lines.enumerated().filter { $0.offset % ids.count == number }.map(\.element)
      try Data((own.joined(separator: "\n") + "\n").utf8).write(to: alone)
      switch command {
      case "list", "summary":
        let single = try CLIRunner.run([command, "--quiet", "--format", "html"] + options + [alone.path])
        #expect(single.status == 0, "\(single.stderr)")
        let report = String(decoding: single.stdout, as: UTF8.self)
        let start = command == "list" ? "<table class=\"rows list\">" : "<section class=\"summary\""
        let expected = try #require(Self.section(report, from: start))
        #expect(Self.section(page, from: start) == expected, "\(id)")
        let title = command == "list" ? "Transactions" : "By month"
        #expect(page.contains("<title>\(title) · Account "), "\(id)")
      default:
        // merge's page is group's page of the account alone, after the heading that names the inputs.
        let single = directory.appendingPathComponent("single-\(number)")
        let grouped = try CLIRunner.run(["group", "--quiet", "--per-account", "--output-dir", single.path, alone.path])
        #expect(grouped.status == 0, "\(grouped.stderr)")
        let file = try #require(Group.contents(single).first { !$0.hasPrefix("index") })
        #expect(file == name)
        let expected = try String(contentsOf: single.appendingPathComponent(file), encoding: .utf8)
        let body = try #require(expected.range(of: "</header>"))
        #expect(page.hasSuffix(expected[body.lowerBound...]), "\(id)")
      }
    }
  }

  @Test("An existing DIR that is not empty is refused before reading (73) and left as it was", arguments: commands)
  func refusesFullDirectory(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    try Group.dump(["A", "B"]).write(to: input)
    let arguments = try Self.inputs(command, input)
    let pages = directory.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: false)
    try Data("old".utf8).write(to: pages.appendingPathComponent("index.html"))
    let before = Group.contents(directory)
    let outcome = try CLIRunner.run([command, "--quiet", "--per-account", "--output-dir", pages.path] + arguments)
    #expect(outcome.status == 73, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("is not empty"))
    #expect(Group.contents(pages) == ["index.html"])
    #expect(try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8) == "old")
    #expect(Group.contents(directory) == before)
  }

  @Test("A link as DIR is refused (73): nothing is written through it", arguments: commands)
  func refusesLink(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    try Group.dump(["A", "B"]).write(to: input)
    let arguments = try Self.inputs(command, input)
    let target = directory.appendingPathComponent("target")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
    let link = directory.appendingPathComponent("pages")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let before = Group.contents(directory)
    let outcome = try CLIRunner.run([command, "--quiet", "--per-account", "--output-dir", link.path] + arguments)
    #expect(outcome.status == 73, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("symbolic link"))
    #expect(Group.contents(target).isEmpty)
    #expect(Group.contents(directory) == before)
  }

  @Test("A failed run (65) leaves no DIR and no private directory", arguments: commands)
  func failedRunLeavesNothing(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    var bytes = Group.dump(["A", "B"])
    bytes.append(Data("not json\n".utf8))
    try bytes.write(to: input)
    let arguments: [String]
    if command == "merge" {
      // Records are no partial state.
      arguments = [input.path]
    } else {
      arguments = ["--max-rejects", "0", input.path]
    }
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run([command, "--quiet", "--per-account", "--output-dir", pages.path] + arguments)
    #expect(outcome.status == 65, "\(outcome.stderr)")
    #expect(Group.contents(directory) == ["bank.jsonl"])
  }

  @Test("SIGINT while the run reads exits 130 and leaves no DIR and no private directory", arguments: commands)
  func interrupt(command: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pages = directory.appendingPathComponent("pages")
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [command, "--quiet", "--per-account", "--output-dir", pages.path]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Standard input left open: the private directory is made before reading.
    if command != "merge" { input.fileHandleForWriting.write(Group.dump(["A", "B"])) }
    let made = CLIRunner.waitUntil(milliseconds: 5_000) {
      Group.contents(directory).contains(where: { $0.hasPrefix(".pages.txfold-") })
    }
    #expect(made, "no private directory beside DIR")
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(Group.contents(directory).isEmpty)
  }

  @Test(
    "Usage errors (64): without --per-account, with --output, another format, --emit partial or an empty path",
    arguments: [
      ("list", ["--output-dir", "DIR"], "--output-dir needs --per-account"),
      ("summary", ["--output-dir", "DIR"], "--output-dir needs --per-account"),
      ("merge", ["--output-dir", "DIR"], "--output-dir needs --per-account"),
      ("list", ["--per-account", "--output-dir", "DIR", "-o", "x.html"], "give one of them"),
      ("summary", ["--per-account", "--output-dir", "DIR", "-o", "x.html"], "give one of them"),
      ("merge", ["--per-account", "--output-dir", "DIR", "-o", "x.html"], "give one of them"),
      ("list", ["--per-account", "--output-dir", "DIR", "--format", "json"], "not --format json"),
      ("summary", ["--per-account", "--output-dir", "DIR", "--format", "csv"], "not --format csv"),
      ("merge", ["--per-account", "--output-dir", "DIR", "--format", "text"], "not --format text"),
      ("merge", ["--per-account", "--output-dir", "DIR", "--emit", "partial"], "not --emit partial"),
      ("list", ["--per-account", "--output-dir", ""], "empty path"),
      ("summary", ["--per-account", "--output-dir", ""], "empty path"),
      ("merge", ["--per-account", "--output-dir", ""], "empty path"),
    ])
  func usageErrors(command: String, arguments: [String], message: String) throws {
    let scratch = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("bank.jsonl")
    try Group.dump(["A", "B"]).write(to: input)
    let inputs = try Self.inputs(command, input)
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let resolved = arguments.map { $0 == "DIR" ? directory.appendingPathComponent("pages").path : $0 }
    let outcome = try CLIRunner.run([command] + resolved + inputs, in: directory)
    #expect(outcome.status == 64, "\(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(Group.contents(directory).isEmpty)
  }
}
