import Foundation
import Testing

/// The period `list` and `summary --per-account --output-dir DIR` pages name
/// (`<title>` and heading, as `group`'s): for `summary`, the first and last
/// day of the account's transactions summed; for `list`, of its matching
/// transactions, all pages — after the filter and `--dedupe`, in the filter's
/// zone, however the sort ran (threads, runs on disk merged). A summary's
/// index names the run's period in its title.
@Suite("list and summary --output-dir pages name their period")
struct OutputDirectoryPeriodTests {
  /// One 10 EUR transaction of `account`, `id`, at `instant`, in `category`.
  static func line(_ account: String, _ id: String, _ instant: String, _ category: String) -> String {
    #"{"id":"\#(id)","arrangementId":"\#(account)","description":"Bought \#(id)","category":"\#(category)","#
      + #""transactionAmountCurrency":{"amount":"10.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT","#
      + #""creationTime":"\#(instant)","state":"COMPLETED"}"#
  }

  /// Four accounts, interleaved:
  /// - `A1`: May 1 (`a`'s first version, which loses to May 2's under `--dedupe`), 2, 3, 10 and 20, the
  ///   3rd and 20th in `Travel`, the others in `Food`;
  /// - `B2`: one transaction, on May 7;
  /// - `C3`: June 1 at 01:00+02:00 (May 31 in UTC) and June 3 at 23:30Z (June 4 in Tokyo);
  /// - `D4`: May 2 at 01:00+05:00 and May 1 at 22:00-05:00 — as written, the earlier instant is on the
  ///   later day, so the first and last day are not the earliest and latest instants'.
  static let lines = [
    line("A1", "a", "2019-05-01T12:00:00Z", "Food"), line("C3", "f", "2019-06-01T01:00:00+02:00", "Food"),
    line("A1", "b", "2019-05-03T12:00:00Z", "Travel"), line("D4", "h", "2019-05-02T01:00:00+05:00", "Food"),
    line("A1", "a", "2019-05-02T12:00:00Z", "Food"), line("B2", "e", "2019-05-07T12:00:00Z", "Food"),
    line("A1", "c", "2019-05-10T12:00:00Z", "Food"), line("C3", "g", "2019-06-03T23:30:00Z", "Food"),
    line("D4", "i", "2019-05-01T22:00:00-05:00", "Food"), line("A1", "d", "2019-05-20T12:00:00Z", "Travel"),
  ]

  /// A day of 2019 as a heading writes it: `May 7, 2019`.
  static func written(_ day: String) -> String {
    let parts = day.split(separator: "-").compactMap { Int($0) }
    let months = ["January", "February", "March", "April", "May", "June"]
    return "\(months[parts[1] - 1]) \(parts[2]), \(parts[0])"
  }

  /// A period as a title writes it: one day once, else the first and last with a dash.
  static func title(_ period: (String, String)) -> String {
    period.0 == period.1 ? written(period.0) : "\(written(period.0)) – \(written(period.1))"
  }

  /// A period as a heading marks it up.
  static func markup(_ period: (String, String)) -> String {
    func time(_ day: String) -> String { "<time datetime=\"\(day)\">\(written(day))</time>" }
    let days = period.0 == period.1 ? time(period.0) : "\(time(period.0)) – \(time(period.1))"
    return "<span class=\"period\">\(days)</span>"
  }

