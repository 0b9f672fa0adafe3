import Foundation
import Testing

/// `--theme` (colours that also work without red/green) and `--only-currency` (a currency filter
/// that is not the ledger's `--currency`).
@Suite("Themes and the currency filter")
struct ThemeAndCurrencyFilterTests {
  static let sample = CLIRunner.sample("user-10015-grouped-mixed.jsonl")
  static let red = "\u{1B}[31m"
  static let green = "\u{1B}[32m"

  @Test(
    "every theme colours income and expense its own way, never with red or green but standard",
    arguments: ["group", "list", "summary"], ["standard", "blue-orange", "mono"])
  func themes(command: String, theme: String) throws {
    let run = try CLIRunner.run(
      [command, "--quiet", "--color", "always", "--theme", theme, Self.sample], environment: ["COLUMNS": "100"])
    #expect(run.status == 0, "\(run.stderr)")
    let text = run.text
    let (income, expense): (String, String)
    switch theme {
    case "standard": (income, expense) = (Self.green, Self.red)
    case "blue-orange": (income, expense) = ("\u{1B}[38;5;33m", "\u{1B}[38;5;208m")
    default: (income, expense) = ("\u{1B}[1m", "\u{1B}[4m")
    }
    #expect(text.contains(income + (command == "group" ? "+" : "")) || text.contains(income), "\(theme) income")
    #expect(text.contains(expense + "-"), "\(theme) expense")
    if theme != "standard" {
      #expect(!text.contains(Self.red) && !text.contains(Self.green), "\(theme) uses red or green")
    }
    if theme == "mono" { #expect(!text.contains("\u{1B}[3"), "mono has a hue") }
    // The same words and numbers: only the escapes differ.
    let plain = try CLIRunner.run([command, "--quiet", "--theme", theme, Self.sample], environment: ["COLUMNS": "100"])
    #expect(!plain.text.contains("\u{1B}"), "no colour off a terminal, whatever the theme")
    #expect(Self.strippingEscapes(text) == plain.text)
  }

  static func strippingEscapes(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
  }

  @Test("an unknown theme is a usage error naming the choices")
  func unknownTheme() throws {
    let run = try CLIRunner.run(["summary", "--theme", "rainbow", Self.sample])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--theme must be standard, blue-orange or mono, not 'rainbow'."), "\(run.stderr)")
  }

  @Test("--only-currency keeps those currencies (any case, repeatable) in list and summary")
  func onlyCurrency() throws {
    let list = try CLIRunner.run([
      "list", "--quiet", "--format", "jsonl", "--only-currency", "gbp", "--only-currency", "USD", Self.sample,
    ])
    #expect(list.status == 0, "\(list.stderr)")
    let rows = list.text.split(separator: "\n")
    #expect(rows.count == 2)
    for row in rows {
      #expect(row.contains(#""currency":"GBP""#) || row.contains(#""currency":"USD""#), "\(row)")
    }
    let summary = try CLIRunner.run(["summary", "--quiet", "--format", "csv", "--only-currency", "EUR", Self.sample])
    #expect(summary.status == 0)
    #expect(!summary.text.contains("USD") && !summary.text.contains("GBP"))
    #expect(summary.text.contains("EUR"))
    let none = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", "--only-currency", "JPY", Self.sample])
    #expect(none.status == 0)
    #expect(none.text.isEmpty, "rows only: no rows, no stats line")
    let empty = try CLIRunner.run(["list", "--only-currency", "", Self.sample])
    #expect(empty.status == 64)
    #expect(empty.stderr.contains("--only-currency must not be empty."))
  }

  @Test("--currency still names the currency of records without one, and filters nothing")
  func currencyIsNotAFilter() throws {
    let ledger = CLIRunner.sample("ledger-account.json")
    let usd = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", "--currency", "USD", ledger])
    let usdRows = usd.text.split(separator: "\n")
    #expect(!usdRows.isEmpty && usdRows.allSatisfy { $0.contains(#""currency":"USD""#) })
    let filtered = try CLIRunner.run([
      "list", "--quiet", "--format", "jsonl", "--currency", "USD", "--only-currency", "EUR", ledger,
    ])
    #expect(filtered.status == 0 && filtered.text.isEmpty)
  }
}
