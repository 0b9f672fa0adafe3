import Foundation
import Testing

@Suite("txfold list, end to end")
struct ListCommandTests {
  static let user = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
  static let duplicates = CLIRunner.fixture("duplicates.jsonl")

  @Test("Golden lists in every format", arguments: ["text", "json", "jsonl", "csv"])
  func golden(format: String) throws {
    let outcome = try CLIRunner.run(["list", "--quiet", "--format", format, Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "list-user-10015.\(format)")
  }

  @Test(
    "Golden lists: filters, pages, dedupe",
    arguments: [
      (["--category", "Groceries", "--category", "Food Drinks"], "list-user-10015-groceries-food.text"),
      (["--state", "pending", "--format", "json"], "list-user-10015-pending.json"),
      (["--since", "2019-05-29", "--until", "2019-05-30", "--format", "csv"], "list-user-10015-may-29-30.csv"),
      (["--page-size", "5", "--page", "2"], "list-user-10015-page-2.text"),
      (["--limit", "3", "--offset", "15", "--format", "jsonl"], "list-user-10015-offset-15.jsonl"),
    ] as [([String], String)])
  func goldenSelections(arguments: [String], name: String) throws {
    let outcome = try CLIRunner.run(["list", "--quiet"] + arguments + [Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: name)
  }

  @Test("Dedupe: the latest per id, decided before the filters")
  func dedupe() throws {
    let outcome = try CLIRunner.run(["list", "--dedupe", Self.duplicates])
    #expect(outcome.status == 0)
    Snapshot.assertMatches(outcome.stdout, named: "list-duplicates-dedupe.text")
    #expect(outcome.stderr.contains("7 lines: 7 accepted, 0 rejected, 3 duplicates"))
    let pending = try CLIRunner.run([
      "list", "--quiet", "--dedupe", "--state", "PENDING", "--format", "json", Self.duplicates,
    ])
    #expect(
      pending.text.hasPrefix(
        "{\n  \"transactions\": [],\n  \"sum\": [],\n  \"page\": {\"offset\":0,\"limit\":null,\"shown\":0,\"matched\":0}"
      ))
    // jsonl holds only rows: nothing matched, nothing written.
    let pendingLines = try CLIRunner.run([
      "list", "--quiet", "--dedupe", "--state", "PENDING", "--format", "jsonl", Self.duplicates,
    ])
    #expect(pendingLines.status == 0 && pendingLines.text.isEmpty)
    let all = try CLIRunner.run(["list", "--quiet", "--format", "csv", Self.duplicates])
    #expect(all.text.split(separator: "\r\n").count == 8)
  }

  @Test("Localised text lists", arguments: ["fr", "de", "nl", "es"])
  func locales(locale: String) throws {
    let outcome = try CLIRunner.run(["list", "--quiet", "--locale", locale, "--limit", "6", Self.user])
    #expect(outcome.status == 0)
    Snapshot.assertMatches(outcome.stdout, named: "list-user-10015.\(locale).text")
  }

  @Test("The pinned subset: --only-ids and --exclude-ids files")
  func pinned() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ids = directory.appendingPathComponent("pinned.txt")
    try Data("  d-2\r\n\nd-3\t\nd-9\n".utf8).write(to: ids)
    let only = try CLIRunner.run(["list", "--quiet", "--format", "csv", "--only-ids", ids.path, Self.duplicates])
    #expect(only.status == 0)
    let rows = only.text.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").prefix(1).joined() }
    #expect(rows == ["d-2", "d-3", "d-3"])
    let excluded = try CLIRunner.run([
      "list", "--quiet", "--dedupe", "--format", "json", "--exclude-ids", ids.path, Self.duplicates,
    ])
    #expect(
      excluded.text.contains(
        #""sum": [{"currency":"EUR","count":2,"amount":"-23.50","fees":"0","total":"-23.50"}]"#))
  }

  @Test("An ids file's UTF-8 byte-order mark is skipped, plain and gzip", arguments: [false, true])
  func pinnedWithByteOrderMark(gzip: Bool) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ids = directory.appendingPathComponent(gzip ? "pinned.txt.gz" : "pinned.txt")
    try MergeCommandTests.write([0xEF, 0xBB, 0xBF] + Array("d-2\r\nd-3\r\n".utf8), to: ids.path, gzip: gzip)
    let only = try CLIRunner.run(["list", "--quiet", "--format", "csv", "--only-ids", ids.path, Self.duplicates])
    #expect(only.status == 0)
    let rows = only.text.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").prefix(1).joined() }
    #expect(rows == ["d-2", "d-3", "d-3"])
    let excluded = try CLIRunner.run(["list", "--quiet", "--format", "csv", "--exclude-ids", ids.path, Self.duplicates])
    #expect(!excluded.text.contains("\r\nd-2,"))
  }

