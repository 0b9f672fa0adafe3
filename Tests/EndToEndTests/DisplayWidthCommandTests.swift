import Foundation
import Testing

/// Text reports cut and pad by terminal columns, not characters: CJK, Hangul and emoji take two
/// columns, a combining accent none, and a cut never splits a character the reader sees.
@Suite("Display width of text reports")
struct DisplayWidthCommandTests {
  /// Descriptions (and counterparties) of one of each kind, each far wider than any line.
  static let descriptions = [
    String(repeating: "東", count: 70),
    String(repeating: "한", count: 70),
    String(repeating: "😀", count: 50),
    String(repeating: "e\u{0301}", count: 90),
    String(repeating: "❤\u{FE0F}", count: 50),
    String(repeating: "ab東", count: 40),
    String(repeating: "a", count: 140),
  ]

  /// One record per description, a debit of 1.00 EUR on one day.
  static func input(in directory: URL) throws -> String {
    var lines = ""
    for (index, description) in descriptions.enumerated() {
      let record: [String: Any] = [
        "id": "\(index)", "creationTime": "2019-05-17T10:00:00Z",
        "transactionAmountCurrency": ["amount": "1.00", "currencyCode": "EUR"],
        "creditDebitIndicator": "DBIT", "state": "COMPLETED", "description": description,
        "counterPartyName": description,
      ]
      let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
      lines += String(decoding: data, as: UTF8.self) + "\n"
    }
    let path = directory.appendingPathComponent("wide.jsonl").path
    try Data(lines.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The test's own count of a character's columns, right for the characters used here: an emoji
  /// presentation or East Asian wide first scalar (or a text-default one made emoji by U+FE0F) is
  /// two, a lone combining mark none, any other one.
  static func columns(_ character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if first.properties.generalCategory == .nonspacingMark { return 0 }
    let wide: [ClosedRange<UInt32>] = [0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xFF00...0xFF60]
    if first.properties.isEmojiPresentation || wide.contains(where: { $0.contains(first.value) }) { return 2 }
    return character.unicodeScalars.contains("\u{FE0F}") ? 2 : 1
  }

  static func columns(_ line: Substring) -> Int { line.reduce(0) { $0 + columns($1) } }

  /// The widest line of `command` run on the same records with ASCII descriptions: what the
  /// report's fixed columns take at `width` (at 40 a list's date and amount columns and its
  /// narrowest label already pass 40), which wide text must not exceed either.
  static func asciiWidest(_ command: [String], width: Int, in directory: URL) throws -> Int {
    let path = directory.appendingPathComponent("ascii.jsonl").path
    let text = try String(contentsOfFile: try input(in: directory), encoding: .utf8)
    var ascii = text
    for description in descriptions { ascii = ascii.replacingOccurrences(of: description, with: "") }
    ascii = ascii.replacingOccurrences(of: "\"\"", with: "\"\(String(repeating: "a", count: 140))\"")
    try Data(ascii.utf8).write(to: URL(fileURLWithPath: path))
    let run = try CLIRunner.run(command + ["--quiet", path], environment: ["COLUMNS": "\(width)"])
    #expect(run.status == 0, "\(run.stderr)")
    return run.text.split(separator: "\n").map { columns($0) }.max() ?? 0
  }

  @Test(
    "group, list and summary text fit the width in columns; a cut keeps whole characters and ends in …",
    arguments: [["group"], ["list"], ["summary", "--by", "counterparty"]], [40, 80])
  func fitsTheWidth(command: [String], width: Int) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let limit = max(width, try Self.asciiWidest(command, width: width, in: directory))
    if width == 80 { #expect(limit == 80, "ASCII text fits 80 columns") }
    let run = try CLIRunner.run(
      command + ["--quiet", try Self.input(in: directory)], environment: ["COLUMNS": "\(width)"])
    #expect(run.status == 0, "\(run.stderr)")
    var cuts = 0
    for line in run.text.split(separator: "\n") {
      #expect(Self.columns(line) <= limit, "\(Self.columns(line)) columns over \(limit): \(line)")
      guard let ellipsis = line.firstIndex(of: "…") else { continue }
      // The text before `…` is a whole-character prefix of one description.
      let kept = line[..<ellipsis].split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) ?? ""
      let source = try #require(Self.descriptions.first { Array($0).starts(with: Array(kept)) }, "\(line)")
      #expect(!kept.isEmpty && Array(kept).count < Array(source).count, "\(line)")
      cuts += 1
    }
    #expect(cuts == Self.descriptions.count, "every description is cut: \(run.text)")
  }

  @Test(
    "A per-account header keeps its whole id; its underline never passes the width (with --wide, the header's)",
    arguments: [["group"], ["list"], ["summary", "--by", "category"]])
  func accountHeaderUnderline(command: [String]) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let long = String(repeating: "NL91ABNA0417164300", count: 8)
    let path = directory.appendingPathComponent("accounts.jsonl").path
    var lines = ""
    for (index, account) in [long, String(repeating: "東", count: 50)].enumerated() {
      lines += """
        {"id":"\(index)","arrangementId":"\(account)","creationTime":"2019-05-17T10:00:00Z",\
        "transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"DBIT",\
        "state":"COMPLETED","description":"Coffee"}

        """
    }
    try Data(lines.utf8).write(to: URL(fileURLWithPath: path))
    let run = try CLIRunner.run(command + ["--per-account", "--quiet", path], environment: ["COLUMNS": "60"])
    #expect(run.status == 0, "\(run.stderr)")
    let text = run.text.split(separator: "\n")
    let underlines = text.filter { $0.allSatisfy { $0 == "=" } }
    #expect(underlines.count == 2, "\(run.text)")
    #expect(underlines.allSatisfy { $0.count == 60 }, "\(underlines.map(\.count))")
    #expect(text.contains { $0.contains(long) }, "the whole id")
    // (summary's lines are as wide as its bars, whatever --wide says.)
    guard command != ["summary", "--by", "category"] else { return }
    let wide = try CLIRunner.run(
      command + ["--per-account", "--quiet", "--wide", path], environment: ["COLUMNS": "60"])
    let headers = wide.text.split(separator: "\n").filter { $0.hasPrefix("Account ") }
    let wideUnderlines = wide.text.split(separator: "\n").filter { $0.allSatisfy { $0 == "=" } }
    #expect(wideUnderlines.map(\.count) == headers.map { Self.columns($0) })
  }