  /// Runs `command --per-account --output-dir` with `options` over `lines` and
  /// checks each account's page, and a summary's index, name `expected`
  /// (per account, its first and last day; `index`: the run's).
  static func check(
    _ command: [String], _ options: [String], expected: [String: (String, String)], index: (String, String),
    spills: Bool = false
  ) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("bank.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
    let pages = directory.appendingPathComponent("pages")
    let outcome = try CLIRunner.run(
      command + ["--per-account", "--output-dir", pages.path] + options + [input.path])
    let label = "\(command) \(options)"
    #expect(outcome.status == 0, "\(label): \(outcome.stderr)")
    // Several runs, each with its count entries, merged.
    if spills { #expect(outcome.stderr.contains("runs on disk (--memory-limit 1K)"), "\(label): \(outcome.stderr)") }
    let indexPage = try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8)
    let pageTitle = command[0] == "list" ? "Transactions" : command[2] == "month" ? "By month" : "By category"
    for (account, period) in expected.sorted(by: { $0.key < $1.key }) {
      let name = try #require(OutputDirectoryQueryTests.page(for: account, in: indexPage), "\(label) \(account)")
      let page = try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8)
      let heading = HTMLRenderEndToEndTests.heading(page)
      #expect(
        heading.title == "\(pageTitle) · Account \(account) · bank.jsonl · \(title(period))", "\(label) \(account)")
      #expect(heading.sub.hasSuffix(markup(period)), "\(label) \(account): \(heading.sub)")
    }
    #expect(indexPage.components(separatedBy: "<span class=\"id\" title=").count - 1 == expected.count, "\(label)")
    guard command[0] == "summary" else { return }
    let heading = HTMLRenderEndToEndTests.heading(indexPage)
    #expect(heading.title == "Accounts · bank.jsonl · \(title(index))", "\(label)")
    #expect(heading.sub.hasSuffix(markup(index)), "\(label): \(heading.sub)")
    // Still no period column.
    #expect(!indexPage.contains("class=\"period\" data-label"), "\(label)")
  }

  static let commands = [["list"], ["summary", "--by", "category"], ["summary", "--by", "month"]]

  /// Every account's transactions, as written.
  static let all: [String: (String, String)] = [
    "A1": ("2019-05-01", "2019-05-20"), "B2": ("2019-05-07", "2019-05-07"), "C3": ("2019-06-01", "2019-06-03"),
    "D4": ("2019-05-01", "2019-05-02"),
  ]

  @Test(
    "Each page names its account's first and last day, one thread or three, in memory or from runs on disk",
    arguments: commands, [["--threads", "1"], ["--threads", "3"], ["--threads", "3", "--memory-limit", "1K"]])
  func period(command: [String], layout: [String]) throws {
    try Self.check(
      command, layout, expected: Self.all, index: ("2019-05-01", "2019-06-03"), spills: layout.contains("1K"))
  }

  @Test("--dedupe: a loser alone on the first day is not in the period", arguments: commands)
  func dedupe(command: [String]) throws {
    var expected = Self.all
    expected["A1"] = ("2019-05-02", "2019-05-20")
    try Self.check(command, ["--dedupe"], expected: expected, index: ("2019-05-01", "2019-06-03"))
    try Self.check(
      command, ["--dedupe", "--memory-limit", "1K"], expected: expected, index: ("2019-05-01", "2019-06-03"),
      spills: true)
  }

  @Test("A filter that leaves out an account's outermost days leaves them out of its period", arguments: commands)
  func filtered(command: [String]) throws {
    try Self.check(
      command, ["--category", "Travel"], expected: ["A1": ("2019-05-03", "2019-05-20")],
      index: ("2019-05-03", "2019-05-20"))
    var food = Self.all
    food["A1"] = ("2019-05-01", "2019-05-10")
    try Self.check(command, ["--category", "Food"], expected: food, index: ("2019-05-01", "2019-06-03"))
    try Self.check(
      command, ["--since", "2019-05-02", "--until", "2019-05-19"],
      expected: [
        "A1": ("2019-05-02", "2019-05-10"), "B2": ("2019-05-07", "2019-05-07"), "D4": ("2019-05-02", "2019-05-02"),
      ],
      index: ("2019-05-02", "2019-05-10"))
  }

  @Test("A list page names the period of every matching transaction, not of the rows it shows")
  func listPage() throws {
    for options in [["--limit", "1"], ["--limit", "1", "--offset", "1"], ["--limit", "1", "--memory-limit", "1K"]] {
      try Self.check(
        ["list"], options, expected: Self.all, index: ("2019-05-01", "2019-06-03"), spills: options.contains("1K"))
    }
  }

  @Test("Days in --timezone: the day each row shows", arguments: commands)
  func timezone(command: [String]) throws {
    var utc = Self.all
    utc["C3"] = ("2019-05-31", "2019-06-03")
    try Self.check(command, ["--timezone", "UTC"], expected: utc, index: ("2019-05-01", "2019-06-03"))
    var tokyo = Self.all
    tokyo["C3"] = ("2019-06-01", "2019-06-04")
    tokyo["D4"] = ("2019-05-02", "2019-05-02")
    for layout in [[], ["--memory-limit", "1K"]] {
      try Self.check(
        command, ["--timezone", "Asia/Tokyo"] + layout, expected: tokyo, index: ("2019-05-01", "2019-06-04"),
        spills: !layout.isEmpty)
    }
  }
}