  @Test("A tiny --memory-limit spills to disk and gives the same bytes; nothing is left in TMPDIR")
  func spills() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl.gz").path
    #expect(try CLIRunner.run(["gen", "--count", "3000", "--seed", "5", "--gzip", "-o", dump]).status == 0)
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    for arguments in [
      ["--format", "jsonl"], ["--format", "json", "--dedupe", "--limit", "100", "--offset", "2900"],
      ["--format", "csv", "--threads", "3"], ["--format", "json", "--threads", "1", "--limit", "70", "--offset", "9"],
    ] {
      let inMemory = try CLIRunner.run(["list", "--quiet"] + arguments + [dump])
      let spilled = try CLIRunner.run(
        ["list"] + arguments + ["--memory-limit", "16K", dump], environment: ["TMPDIR": temporary.path])
      #expect(inMemory.status == 0 && spilled.status == 0, "\(spilled.stderr)")
      #expect(spilled.stdout == inMemory.stdout)
      #expect(spilled.stderr.contains("runs on disk"), "\(spilled.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }
  }

  @Test(
    "Exit codes",
    arguments: [
      (["list", "--limit", "2", "--page", "1"], Int32(64), "cannot be mixed"),
      (["list", "--offset", "1", "--page-size", "5"], 64, "cannot be mixed"),
      (["list", "--page", "2"], 64, "--page needs --page-size"),
      (["list", "--page-size", "0"], 64, "--page-size"),
      (["list", "--page-size", "10", "--page", "0"], 64, "--page must be at least 1, not 0."),
      (
        ["list", "--page-size", "10", "--page", "9223372036854775807"], 64,
        "--page 9223372036854775807 with --page-size 10 starts past any input's end."
      ),
      (["list", "--limit", "-1"], 64, "--limit"),
      (["list", "--since", "2019-02-30"], 64, "--since"),
      (["list", "--since", "2019-05-02", "--until", "2019-05-01"], 64, "--until"),
      (["list", "--memory-limit", "lots"], 64, "--memory-limit"),
      (["list", "--format", "xml"], 64, "--format"),
      (["list", "--locale", "xx"], 64, "--locale"),
      (["list", "--timezone", "Mars/Olympus"], 64, "--timezone"),
      (["list", "/no/such/file.jsonl"], 66, "/no/such/file.jsonl"),
      (["list", "--only-ids", "/no/such/ids.txt", CLIRunner.fixture("corpus.jsonl")], 66, "/no/such/ids.txt"),
      (["list", CLIRunner.fixture("corpus-bad-crc.jsonl.gz")], 74, "corpus-bad-crc.jsonl.gz"),
      (["list", "--strict", CLIRunner.fixture("corpus-one-malformed.jsonl")], 65, "line 5"),
      (["list", "--max-rejects", "0", CLIRunner.fixture("corpus-one-malformed.jsonl")], 65, "line 5"),
      (["list", "--max-rejects", "1", CLIRunner.fixture("corpus-one-malformed.jsonl")], 0, "1 rejected"),
      (
        ["list", "--memory-limit", "1", "--temp-dir", "/no/such/dir", CLIRunner.fixture("corpus.jsonl")], 74,
        "/no/such/dir"
      ),
    ] as [([String], Int32, String)])
  func exitCodes(arguments: [String], status: Int32, message: String) throws {
    let outcome = try CLIRunner.run(arguments)
    #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test(
    "--memory-limit below 1 MiB sorts with 1 MiB: it still spills, in a few runs, not a run per record",
    arguments: [
      ["list", "--format", "csv", "--threads", "1"], ["list", "--format", "text"],
      ["list", "--per-account", "--format", "csv", "--threads", "1"], ["summary", "--per-account", "--threads", "1"],
    ])
  func memoryFloor(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "8000", "--seed", "5", "--accounts", "50", "-o", dump]).status == 0)
    let inMemory = try CLIRunner.run(command + ["--quiet", dump])
    // Without the tests' setting (`CLIRunner.binary`), the floor of the command line.
    let tiny = try CLIRunner.run(command + ["--memory-limit", "1", dump], environment: ["TXFOLD_MIN_SORT_MEMORY": ""])
    #expect(tiny.status == 0, "\(tiny.stderr)")
    #expect(tiny.stdout == inMemory.stdout)
    let runs = try #require(
      tiny.stderr.range(of: #"sorted in [0-9]+ runs on disk"#, options: .regularExpression).map {
        Int(tiny.stderr[$0].split(separator: " ")[2])
      } ?? nil, "\(tiny.stderr)")
    #expect(runs > 0 && runs <= 40, "\(command): \(runs) runs")
  }

  @Test("--output is atomic, the rejects file names the bad line, a failed run writes no list")
  func outputs() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("list.json").path
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let good = try CLIRunner.run([
      "list", "--quiet", "--format", "json", "-o", report, "--rejects", rejects,
      CLIRunner.fixture("corpus-one-malformed.jsonl"),
    ])
    #expect(good.status == 0)
    #expect(good.stdout.isEmpty)
    #expect(
      try String(contentsOfFile: report, encoding: .utf8).contains(#""stats": {"lines":9,"accepted":8,"rejected":1"#))
    let rejected = try String(contentsOfFile: rejects, encoding: .utf8)
    #expect(rejected.contains(#""line":5,"reason":"invalid-json""#))
    let failed = directory.appendingPathComponent("failed.json").path
    let bad = try CLIRunner.run(["list", "-o", failed, CLIRunner.fixture("corpus-truncated.jsonl.gz")])
    #expect(bad.status == 74)
    #expect(bad.stderr.lowercased().contains("truncated"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["list.json", "rejects.jsonl"])
  }

  @Test("Rows are cut with … to COLUMNS, else 80 off a terminal; --wide never cuts")
  func width() throws {
    func widest(_ outcome: CLIRunner.Outcome) -> Int {
      outcome.text.split(separator: Character("\n")).map(\.unicodeScalars.count).max() ?? 0
    }
    let standard = try CLIRunner.run(["list", "--quiet", Self.user])
    #expect(widest(standard) == 80)
    #expect(standard.text.contains("…\n"))
    let narrow = try CLIRunner.run(["list", "--quiet", Self.user], environment: ["COLUMNS": "60"])
    #expect(widest(narrow) == 60)
    let wide = try CLIRunner.run(["list", "--quiet", "--wide", Self.user], environment: ["COLUMNS": "60"])
    #expect(widest(wide) > 80)
    #expect(!wide.text.contains("…"))
  }

  @Test("Colour only on request off a terminal, never with NO_COLOR under auto")
  func colour() throws {
    let plain = try CLIRunner.run(["list", "--quiet", Self.duplicates])
    #expect(!plain.stdout.contains(0x1B))
    let forced = try CLIRunner.run(["list", "--quiet", "--color", "always", Self.duplicates])
    #expect(forced.text.contains("\u{1B}[31m-€20.00\u{1B}[0m"))
    #expect(forced.text.contains("\u{1B}[32m€2,500.00\u{1B}[0m"))
    let noColor = try CLIRunner.run(["list", "--quiet", Self.duplicates], environment: ["NO_COLOR": "1"])
    #expect(!noColor.stdout.contains(0x1B))
  }

  @Test("Standard input, '-' and a file give the same list")
  func standardInput() throws {
    let input = Array(try Data(contentsOf: URL(fileURLWithPath: Self.user)))
    let fromFile = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", Self.user])
    let fromStdin = try CLIRunner.run(["list", "--quiet", "--format", "jsonl"], stdin: input)
    let fromDash = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", "-"], stdin: input)
    #expect(fromStdin.stdout == fromFile.stdout)
    #expect(fromDash.stdout == fromFile.stdout)
  }

  @Test("Every --threads gives the same bytes; --threads must be 1 to 256")
  func threads() throws {
    let one = try CLIRunner.run(["list", "--quiet", "--format", "csv", "--threads", "1", Self.user])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.count > 1000)
    for threads in ["2", "5"] {
      let many = try CLIRunner.run(
        ["list", "--quiet", "--format", "csv", "--threads", threads, "--memory-limit", "2K", Self.user])
      #expect(many.status == 0, "\(many.stderr)")
      #expect(many.stdout == one.stdout, "--threads \(threads)")
    }
    for wrong in ["0", "257", "x"] {
      let outcome = try CLIRunner.run(["list", "--threads", wrong, Self.user])
      #expect(outcome.status == 64, "--threads \(wrong)")
    }
  }

  @Test(
    "SIGINT while sorting on disk exits 130 and leaves no temporary file anywhere",
    arguments: ["text", "csv"])
  func interrupt(format: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    let outputs = directory.appendingPathComponent("out")
    for url in [temporary, outputs] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    let generated = try CLIRunner.run(["gen", "--count", "400", "--seed", "3"])
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "list", "--quiet", "--format", format, "--memory-limit", "1K", "-o",
      outputs.appendingPathComponent("list.txt").path, "--rejects",
      outputs.appendingPathComponent("rejects.jsonl").path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    process.environment = environment
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Feed records and keep standard input open, so the run is sorting when interrupted.
    input.fileHandleForWriting.write(Data(generated.stdout))
    var waited = 0
    while waited < 500 {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
      if !entries.isEmpty { break }  // the spill directory exists: runs are on disk
      usleep(10_000)
      waited += 1
    }
    #expect(waited < 500, "the sort never spilled")
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.path).isEmpty)
  }

  @Test("A closed output pipe ends the run quietly with 0")
  func closedPipe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "20000", "-o", dump]).status == 0)
    let (status, errors) = try CLIRunner.runIntoClosedPipe(["list", "--quiet", "--format", "jsonl", dump])
    #expect(status == "status=0", "\(status) \(errors)")
    #expect(errors.isEmpty, "\(errors)")
  }
}
