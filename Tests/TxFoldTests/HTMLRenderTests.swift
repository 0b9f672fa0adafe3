import Foundation
import Testing

@testable import TxFold

/// The `html` writers (`HTMLPage`, `HTMLReportWriter`, `HTMLListWriter`,
/// `HTMLSummaryWriter`, `HTMLDailyChart`): escaping of input text, a page
/// that needs nothing from elsewhere, localisation, the chart's geometry and
/// streaming through the flush closure.
@Suite("HTMLRender")
struct HTMLRenderTests {
  static let hostile = "<script>alert(1)</script> \"quoted\" 'single' & more"
  static let hostileEscaped = "&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &#39;single&#39; &amp; more"

  static func day(_ day: Int, month: Int = 5) -> CalendarDay { CalendarDay(year: 2019, month: month, day: day) }

  static func stamp(_ text: String) throws -> Timestamp {
    try #require(TimestampParser.parse(text))
  }

  /// One state named by the input, one debit group whose member, id and
  /// currency all carry markup.
  static func hostileReport() throws -> GroupReport {
    let group = TransactionGroup(
      state: hostile, date: day(17), creditDebitIndicator: .debit, count: 2,
      totals: [CurrencyTotal(currency: "<b>", amount: ExactDecimal(wide: 750, scale: 2))],
      latest: try stamp("2019-05-17T10:00:00"),
      transactions: [
        GroupMember(
          id: "1", description: hostile, amount: ExactDecimal(wide: 750, scale: 2), currency: "<b>",
          instant: try stamp("2019-05-17T10:00:00"))
      ])
    var stats = RunStats()
    stats.lines = 3
    stats.accepted = 2
    stats.rejected = 1
    stats.rejectedByReason = [.invalidJSON: 1]
    return GroupReport(sections: [ReportSection(state: hostile, groups: [group])], stats: stats)
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  // MARK: Escaping

  @Test(
    "Input text is escaped for HTML",
    arguments: [
      ("plain", "plain"), ("a & b", "a &amp; b"), ("<i>", "&lt;i&gt;"), ("\"x\"", "&quot;x&quot;"),
      ("it's", "it&#39;s"), ("tab\there", "tab here"), ("line\nbreak", "line break"), ("nul\u{0}", "nul\u{FFFD}"),
      ("bidi\u{202E}txet", "bidi\u{FFFD}txet"), ("isolate\u{2066}", "isolate\u{FFFD}"), ("Café Müller", "Café Müller"),
      ("del\u{7F}", "del\u{FFFD}"),
    ])
  func escaping(input: String, expected: String) {
    var out: [UInt8] = []
    HTMLPage.appendEscaped(input, to: &out)
    #expect(Self.text(out) == expected)
  }

  @Test("A group report escapes every string from the input")
  func groupEscapes() throws {
    let page = Self.text(ReportRenderer.renderToBytes(try Self.hostileReport(), format: .html))
    #expect(!page.contains("<script"))
    #expect(!page.contains("<b>"))
    // A description may wrap after '/' (`HTMLPage.appendBreakable`).
    #expect(page.contains(Self.hostileEscaped.replacingOccurrences(of: "/", with: "/<wbr>")))
    #expect(page.contains("&lt;b&gt;"))
  }

  @Test("A list escapes description, category, state and currency")
  func listEscapes() throws {
    let transaction = Transaction(
      id: "<id>", instant: try Self.stamp("2019-05-17T10:00:00"), amount: ExactDecimal(wide: -750, scale: 2),
      currency: "<C>", creditDebitIndicator: .debit, state: "<S>", description: Self.hostile, category: "<cat>",
      counterparty: nil, fee: ExactDecimal(wide: -50, scale: 2))
    let page = Self.text(
      try ListRenderer.renderToBytes(
        [transaction], context: ListContext(stats: RunStats(), matched: 1), format: .html))
    #expect(!page.contains("<script"))
    for markup in ["<id>", "<C>", "<S>", "<cat>"] { #expect(!page.contains(markup)) }
    #expect(page.contains(Self.hostileEscaped.replacingOccurrences(of: "/", with: "/<wbr>")))
    #expect(page.contains("&lt;cat&gt;") && page.contains("&lt;S&gt;") && page.contains(">-&lt;C&gt;7.50</span>"))
  }

  @Test("A summary escapes its keys")
  func summaryEscapes() {
    let report = SummaryReport(
      dimension: .category,
      entries: [
        SummaryEntry(
          key: .text(Self.hostile), count: 1,
          currencies: [
            SummaryCurrencyTotals(
              currency: "EUR", count: 1, income: .zero, expense: ExactDecimal(wide: -5, scale: 0))
          ])
      ],
      totals: [
        SummaryCurrencyTotals(
          currency: "EUR", count: 1, income: .zero, expense: ExactDecimal(wide: -5, scale: 0))
      ], stats: RunStats())
    let page = Self.text(SummaryRenderer.renderToBytes(report, format: .html))
    #expect(!page.contains("<script"))
    #expect(page.contains(Self.hostileEscaped))
  }

  // MARK: The page

  @Test("The page is self-contained: no script, no external URL, dark and print styles")
  func selfContained() throws {
    let page = Self.text(ReportRenderer.renderToBytes(try Self.hostileReport(), format: .html))
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(page.hasSuffix("</html>\n"))
    #expect(!page.contains("<script"))
    #expect(!page.contains("http:") && !page.contains("https:") && !page.contains("src="))
    #expect(!page.contains("@import") && !page.contains("<link"))
    // The only url() is the page's own hatch pattern.
    #expect(page.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("#hatch)") })
    #expect(page.contains("@media (prefers-color-scheme:dark)"))
    #expect(page.contains("@media print"))
    #expect(page.contains("<meta name=\"viewport\""))
  }

  @Test("The accounting shows every count and the rejections per reason")
  func accounting() throws {
    let page = Self.text(ReportRenderer.renderToBytes(try Self.hostileReport(), format: .html))
    #expect(page.contains("<dt>Lines</dt><dd>3</dd>"))
    #expect(page.contains("<dt>Accepted</dt><dd>2</dd>"))
    #expect(page.contains("<div class=\"stat rejected some\"><dt>Rejected</dt><dd>1</dd>"))
    #expect(page.contains("<li><code>invalid-json</code> 1</li>"))
  }

  @Test(
    "Localised like text: language, words, numbers and dates",
    arguments: [
      ("en", "Grouped transactions", "May 17, 2019", "-&lt;b&gt;7.50"),
      ("fr", "Opérations groupées", "17 mai 2019", "-7,50\u{A0}&lt;b&gt;"),
      ("de", "Gruppierte Buchungen", "17. Mai 2019", "-7,50\u{A0}&lt;b&gt;"),
      ("nl", "Gegroepeerde transacties", "17 mei 2019", "&lt;b&gt;\u{A0}-7,50"),
      ("es", "Movimientos agrupados", "17 de mayo de 2019", "-7,50\u{A0}&lt;b&gt;"),
    ])
  func localised(identifier: String, title: String, date: String, amount: String) throws {
    let locale = try #require(ReportLocale(identifier: identifier))
    let page = Self.text(
      ReportRenderer.renderToBytes(
        try Self.hostileReport(), format: .html, options: TextReportOptions(locale: locale)))
    #expect(page.contains("<html lang=\"\(identifier)\">"))
    #expect(page.contains("<h1>\(title)</h1>"))
    #expect(page.contains("<time datetime=\"2019-05-17\">\(date)</time>"))
    #expect(page.contains(">\(amount)</span>"))
    #expect(page.contains(locale.word(for: .debit)))
  }

  @Test("Credits carry +, debits -, and an amount written negative goes the other way; money as text writes it")
  func signs() throws {
    func money(
      _ significand: WideInt, scale: UInt8 = 2, debit: Bool, currency: String = "EUR", locale: ReportLocale = .english
    ) -> String {
      var out: [UInt8] = []
      let amount = ExactDecimal(wide: significand, scale: scale)
      HTMLPage.appendMoney(
        amount, currency: currency, direction: HTMLPage.Direction(magnitude: amount, debit: debit), locale: locale,
        to: &out)
      return Self.text(out)
    }
    #expect(money(150, debit: false) == "<span class=\"amt in\">+€1.50</span>")
    #expect(money(150, debit: true) == "<span class=\"amt out\">-€1.50</span>")
    #expect(money(-150, debit: true) == "<span class=\"amt in\">+€1.50</span>")
    #expect(money(0, debit: true) == "<span class=\"amt zero\">€0.00</span>")
    // Padded to the minor units, never rounded; the symbol where the language puts it.
    #expect(money(635, scale: 1, debit: false) == "<span class=\"amt in\">+€63.50</span>")
    #expect(money(12_345, scale: 3, debit: true) == "<span class=\"amt out\">-€12.345</span>")
    #expect(money(150, debit: false, currency: "CHF") == "<span class=\"amt in\">+CHF\u{A0}1.50</span>")
    let french = try #require(ReportLocale(identifier: "fr"))
    #expect(money(635, scale: 1, debit: false, locale: french) == "<span class=\"amt in\">+63,50\u{A0}€</span>")
    let dutch = try #require(ReportLocale(identifier: "nl"))
    #expect(money(635, scale: 1, debit: true, locale: dutch) == "<span class=\"amt out\">€\u{A0}-63,50</span>")
    // The same text as the text report's money, but for the sign.
    let text = ReportLocale.english.formatMoney(ExactDecimal(wide: -520_000, scale: 2), currency: "EUR")
    #expect(money(520_000, debit: true) == "<span class=\"amt out\">\(text)</span>")
  }

  // MARK: The chart

  /// The bars of a page (not the hatch pattern's tile), each as its opening tag after `<rect class="`.
  static func rects(_ page: String) -> [Substring] {
    page.components(separatedBy: "<rect class=\"").dropFirst().map { $0.prefix { $0 != ">" } }
      .filter { !$0.hasPrefix("hatch") }
  }

  @Test("One bar per day and direction, income above the axis, expense below; figures in a table")
  func dailyChart() {
    var chart = HTMLDailyChart()
    chart.add(day: Self.day(1), currency: "EUR", signed: ExactDecimal(wide: 300, scale: 0))
    chart.add(day: Self.day(1), currency: "EUR", signed: ExactDecimal(wide: -100, scale: 0))
    chart.add(day: Self.day(3), currency: "EUR", signed: ExactDecimal(wide: -100, scale: 0))
    chart.add(day: Self.day(3), currency: "EUR", signed: ExactDecimal(wide: -100, scale: 0))
    var out: [UInt8] = []
    chart.write(locale: .english, to: &out) { (_: inout [UInt8]) -> Void in }
    let page = Self.text(out)
    // Three day slots of 33.33%, bars 70% of a slot, centred. Income 300 and expense 200 share
    // the height: the axis at 60%.
    #expect(
      Self.rects(page) == [
        "in\" x=\"5.00%\" y=\"0.00%\" width=\"23.33%\" height=\"60.00%\"",
        "out\" x=\"5.00%\" y=\"60.00%\" width=\"23.33%\" height=\"20.00%\"",
        "out\" x=\"71.66%\" y=\"60.00%\" width=\"23.33%\" height=\"40.00%\"",
      ])
    #expect(page.contains("<line class=\"zero\" x1=\"0\" y1=\"60.00%\""))
    #expect(page.contains("Income and expense per day"))
    #expect(page.contains("<title>May 3, 2019: -€200.00</title>"))
    #expect(page.contains("role=\"img\"") && page.contains("<desc id=\"chart-0-d\">"))
    #expect(page.contains("<tr><th scope=\"row\">May 1, 2019</th>"))
  }

  @Test("A span longer than 92 days is drawn per month")
  func monthlyChart() {
    var chart = HTMLDailyChart()
    chart.add(day: Self.day(1, month: 1), currency: "EUR", signed: ExactDecimal(wide: 5, scale: 0))
    chart.add(day: Self.day(20, month: 1), currency: "EUR", signed: ExactDecimal(wide: 5, scale: 0))
    chart.add(day: Self.day(2, month: 6), currency: "EUR", signed: ExactDecimal(wide: -5, scale: 0))
    var out: [UInt8] = []
    chart.write(locale: .english, to: &out) { (_: inout [UInt8]) -> Void in }
    let page = Self.text(out)
    #expect(page.contains("Income and expense per month"))
    #expect(Self.rects(page).count == 2)
    #expect(page.contains("<title>January 2019: +€10.00</title>"))
  }

  @Test("Sums too large for 128 bits say so instead of drawing")
  func overflow() {
    var chart = HTMLDailyChart()
    // 2^126 (Int128.max / 2 + 1): the sum of two is one past the 128-bit range.
    let huge = ExactDecimal(wide: WideInt(high: 1 << 62, low: 0), scale: 0)
    chart.add(day: Self.day(1), currency: "EUR", signed: huge)
    chart.add(day: Self.day(1), currency: "EUR", signed: huge)
    var out: [UInt8] = []
    chart.write(locale: .english, to: &out) { (_: inout [UInt8]) -> Void in }
    let page = Self.text(out)
    #expect(page.contains("Sums too large to chart."))
    #expect(Self.rects(page).isEmpty)
  }

  @Test("Summary bars: income and expense, scaled to the largest of the currency")
  func summaryBars() {
    let report = SummaryReport(
      dimension: .category,
      entries: [
        SummaryEntry(
          key: .text("Salary"), count: 1,
          currencies: [
            SummaryCurrencyTotals(
              currency: "EUR", count: 1, income: ExactDecimal(wide: 400, scale: 0), expense: .zero)
          ]),
        SummaryEntry(
          key: .missing, count: 2,
          currencies: [
            SummaryCurrencyTotals(
              currency: "EUR", count: 2, income: ExactDecimal(wide: 100, scale: 0),
              expense: ExactDecimal(wide: -200, scale: 0))
          ]),
      ],
      totals: [], stats: RunStats())
    let page = Self.text(SummaryRenderer.renderToBytes(report, format: .html))
    #expect(
      Self.rects(page) == [
        "in\" x=\"0\" y=\"8%\" width=\"100.00%\" height=\"40%\"/",
        "in\" x=\"0\" y=\"8%\" width=\"25.00%\" height=\"40%\"/",
        "out\" x=\"0\" y=\"52%\" width=\"50.00%\" height=\"40%\"/",
      ])
    #expect(page.contains("(none)"))
  }

