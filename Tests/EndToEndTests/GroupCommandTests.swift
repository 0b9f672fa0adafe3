import Foundation
import Testing
import TxFold

@Suite("txfold group, end to end")
struct GroupCommandTests {
  static let users = [
    "user-10000-empty", "user-10010-single-pending", "user-10011-grouped-pending", "user-10012-single-completed",
    "user-10013-grouped-completed", "user-10014-single-mixed", "user-10015-grouped-mixed",
  ]

  @Test("Golden reports for every sample user in every format", arguments: users, ["text", "json", "jsonl", "csv"])
  func golden(user: String, format: String) throws {
    let outcome = try CLIRunner.run(["group", "--quiet", "--format", format, CLIRunner.sample(user + ".jsonl")])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "\(user).\(format)")
  }

  @Test("Localised text reports", arguments: ["fr", "de", "nl", "es"])
  func locales(locale: String) throws {
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--locale", locale, CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
    ])
    #expect(outcome.status == 0)
    Snapshot.assertMatches(outcome.stdout, named: "user-10015-grouped-mixed.\(locale).text")
  }

  struct EnvironmentLocaleCase: Sendable, CustomTestStringConvertible {
    var environment: [String: String]
    var arguments: [String]
    var golden: String
    var testDescription: String { "\(environment) \(arguments)" }
  }

  @Test(
    "Without --locale the locale comes from LC_ALL, LC_MESSAGES, LANG (first set wins), else English",
    arguments: [
      EnvironmentLocaleCase(environment: ["LANG": "fr_FR.UTF-8"], arguments: [], golden: "fr"),
      EnvironmentLocaleCase(environment: ["LC_MESSAGES": "de_DE", "LANG": "fr_FR"], arguments: [], golden: "de"),
      EnvironmentLocaleCase(environment: ["LC_ALL": "nl_NL.UTF-8", "LANG": "fr_FR"], arguments: [], golden: "nl"),
      EnvironmentLocaleCase(environment: ["LC_ALL": "C", "LANG": "es_ES"], arguments: [], golden: "en"),
      EnvironmentLocaleCase(environment: ["LANG": "POSIX"], arguments: [], golden: "en"),
      EnvironmentLocaleCase(environment: ["LANG": "ja_JP.UTF-8"], arguments: [], golden: "en"),
      EnvironmentLocaleCase(environment: ["LC_ALL": "", "LANG": "es_ES.UTF-8"], arguments: [], golden: "es"),
      EnvironmentLocaleCase(environment: ["LANG": "fr_FR.UTF-8"], arguments: ["--locale", "de"], golden: "de"),
    ])
  func environmentLocale(_ test: EnvironmentLocaleCase) throws {
    let outcome = try CLIRunner.run(
      ["group", "--quiet"] + test.arguments + [CLIRunner.sample("user-10015-grouped-mixed.jsonl")],
      environment: test.environment)
    #expect(outcome.status == 0)
    let name = test.golden == "en" ? "user-10015-grouped-mixed.text" : "user-10015-grouped-mixed.\(test.golden).text"
    let expected = try Data(contentsOf: Snapshot.directory.appendingPathComponent(name))
    #expect(outcome.stdout == Array(expected), "\(name)")
  }

  struct InferredFormatCase: Sendable, CustomTestStringConvertible {
    var command: String
    var file: String
    var format: String?
    var expected: String
    var testDescription: String { "\(command) -o \(file) \(format ?? "")" }
  }

  @Test(
    "-o infers --format from its extension unless --format is given",
    arguments: ["group", "list", "summary", "merge"].flatMap { command in
      [
        InferredFormatCase(command: command, file: "out.csv", expected: "csv"),
        InferredFormatCase(command: command, file: "out.json", expected: "json"),
        InferredFormatCase(command: command, file: "OUT.JSONL", expected: "jsonl"),
        InferredFormatCase(command: command, file: "out.txt", expected: "text"),
        InferredFormatCase(command: command, file: "out.report", expected: "text"),
        InferredFormatCase(command: command, file: "out", expected: "text"),
        InferredFormatCase(command: command, file: "out.csv", format: "json", expected: "json"),
      ]
    })
  func inferredFormat(_ test: InferredFormatCase) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var input = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
    if test.command == "merge" {
      input = directory.appendingPathComponent("user.partial").path
      let partial = try CLIRunner.run([
        "group", "--quiet", "--emit", "partial", "-o", input, CLIRunner.sample("user-10015-grouped-mixed.jsonl"),
      ])
      #expect(partial.status == 0, "\(partial.stderr)")
    }
    let output = directory.appendingPathComponent(test.file)
    let given = test.format.map { ["--format", $0] } ?? []
    let written = try CLIRunner.run([test.command, "--quiet", "-o", output.path] + given + [input])
    #expect(written.status == 0, "\(written.stderr)")
    let expected = try CLIRunner.run([test.command, "--quiet", "--format", test.expected, input])
    #expect(try Array(Data(contentsOf: output)) == expected.stdout)
  }

  @Test("--version names the gzip library the binary inflates with")
  func versionNamesGzipLibrary() throws {
    let outcome = try CLIRunner.run(["--version"])
    #expect(outcome.status == 0)
    #if ISAL
      let library = "ISA-L"
    #else
      let library = "zlib"
    #endif
    #expect(GzipSource.inflateLibrary == library)
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == "0.1.0 (gzip input: \(library))\n")
  }

  @Test("Standard input, '-', a file and every thread count give the same bytes")
  func sameBytesEverywhere() throws {
    let path = CLIRunner.fixture("corpus.jsonl")
    let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let fromFile = try CLIRunner.run(["group", "--quiet", "--format", "json", path])
    #expect(fromFile.status == 0)
    let fromStdin = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: input)
    let fromDash = try CLIRunner.run(["group", "--quiet", "--format", "json", "-"], stdin: input)
    #expect(fromStdin.stdout == fromFile.stdout)
    #expect(fromDash.stdout == fromFile.stdout)
    let gzipped = Array(try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("corpus-multimember.jsonl.gz"))))
    let fromGzipStdin = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: gzipped)
    #expect(fromGzipStdin.stdout == fromFile.stdout)
    for zstd in ["corpus.jsonl.zst", "corpus-multiframe.jsonl.zst"] {
      let compressed = Array(try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture(zstd))))
      let fromZstdStdin = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: compressed)
      #expect(fromZstdStdin.stdout == fromFile.stdout, "\(zstd)")
      let fromZstdFile = try CLIRunner.run(["group", "--quiet", "--format", "json", CLIRunner.fixture(zstd)])
      #expect(fromZstdFile.stdout == fromFile.stdout, "\(zstd)")
    }
    for threads in ["1", "2", "4"] {
      let outcome = try CLIRunner.run(["group", "--quiet", "--format", "json", "--threads", threads, path])
      #expect(outcome.stdout == fromFile.stdout, "threads \(threads)")
    }
  }

  @Test("CSV bytes do not depend on --members; a partial asked for with --format csv keeps its members")
  func csvKeepsNoMembers() throws {
    let path = CLIRunner.fixture("corpus.jsonl")
    let csv = try CLIRunner.run(["group", "--quiet", "--format", "csv", path])
    #expect(csv.status == 0 && !csv.stdout.isEmpty)
    for members in ["0", "1", "all"] {
      let outcome = try CLIRunner.run(["group", "--quiet", "--format", "csv", "--members", members, path])
      #expect(outcome.stdout == csv.stdout, "--members \(members)")
    }
    // --emit partial ignores --format, so the CSV shortcut must not drop the partial's members.
    let partial = try CLIRunner.run(["group", "--quiet", "--emit", "partial", path])
    let csvPartial = try CLIRunner.run(["group", "--quiet", "--format", "csv", "--emit", "partial", path])
    #expect(partial.status == 0 && csvPartial.stdout == partial.stdout)
    #expect(partial.text.contains(#"{"member":"#))
  }

  @Test("Several files are one stream of records")
  func severalFiles() throws {
    let outcome = try CLIRunner.run([
      "group", "--quiet", "--format", "jsonl", CLIRunner.sample("user-10010-single-pending.jsonl"),
      CLIRunner.sample("user-10012-single-completed.jsonl"),
    ])
    let single = try CLIRunner.run([
      "group", "--quiet", "--format", "jsonl", CLIRunner.sample("user-10014-single-mixed.jsonl"),
    ])
    #expect(outcome.status == 0)
    #expect(single.status == 0)
    // jsonl holds only the group rows: no `{"stats":…}` line at the end.
    let lastLine = outcome.text.split(separator: "\n").last.map(String.init) ?? ""
    #expect(lastLine.hasPrefix(#"{"state":"#))
    #expect(!outcome.text.contains(#"{"stats""#))
    let json = try CLIRunner.run([
      "group", "--quiet", "--format", "json", CLIRunner.sample("user-10010-single-pending.jsonl"),
      CLIRunner.sample("user-10012-single-completed.jsonl"),
    ])
    #expect(json.text.contains(#""stats": {"lines":9,"accepted":9,"rejected":0,"duplicates":0}"#))
  }

  @Test("The rejects file names each bad line with a stable reason")
  func rejectsFile() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rejects = directory.appendingPathComponent("rejects.jsonl").path
    let outcome = try CLIRunner.run([
      "group", "--format", "json", "--rejects", rejects, CLIRunner.fixture("corpus-one-malformed.jsonl"),
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.contains("9 lines: 8 accepted, 1 rejected (invalid-json 1)"))
    let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(object?["line"] as? Int == 5)
    #expect(object?["reason"] as? String == "invalid-json")
    #expect(
      (object?["message"] as? String)?.hasSuffix("(\(CLIRunner.fixture("corpus-one-malformed.jsonl")), line 5).")
        == true)
    #expect((object?["raw"] as? String)?.hasPrefix(#"{"id":"broken""#) == true)
    #expect(
      outcome.text.contains(#""stats": {"lines":9,"accepted":8,"rejected":1,"duplicates":0}"#)
        || outcome.text.contains(#""stats":{"lines":9,"accepted":8,"rejected":1,"duplicates":0}"#))
  }

  @Test("--output is written atomically and not at all when the run fails")
  func atomicOutput() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.json").path
    let good = try CLIRunner.run([
      "group", "--quiet", "--format", "json", "-o", report, CLIRunner.fixture("corpus.jsonl"),
    ])
    #expect(good.status == 0)
    #expect(good.stdout.isEmpty)
    #expect(FileManager.default.fileExists(atPath: report))
    let failed = directory.appendingPathComponent("failed.json").path
    let bad = try CLIRunner.run([
      "group", "--format", "json", "-o", failed, CLIRunner.fixture("corpus-truncated.jsonl.gz"),
    ])
    #expect(bad.status == 74)
    #expect(bad.stderr.contains("corpus-truncated.jsonl.gz"))
    #expect(bad.stderr.lowercased().contains("truncated"))
    #expect(!FileManager.default.fileExists(atPath: failed))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
  }

  @Test(
    "Exit codes",
    arguments: [
      (["group", "--no-such-option"], Int32(64), "--no-such-option"),
      (["group", "--format", "xml"], 64, "--format"),
      (["group", "--members", "-1"], 64, "--members"),
      (["group", "--timezone", "Mars/Olympus"], 64, "--timezone"),
      (["group", "--locale", "xx"], 64, "--locale"),
      (["group", "/no/such/file.jsonl"], 66, "/no/such/file.jsonl"),
      (["group", CLIRunner.fixture("corpus.jsonl"), "/no/such/file.jsonl"], 66, "/no/such/file.jsonl"),
      (["group", CLIRunner.fixture("corpus-bad-crc.jsonl.gz")], 74, "corpus-bad-crc.jsonl.gz"),
      (["group", CLIRunner.fixture("corpus-bad-checksum.jsonl.zst")], 74, "Corrupt zstd stream"),
      (["list", CLIRunner.fixture("corpus-truncated.jsonl.zst")], 74, "Truncated zstd stream"),
      (["group", "--strict", CLIRunner.fixture("corpus-one-malformed.jsonl")], 65, "line 5"),
      (["group", "--max-rejects", "0", CLIRunner.fixture("corpus-one-malformed.jsonl")], 65, "line 5"),
      (["group", "--max-rejects", "1", CLIRunner.fixture("corpus-one-malformed.jsonl")], 0, "1 rejected"),
      (["group", CLIRunner.packageRoot.path], 66, "directory"),
    ] as [([String], Int32, String)])
  func exitCodes(arguments: [String], status: Int32, message: String) throws {
    let outcome = try CLIRunner.run(arguments)
    #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test("Text output has no colour off a terminal, and none with NO_COLOR even when forced by auto")
  func noColor() throws {
    let plain = try CLIRunner.run(["group", "--quiet", CLIRunner.fixture("corpus.jsonl")])
    #expect(!plain.stdout.contains(0x1B))
    let forced = try CLIRunner.run(["group", "--quiet", "--color", "always", CLIRunner.fixture("corpus.jsonl")])
    #expect(forced.stdout.contains(0x1B))
    let noColor = try CLIRunner.run(
      ["group", "--quiet", CLIRunner.fixture("corpus.jsonl")], environment: ["NO_COLOR": "1"])
    #expect(!noColor.stdout.contains(0x1B))
  }

  @Test("A closed output pipe ends the run quietly with 0")
  func closedPipe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "20000", "-o", dump]).status == 0)
    let (status, errors) = try CLIRunner.runIntoClosedPipe([
      "group", "--quiet", "--members", "all", "--format", "jsonl", dump,
    ])
    #expect(status == "status=0", "\(status) \(errors)")
    #expect(errors.isEmpty, "\(errors)")
  }

  @Test("SIGINT exits 130 and leaves no partial --output")
  func interrupt() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.json").path
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["group", "--quiet", "-o", report]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Feed some records and keep standard input open, so the run is mid-way when interrupted.
    input.fileHandleForWriting.write(Data(Array(repeating: UInt8(ascii: "\n"), count: 10)))
    var waited = 0
    while waited < 200 {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      if !entries.isEmpty { break }  // the temporary output exists: the run has started
      usleep(10_000)
      waited += 1
    }
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("gen is deterministic, and its gzip output reads back to the same report")
  func gen() throws {
    let first = try CLIRunner.run(["gen", "--count", "300", "--seed", "9"])
    let second = try CLIRunner.run(["gen", "--count", "300", "--seed", "9"])
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.filter { $0 == UInt8(ascii: "\n") }.count == 300)
    let gzipped = try CLIRunner.run(["gen", "--count", "300", "--seed", "9", "--gzip"])
    #expect(Array(gzipped.stdout.prefix(2)) == [0x1F, 0x8B])
    let plainReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: first.stdout)
    let gzipReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: gzipped.stdout)
    #expect(plainReport.stdout == gzipReport.stdout)
    #expect(plainReport.text.contains(#""accepted":300"#))
  }

  @Test("gen --order and --resend: the same report in every order; --dedupe counts the re-sends")
  func genOrderAndResend() throws {
    let day = try CLIRunner.run(["gen", "--count", "400", "--seed", "5", "--accounts", "20"])
    let dayReport = try CLIRunner.run(["group", "--quiet", "--format", "csv"], stdin: day.stdout)
    #expect(dayReport.status == 0)
    for order in ["account", "shuffled"] {
      let dump = try CLIRunner.run(["gen", "--count", "400", "--seed", "5", "--accounts", "20", "--order", order])
      #expect(dump.status == 0)
      #expect(dump.stdout != day.stdout)
      let report = try CLIRunner.run(["group", "--quiet", "--format", "csv"], stdin: dump.stdout)
      #expect(report.stdout == dayReport.stdout, "\(order)")
    }
    let resent = try CLIRunner.run(["gen", "--count", "400", "--seed", "5", "--resend", "25%", "--order", "shuffled"])
    #expect(resent.stdout.filter { $0 == UInt8(ascii: "\n") }.count == 500)
    let deduped = try CLIRunner.run(["group", "--dedupe", "--format", "json"], stdin: resent.stdout)
    #expect(deduped.status == 0, "\(deduped.stderr)")
    #expect(deduped.stderr.contains("100 duplicates"), "\(deduped.stderr)")
  }

  @Test("gen --accounts writes an arrangementId per record, the same report otherwise, and refuses a bad count")
  func genAccounts() throws {
    let plain = try CLIRunner.run(["gen", "--count", "300", "--seed", "9"])
    let accounts = try CLIRunner.run(["gen", "--count", "300", "--seed", "9", "--accounts", "40"])
    #expect(accounts.status == 0)
    let lines = accounts.text.split(separator: "\n")
    #expect(lines.count == 300)
    #expect(
      lines.allSatisfy {
        $0.hasPrefix(#"{"arrangementId":"A00000000"#) || $0.hasPrefix(#"{"arrangementId": "A00000000"#)
      })
    // The account is one more field: the group report, which does not read it, is the same.
    let plainReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: plain.stdout)
    let accountsReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: accounts.stdout)
    #expect(accountsReport.status == 0)
    #expect(plainReport.stdout == accountsReport.stdout)
    for bad in ["-1", "10000000001"] {
      let refused = try CLIRunner.run(["gen", "--count", "3", "--accounts=\(bad)"])
      #expect(refused.status == 64, "--accounts=\(bad)")
      #expect(refused.stdout.isEmpty)
    }
  }
}
