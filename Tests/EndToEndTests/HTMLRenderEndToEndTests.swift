import Foundation
import Testing

/// `--format html` of `group`, `merge`, `list` and `summary` on the sample
/// user, as golden files (`Tests/Snapshots/*.html`, reviewed in a browser:
/// `Scripts/browser-check.sh` renders them at phone and desktop widths).
@Suite("HTMLRender, end to end")
struct HTMLRenderEndToEndTests {
  static let user = CLIRunner.sample("user-10015-grouped-mixed.jsonl")

  /// `name.html` in English, `name.LOCALE.html` otherwise.
  static func snapshot(_ name: String, _ locale: String) -> String {
    locale == "en" ? "\(name).html" : "\(name).\(locale).html"
  }

  @Test("Golden group pages in every locale", arguments: ["en", "fr", "de", "nl", "es"])
  func group(locale: String) throws {
    let outcome = try CLIRunner.run(["group", "--quiet", "--format", "html", "--locale", locale, Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: Self.snapshot("user-10015-grouped-mixed", locale))
  }

  @Test("Golden list pages", arguments: ["en", "fr"])
  func list(locale: String) throws {
    let outcome = try CLIRunner.run(["list", "--quiet", "--format", "html", "--locale", locale, Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: Self.snapshot("list-user-10015", locale))
  }

  @Test("Golden summary pages", arguments: ["en", "fr"])
  func summary(locale: String) throws {
    let outcome = try CLIRunner.run(
      ["summary", "--quiet", "--by", "category", "--format", "html", "--locale", locale, Self.user])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    Snapshot.assertMatches(outcome.stdout, named: Self.snapshot("summary-user-10015-category", locale))
  }

  @Test("merge of a partial writes the same page as group, naming the partial as its input")
  func merge() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let partial = directory.appendingPathComponent("user.partial").path
    let emitted = try CLIRunner.run(["group", "--quiet", "--emit", "partial", "-o", partial, Self.user])
    #expect(emitted.status == 0, "\(emitted.stderr)")
    let merged = try CLIRunner.run(["merge", "--quiet", "--format", "html", partial])
    let grouped = try CLIRunner.run(["group", "--quiet", "--format", "html", Self.user])
    #expect(merged.status == 0, "\(merged.stderr)")
    // The same page but for the input it names (the partial; the dump).
    #expect(merged.text.contains("<title>Grouped transactions · user.partial · May 15, 2019 – May 31, 2019</title>"))
    #expect(
      merged.text.replacingOccurrences(of: "user.partial", with: "user-10015-grouped-mixed.jsonl") == grouped.text)
  }

  @Test("A hostile description arrives escaped in every command's page")
  func injection() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("hostile.jsonl")
    let line =
      #"{"id":"1","description":"<script>alert(1)</script> \" ' &","category":"<img src=x>","#
      + #""transactionAmountCurrency":{"amount":"7.50","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","#
      + #""creationTime":"2019-05-17T10:00:00","state":"PENDING"}"#
    try Data((line + "\n").utf8).write(to: input)
    for command in [["group"], ["list"], ["summary", "--by", "category"]] {
      let outcome = try CLIRunner.run(command + ["--quiet", "--format", "html", input.path])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(!outcome.text.contains("<script") && !outcome.text.contains("<img"), "\(command)")
      if command != ["summary", "--by", "category"] {
        // (A description may wrap after '/': `<wbr>`.)
        #expect(outcome.text.contains("&lt;script&gt;alert(1)&lt;/<wbr>script&gt; &quot; &#39; &amp;"), "\(command)")
      }
      #expect(outcome.text.contains("&lt;img src=x&gt;") || command == ["group"], "\(command)")
    }
  }

  @Test("--format names html among its choices")
  func badFormat() throws {
    let outcome = try CLIRunner.run(["list", "--format", "pdf", Self.user])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("text, json, jsonl, csv or html"))
  }

  /// The `<title>` of a page (its first: the charts' SVGs have titles too) and the line under its `<h1>`.
  static func heading(_ page: String) -> (title: String, sub: String) {
    func first(from start: String, to end: String) -> String {
      guard let open = page.range(of: start), let close = page.range(of: end, range: open.upperBound..<page.endIndex)
      else { return "" }
      return String(page[open.upperBound..<close.lowerBound])
    }
    return (first(from: "<title>", to: "</title>"), first(from: "</h1>\n<p class=\"sub\">", to: "</p>"))
  }

  /// One transaction a day: `id` on `day` (`2019-05-DD`) for 10 EUR in `category`.
  static func line(_ id: String, _ day: String, _ category: String) -> String {
    #"{"id":"\#(id)","description":"Bought \#(id)","category":"\#(category)","#
      + #""transactionAmountCurrency":{"amount":"10.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","#
      + #""creationTime":"2019-05-\#(day)T12:00:00","state":"COMPLETED"}"#
  }

  @Test("list and summary pages name the input and the period (first and last day) as group's do")
  func period() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("may.jsonl")
    // `a` is sent twice: its first version, on the 1st, loses to the one on the 2nd under --dedupe.
    let lines = [
      Self.line("a", "01", "Food"), Self.line("b", "10", "Food"), Self.line("a", "02", "Food"),
      Self.line("c", "20", "Travel"),
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
    func heading(_ arguments: [String]) throws -> (title: String, sub: String) {
      let outcome = try CLIRunner.run(arguments + ["--quiet", "--format", "html", input.path])
      #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
      return Self.heading(outcome.text)
    }
    let group = try heading(["group"])
    #expect(group.title == "Grouped transactions · may.jsonl · May 1, 2019 – May 20, 2019")
    for (command, title) in [(["list"], "Transactions"), (["summary", "--by", "category"], "By category")] {
      // The same words, dates and markup as group's heading, after the page's own title.
      let page = try heading(command)
      #expect(page.title == "\(title) · may.jsonl · May 1, 2019 – May 20, 2019", "\(command)")
      #expect(page.sub == group.sub, "\(command)")
      // The filter's and dedupe's transactions: the losing version on the 1st is not one.
      #expect(
        try heading(command + ["--category", "Food"]).title == "\(title) · may.jsonl · May 1, 2019 – May 10, 2019",
        "\(command)")
      #expect(
        try heading(command + ["--dedupe"]).title == "\(title) · may.jsonl · May 2, 2019 – May 20, 2019",
        "\(command)")
      // One day is named once; no transaction, no period.
      #expect(try heading(command + ["--category", "Travel"]).title == "\(title) · may.jsonl · May 20, 2019")
      #expect(try heading(command + ["--category", "None"]).title == "\(title) · may.jsonl", "\(command)")
      // In the report's language, as group's.
      let french = try heading(command + ["--locale", "fr"])
      #expect(french.sub == (try heading(["group", "--locale", "fr"])).sub, "\(command)")
    }
    // A list's period is every matching transaction's, not only the page's.
    #expect(
      try heading(["list", "--limit", "1"]).title == "Transactions · may.jsonl · May 1, 2019 – May 20, 2019")
  }
}