  // MARK: Streaming

  @Test("A large report streams out in pieces of about the flush threshold")
  func streams() throws {
    var groups: [TransactionGroup] = []
    for index in 0..<2_000 {
      let stamp = try Self.stamp("2019-05-17T10:00:00")
      groups.append(
        TransactionGroup(
          state: "COMPLETED", date: CalendarDay(daysSinceEpoch: Int32(18_000 - index)),
          creditDebitIndicator: index % 2 == 0 ? .credit : .debit, count: 3,
          totals: [CurrencyTotal(currency: "EUR", amount: ExactDecimal(wide: WideInt(index), scale: 2))],
          latest: stamp,
          transactions: [
            GroupMember(
              id: "\(index)", description: "Member \(index)", amount: ExactDecimal(wide: 1, scale: 0),
              currency: "EUR", instant: stamp)
          ]))
    }
    let report = GroupReport(sections: [ReportSection(state: "COMPLETED", groups: groups)], stats: RunStats())
    var chunks: [Int] = []
    var joined: [UInt8] = []
    ReportRenderer.render(report, format: .html) { (chunk: inout [UInt8]) -> Void in
      chunks.append(chunk.count)
      joined.append(contentsOf: chunk)
      chunk.removeAll(keepingCapacity: true)
    }
    #expect(chunks.count > 5)
    #expect(chunks.allSatisfy { $0 < ReportRenderer.flushThreshold + 8 * 1024 })
    #expect(joined == ReportRenderer.renderToBytes(report, format: .html))
    // 2,000 days span more than 92: the chart is per month.
    #expect(Self.text(joined).contains("Income and expense per month"))
  }

