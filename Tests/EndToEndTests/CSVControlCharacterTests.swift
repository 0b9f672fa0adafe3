import Foundation
import Testing

/// Control characters in texts from the input reach no `csv` output as they are: every command's
/// csv writes them as U+FFFD (tab, CR and LF stay, quoted as RFC 4180 says), while `json` keeps
/// them exactly, and the list's order is the same in both (Formats.md, "`group` reports").
@Suite("Control characters in csv, end to end")
struct CSVControlCharacterTests {
  /// Escaped in the JSON input: a NUL in an id, an account, a description, a category and a
  /// counterparty; an escape byte and a DEL too.
  static let input =
    Array(
      [
        #"{"id":"a\u0000b","arrangementId":"acc\u0000x","description":"d\u0000e\u001b[2J","category":"c\u0001","#
          + #""counterPartyName":"=x\u007f","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"#
          + #""creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"COMPLETED"}"#,
        #"{"id":"plain","arrangementId":"acc\u0000x","description":"tab\there","category":"c\u0001","#
          + #""transactionAmountCurrency":{"amount":"2.00","currencyCode":"EUR"},"#
          + #""creditDebitIndicator":"DBIT","creationTime":"2019-05-16T10:00:00","state":"COMPLETED"}"#,
      ].joined(separator: "\n").utf8) + [.newline]

  /// The control bytes a csv output must not hold: all of C0 but tab, CR and LF, and DEL.
  static func controlBytes(_ bytes: [UInt8]) -> [UInt8] {
    bytes.filter { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
  }

  @Test(
    "No command's csv holds a control byte other than tab, CR and LF",
    arguments: [
      ["list"], ["list", "--threads", "1"], ["list", "--memory-limit", "1"], ["list", "--per-account"],
      ["list", "--dedupe"], ["group", "--per-account"], ["summary", "--by", "category"],
      ["summary", "--by", "counterparty", "--per-account"],
    ])
  func noControlBytes(command: [String]) throws {
    let outcome = try CLIRunner.run(command + ["--quiet", "--format", "csv"], stdin: Self.input)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(Self.controlBytes(outcome.stdout) == [], "\(outcome.text.debugDescription)")
    #expect(outcome.text.contains("\u{FFFD}"), "\(outcome.text.debugDescription)")
  }

  @Test("The list's csv shows the replaced texts; json keeps them exactly")
  func listRow() throws {
    let csv = try CLIRunner.run(["list", "--quiet", "--format", "csv"], stdin: Self.input)
    #expect(csv.status == 0, "\(csv.stderr)")
    let row =
      "a\u{FFFD}b,2019-05-17T10:00:00,2019-05-17,COMPLETED,CRDT,1.00,EUR,,1.00,d\u{FFFD}e\u{FFFD}[2J,c\u{FFFD},'=x\u{FFFD}"
    #expect(csv.text.split(separator: "\r\n").dropFirst().first.map(String.init) == row)
    #expect(csv.text.contains(",tab\there,"))
    let json = try CLIRunner.run(["list", "--quiet", "--format", "jsonl"], stdin: Self.input)
    #expect(json.text.hasPrefix(#"{"id":"a\u0000b","#), "\(json.text)")
  }

  /// Copies of one transaction (same id and instant) whose descriptions differ where one has a
  /// control character: the order compares the texts as read, so csv lists them as json does.
  @Test(
    "Tied rows come in json's order in csv, on every thread count",
    arguments: [["--threads", "1"], ["--threads", "2"], ["--memory-limit", "1"]])
  func tiedRows(layout: [String]) throws {
    let descriptions = [#"ab"#, #"a\u0000"#, #"a"#, #"a\u001f"#, #"a "#]
    let input =
      descriptions.map { description in
        #"{"id":"t-1","description":"\#(description)","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"#
          + #""creditDebitIndicator":"CRDT","creationTime":"2019-05-17T10:00:00","state":"COMPLETED"}"#
      }.joined(separator: "\n") + "\n"
    let json = try CLIRunner.run(["list", "--quiet", "--format", "jsonl"] + layout, stdin: Array(input.utf8))
    #expect(json.status == 0, "\(json.stderr)")
    let jsonOrder = json.text.split(separator: "\n").map { line in
      String(line.split(separator: "\"description\":\"")[1].prefix { $0 != "\"" })
    }
    #expect(jsonOrder == ["a", #"a\u0000"#, #"a\u001f"#, "a ", "ab"])
    let csv = try CLIRunner.run(["list", "--quiet", "--format", "csv"] + layout, stdin: Array(input.utf8))
    #expect(csv.status == 0, "\(csv.stderr)")
    let csvOrder = csv.text.split(separator: "\r\n").dropFirst().map { row in
      String(row.split(separator: ",", omittingEmptySubsequences: false)[9])
    }
    #expect(csvOrder == ["a", "a\u{FFFD}", "a\u{FFFD}", "a ", "ab"])
  }
}
