import Testing

@testable import TxFold

/// Amounts as the text reports show them: minor units, symbols, the
/// locale's separators and placement, never rounded.
@Suite("Money in text reports")
struct MoneyRenderTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var locale: String
    var amount: String
    var currency: String
    var expected: String
    var testDescription: String { "\(locale) \(amount) \(currency)" }
  }

  @Test(arguments: [
    Case(locale: "en", amount: "7.5", currency: "EUR", expected: "€7.50"),
    Case(locale: "en", amount: "-7.5", currency: "EUR", expected: "-€7.50"),
    Case(locale: "en", amount: "5200", currency: "EUR", expected: "€5,200.00"),
    Case(locale: "en", amount: "0.0", currency: "EUR", expected: "€0.00"),
    Case(locale: "en", amount: "1.12345", currency: "EUR", expected: "€1.12345"),
    Case(locale: "en", amount: "12", currency: "USD", expected: "$12.00"),
    Case(locale: "en", amount: "-6.25", currency: "GBP", expected: "-£6.25"),
    Case(locale: "en", amount: "1500", currency: "JPY", expected: "¥1,500"),
    Case(locale: "en", amount: "1500.5", currency: "JPY", expected: "¥1,500.5"),
    Case(locale: "en", amount: "1.5", currency: "KWD", expected: "KWD\u{A0}1.500"),
    Case(locale: "en", amount: "-42.1", currency: "CHF", expected: "-CHF\u{A0}42.10"),
    Case(locale: "en", amount: "1700", currency: "PBP", expected: "PBP\u{A0}1,700"),
    Case(locale: "en", amount: "3.5", currency: "PBP", expected: "PBP\u{A0}3.5"),
    Case(locale: "fr", amount: "7.5", currency: "EUR", expected: "7,50\u{A0}€"),
    Case(locale: "fr", amount: "-75.2", currency: "EUR", expected: "-75,20\u{A0}€"),
    Case(locale: "fr", amount: "0", currency: "EUR", expected: "0,00\u{A0}€"),
    Case(locale: "fr", amount: "5200", currency: "EUR", expected: "5\u{202F}200,00\u{A0}€"),
    Case(locale: "fr", amount: "12", currency: "USD", expected: "12,00\u{A0}US$"),
    Case(locale: "fr", amount: "42.1", currency: "CHF", expected: "42,10\u{A0}CHF"),
    Case(locale: "de", amount: "-1234.5", currency: "EUR", expected: "-1.234,50\u{A0}€"),
    Case(locale: "de", amount: "129", currency: "PBP", expected: "129\u{A0}PBP"),
    Case(locale: "es", amount: "1234.5", currency: "EUR", expected: "1234,50\u{A0}€"),
    Case(locale: "es", amount: "12345", currency: "JPY", expected: "12.345\u{A0}¥"),
    Case(locale: "nl", amount: "7.5", currency: "EUR", expected: "€\u{A0}7,50"),
    Case(locale: "nl", amount: "-7.5", currency: "EUR", expected: "€\u{A0}-7,50"),
    Case(locale: "nl", amount: "-1.5", currency: "BHD", expected: "BHD\u{A0}-1,500"),
  ])
  func formatted(_ test: Case) throws {
    let locale = try #require(ReportLocale(identifier: test.locale))
    let amount = try #require(ExactDecimal(test.amount))
    #expect(locale.formatMoney(amount, currency: test.currency) == test.expected)
  }

  @Test("A column lines up on the decimal separator, whatever the digits")
  func alignment() throws {
    for locale in ReportLocale.supportedIdentifiers.compactMap(ReportLocale.init(identifier:)) {
      let cells = try ["-1234.5", "7.5", "0.125"].map {
        locale.moneyText(try #require(ExactDecimal($0)), currency: "EUR")
      }
      let widths = MoneyText.columnWidths(cells)
      let lines = cells.map { cell in
        String(repeating: " ", count: cell.leadingPadding(headWidth: widths.head))
          + String(decoding: cell.bytes, as: UTF8.self)
      }
      let separator = Character(UnicodeScalar(locale.decimalSeparator))
      let columns = Set(
        lines.compactMap { line in line.firstIndex(of: separator).map { line.distance(from: line.startIndex, to: $0) } }
      )
      #expect(columns.count == 1, "\(locale.identifier): \(lines)")
    }
  }

  @Test("Huge amounts format without trapping")
  func extremes() {
    let smallest = ExactDecimal(wide: WideInt.min, scale: 0)
    #expect(ReportLocale.english.formatMoney(smallest, currency: "EUR").hasPrefix("-€170,141,183"))
    #expect(ReportLocale.english.formatMoney(smallest, currency: "EUR").hasSuffix(".00"))
    let tiny = ExactDecimal(wide: 1, scale: 18)
    #expect(ReportLocale.dutch.formatMoney(tiny, currency: "EUR") == "€\u{A0}0,000000000000000001")
  }
}
