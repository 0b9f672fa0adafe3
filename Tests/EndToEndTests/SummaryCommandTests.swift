import Foundation
import Testing

@Suite("txfold summary, end to end")
struct SummaryCommandTests {
  static let user = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
  /// A fixed chart width, whatever the terminal running the tests.
  static let width = ["COLUMNS": "80"]

  @Test("Golden text summaries by every key", arguments: ["category", "day", "month", "counterparty", "state"])
  func golden(by: String) throws {
    let outcome = try CLIRunner.run(["summary", "--quiet", "--by", by, Self.user], environment: Self.width)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "summary-user-10015-\(by).text")
  }

  /// Two debits of 38 digits, the most an input amount has, whose expense is -2^127: the one sum
  /// whose magnitude does not fit 128 bits. Ranking by absolute expense and drawing the bars
  /// took that magnitude and trapped (exit 132, no report).
  @Test(
    "An expense of -2^127 is ranked, written and drawn in every format",
    arguments: ["text", "json", "jsonl", "csv", "html"])
  func smallestExpense(format: String) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = [
      ("1", "99999999999999999999999999999999999999", "EUR", "Rent"),
      ("2", "70141183460469231731687303715884105729", "EUR", "Rent"), ("3", "12.50", "USD", "Food"),
    ].map { id, amount, currency, category in
      #"{"id":"\#(id)","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"\#(currency)"},"#
        + #""creditDebitIndicator":"DBIT","creationTime":"2019-05-17T09:00:00","state":"COMPLETED","#
        + #""category":"\#(category)","arrangementId":"A"}"#
    }
    let input = directory.appendingPathComponent("debits.jsonl")
    try Data(records.joined(separator: "\n").utf8).write(to: input)
    for perAccount in [[], ["--per-account"]] {
      let outcome = try CLIRunner.run(
        ["summary", "--quiet", "--format", format] + perAccount + [input.path], environment: Self.width)
      #expect(outcome.status == 0, "\(perAccount) \(outcome.stderr)")
      #expect(outcome.text.contains("170141183460469231731687303715884105728") || format == "text" || format == "html")
      // Rent, the larger expense, comes first.
      let rent = try #require(outcome.text.range(of: "Rent"), "\(format) \(perAccount)")
      let food = try #require(outcome.text.range(of: "Food"), "\(format) \(perAccount)")
      #expect(rent.lowerBound < food.lowerBound, "\(format) \(perAccount)")
    }
  }

  @Test("Golden machine formats", arguments: ["json", "jsonl", "csv"])
  func machineFormats(format: String) throws {
    let outcome = try CLIRunner.run(["summary", "--quiet", "--format", format, Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: "summary-user-10015-category.\(format)")
  }

  @Test("Localised text summaries", arguments: ["fr", "de", "nl", "es"])
  func locales(locale: String) throws {
    let outcome = try CLIRunner.run(
      ["summary", "--quiet", "--by", "day", "--locale", locale, Self.user], environment: Self.width)
    #expect(outcome.status == 0)
    Snapshot.assertMatches(outcome.stdout, named: "summary-user-10015-day.\(locale).text")
  }

  @Test("--sort orders every format; a bad value is a usage error naming --sort")
  func sortOption() throws {
    let byKey = try CLIRunner.run(["summary", "--quiet", "--sort", "key", "--format", "csv", Self.user])
    let keys = byKey.text.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",").first.map(String.init) ?? ""
    }
    let named = keys.filter { !$0.isEmpty }
    #expect(named == named.sorted())
    let byCount = try CLIRunner.run(["summary", "--quiet", "--sort", "count", "--format", "csv", Self.user])
    #expect(byCount.text != byKey.text)
    let bad = try CLIRunner.run(["summary", "--sort", "size", Self.user])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--sort"))
  }

  @Test("The chart fills COLUMNS")
  func width() throws {
    let narrow = try CLIRunner.run(["summary", "--quiet", Self.user], environment: ["COLUMNS": "40"])
    let wide = try CLIRunner.run(["summary", "--quiet", Self.user], environment: ["COLUMNS": "120"])
    // Chart lines: the axis splits the bar column in two equal halves, so they may end one column short.
    func widest(_ text: String) -> Int {
      text.split(separator: Character("\n")).filter { $0.contains("│") }.map(\.count).max() ?? 0
    }
    #expect(widest(narrow.text) == 55)  // the 10-column minimum bar (4 + axis + 4 used) beside a 46-column table
    #expect((119...120).contains(widest(wide.text)))
  }

  @Test(
    "A huge COLUMNS is bounded to 1,000 columns, never a crash or a giant line",
    arguments: ["9223372036854775807", "1000000000000", "100000000"])
  func hugeColumns(columns: String) throws {
    for command in ["group", "list", "summary"] {
      let outcome = try CLIRunner.run([command, "--quiet", Self.user], environment: ["COLUMNS": columns])
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
      let widest = outcome.text.split(separator: Character("\n")).map(\.unicodeScalars.count).max() ?? 0
      #expect(widest > 0 && widest <= 1_000, "\(command)")
    }
    let summary = try CLIRunner.run(["summary", "--quiet", Self.user], environment: ["COLUMNS": columns])
    let bounded = try CLIRunner.run(["summary", "--quiet", Self.user], environment: ["COLUMNS": "1000"])
    #expect(summary.stdout == bounded.stdout)
  }

  @Test("The insights of the pinned subset only, deduplicated")
  func pinnedAndDedupe() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ids = directory.appendingPathComponent("pinned.txt")
    try Data("d-1\nd-3\nd-4\n".utf8).write(to: ids)
    let outcome = try CLIRunner.run([
      "summary", "--dedupe", "--format", "csv", "--only-ids", ids.path, CLIRunner.fixture("duplicates.jsonl"),
    ])
    #expect(outcome.status == 0)
    #expect(
      outcome.text
        == "key,currency,count,income,expense\r\nShopping,EUR,1,0.00,-20.00\r\nTransport,EUR,1,0.00,-12.90\r\n"
        + "Food,EUR,1,0.00,-3.50\r\n")
    #expect(outcome.stderr.contains("3 duplicates"))
  }

  @Test(
    "Exit codes",
    arguments: [
      (["summary", "--by", "fortnight"], Int32(64), "--by"),
      (["summary", "--format", "xml"], 64, "--format"),
      (["summary", "--until", "tomorrow"], 64, "--until"),
      (["summary", "/no/such/file.jsonl"], 66, "/no/such/file.jsonl"),
      (["summary", CLIRunner.fixture("corpus-truncated.jsonl.gz")], 74, "corpus-truncated.jsonl.gz"),
      (["summary", "--strict", CLIRunner.fixture("corpus-one-malformed.jsonl")], 65, "line 5"),
      (["summary", "--max-rejects", "1", CLIRunner.fixture("corpus-one-malformed.jsonl")], 0, "1 rejected"),
    ] as [([String], Int32, String)])
  func exitCodes(arguments: [String], status: Int32, message: String) throws {
    let outcome = try CLIRunner.run(arguments)
    #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test(
    "A total over every key that overflows is named as the sum, not as the key of records without one",
    arguments: [["--threads", "1"], ["--threads", "2"], ["--per-account"], ["--per-account", "--threads", "1"]])
  func grandTotalOverflow(options: [String]) throws {
    // Each category holds one 38-digit amount (its own sum fits); their sum over both does not.
    let amount = String(repeating: "9", count: 38)
    let dump =
      ["Food", "Rent"].map { category in
        #"{"id":"\#(category)","transactionAmountCurrency":{"amount":"\#(amount)","currencyCode":"EUR"},"#
          + #""creditDebitIndicator":"DBIT","creationTime":"2019-05-17T10:00:00","state":"PENDING","#
          + #""category":"\#(category)","arrangementId":"acc"}"#
      }.joined(separator: "\n") + "\n"
    let outcome = try CLIRunner.run(["summary"] + options, stdin: Array(dump.utf8))
    #expect(outcome.status == 65)
    #expect(outcome.stdout.isEmpty)
    let source = options.contains("--per-account") ? "in '-'" : "while reading '-'"
    #expect(
      outcome.stderr.contains("The EUR sum overflows 128 bits \(source); no report is written."), "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("(none)"), "\(outcome.stderr)")
  }

  @Test("--threads 1 and --threads 4 write the same bytes in every format, with rejections and a filter")
  func threads() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "6000", "--seed", "11", "-o", dump]).status == 0)
    // A broken record, so the rejects files are compared too.
    let handle = try #require(FileHandle(forWritingAtPath: dump))
    handle.seekToEndOfFile()
    handle.write(Data("{\"id\": \"broken\"\n".utf8))
    try handle.close()
    for by in ["category", "week", "counterparty"] {
      for format in ["text", "json", "csv", "html"] {
        var outputs: [[UInt8]] = []
        for threads in ["1", "4"] {
          let rejects = directory.appendingPathComponent("rejects-\(threads).jsonl").path
          let outcome = try CLIRunner.run(
            [
              "summary", "--by", by, "--format", format, "--threads", threads, "--since", "2023-03-01",
              "--timezone", "Europe/Amsterdam", "--rejects", rejects, "--quiet", dump,
            ], environment: Self.width)
          #expect(outcome.status == 0, "\(outcome.stderr)")
          outputs.append(outcome.stdout)
          outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: rejects))))
        }
        #expect(outputs[0] == outputs[2], "\(by) \(format)")
        #expect(outputs[1] == outputs[3], "\(by) \(format)")
        #expect(!outputs[1].isEmpty)
      }
    }
  }
}