  @Test("A list page whose charts carry it past the flush threshold keeps every byte before and in them")
  func listChartPastThreshold() throws {
    // 90 days in 8 currencies: the rows stay under the threshold, the charts' bars and figures take
    // the page past it while they are written.
    let currencies = ["CHF", "EUR", "GBP", "JPY", "KWD", "PBP", "SEK", "USD"]
    let days = (1...31).map { (3, $0) } + (1...30).map { (4, $0) } + (1...29).map { (5, $0) }
    var transactions: [Transaction] = []
    for index in 0..<180 {
      let (month, day) = days[89 - index / 2]
      let amount = ExactDecimal(wide: index % 2 == 0 ? 150 : -150, scale: 2)
      transactions.append(
        Transaction(
          id: "\(index)", instant: try Self.stamp("2019-0\(month)-\(day < 10 ? "0" : "")\(day)T10:00:00"),
          amount: amount, currency: currencies[index % currencies.count],
          creditDebitIndicator: index % 2 == 0 ? .credit : .debit, state: "COMPLETED", description: "Row \(index)",
          category: nil, counterparty: nil, fee: nil))
    }
    let page = Self.text(
      try ListRenderer.renderToBytes(
        transactions, context: ListContext(stats: RunStats(), matched: transactions.count), format: .html))
    #expect(page.utf8.count > ReportRenderer.flushThreshold)
    #expect(page.hasPrefix("<!DOCTYPE html>"), "\(page.prefix(120))")
    #expect(page.hasSuffix("</html>\n"))
    #expect(page.contains(">Row 0 <span class=\"tag\">") && page.contains(">Row 179</td>"), "the first and last rows")
    for currency in currencies { #expect(page.contains(">\(currency)</figcaption>"), "the \(currency) chart") }
    #expect(
      page.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 180, "every day of every chart's figures")
  }
}