  @Test(
    "Totals, sums and the full-bar legend in many currencies go on at the width between amounts, each whole",
    arguments: [["group"], ["list"], ["summary", "--by", "category"]], [60, 80])
  func manyCurrencies(command: [String], width: Int) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let currencies = ["BTC", "CHF", "DKK", "EUR", "GBP", "JPY", "KWD", "NOK", "PBP", "SEK", "USD", "XAU"]
    var lines = ""
    for (index, currency) in currencies.enumerated() {
      lines += """
        {"id":"\(index)","creationTime":"2019-05-17T10:00:00Z","category":"Travel",\
        "transactionAmountCurrency":{"amount":"12345.67","currencyCode":"\(currency)"},\
        "creditDebitIndicator":"DBIT","state":"COMPLETED","description":"Card payment abroad"}

        """
    }
    let path = directory.appendingPathComponent("currencies.jsonl").path
    try Data(lines.utf8).write(to: URL(fileURLWithPath: path))
    let run = try CLIRunner.run(command + ["--quiet", path], environment: ["COLUMNS": "\(width)"])
    #expect(run.status == 0, "\(run.stderr)")
    for line in run.text.split(separator: "\n") {
      #expect(Self.columns(line) <= width, "\(Self.columns(line)) columns over \(width): \(line)")
    }
    // Every currency's amount once in the line of all of them (the totals, the sum, the legend) and
    // the indented lines that go on from it (not a member's, which names its payment): none is cut
    // or split.
    let label = ["group": "Total ", "list": "Sum ", "summary": "full bar: "][command[0]] ?? ""
    let report = run.text.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try #require(report.firstIndex { $0.contains(label) }, "\(run.text)")
    let block = [report[first]] + report[(first + 1)...].prefix { $0.hasPrefix("    ") && !$0.contains("Card") }
    #expect(block.joined().components(separatedBy: "12,345.67").count - 1 == currencies.count, "\(run.text)")
  }
}