/// The style sheet's colours against their backgrounds, in both schemes and in print.
@Suite("HTMLRender contrast")
struct HTMLContrastTests {
  /// The value of `--name:#rrggbb` (or `#rgb`) in the block of the style sheet that starts at `marker`.
  static func colour(_ name: String, after marker: String) throws -> String {
    let sheet = HTMLPage.styleSheet
    let block = try #require(sheet.range(of: marker)).upperBound
    let end = try #require(sheet.range(of: "}", range: block..<sheet.endIndex)).lowerBound
    let start = try #require(sheet.range(of: "--\(name):#", range: block..<end)).upperBound
    let hex = String(sheet[start...].prefix { $0.isHexDigit })
    return hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
  }

  /// WCAG 2's relative luminance and contrast ratio.
  static func ratio(_ lhs: String, _ rhs: String) -> Double {
    func luminance(_ hex: String) -> Double {
      let value = Int(hex, radix: 16) ?? 0
      let channels = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { channel -> Double in
        let c = Double(channel) / 255
        return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
    let (a, b) = (luminance(lhs), luminance(rhs))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  @Test(
    "Text colours reach WCAG AA (4.5:1) on every background they are drawn on",
    arguments: [":root{", "prefers-color-scheme:dark){:root{", "@media print{:root{"])
  func contrast(scheme: String) throws {
    let pairs = [
      ("fg", "bg"), ("fg", "card"), ("muted", "bg"), ("muted", "card"), ("in", "card"), ("out", "card"),
      ("in", "bg"), ("out", "bg"), ("in", "in-bg"), ("out", "out-bg"), ("warn", "card"), ("muted", "in-bg"),
    ]
    for (text, background) in pairs {
      let ratio = Self.ratio(try Self.colour(text, after: scheme), try Self.colour(background, after: scheme))
      #expect(ratio >= 4.5, "\(scheme) --\(text) on --\(background): \(ratio)")
    }
  }
}
