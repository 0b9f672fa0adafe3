import Foundation
import Testing

@testable import TxFold

/// What the `html` pages do for a phone and at scale (issue 28; Documentation/Formats.md):
/// cards before the chart and the accounting, a title and heading naming the
/// input, account and period, a month index past 50 groups, ids kept whole,
/// summary bars compared within one currency; and the per-account pages of
/// `--output-dir` (`HTMLAccountPages`), with file names safe for any id.
@Suite("HTMLRender phone layout")
struct HTMLPhoneLayoutTests {
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func stamp(_ text: String) throws -> Timestamp { try #require(TimestampParser.parse(text)) }

  /// `count` groups, one a day back from 2019-05-31, alternating credit and debit;
  /// every third member has no description (its id is shown).
  static func report(groups count: Int, id: String = "ID") throws -> GroupReport {
    var groups: [TransactionGroup] = []
    let stamp = try stamp("2019-05-31T10:00:00")
    for index in 0..<count {
      let day = CalendarDay(daysSinceEpoch: CalendarDay(year: 2019, month: 5, day: 31).daysSinceEpoch - Int32(index))
      groups.append(
        TransactionGroup(
          state: "COMPLETED", date: day, creditDebitIndicator: index % 2 == 0 ? .credit : .debit, count: 1,
          totals: [CurrencyTotal(currency: "EUR", amount: ExactDecimal(wide: 20_000_00, scale: 2))], latest: stamp,
          transactions: [
            GroupMember(
              id: "\(id)-\(index)", description: index % 3 == 0 ? nil : "Member \(index)",
              amount: ExactDecimal(wide: 20_000_00, scale: 2), currency: "EUR", instant: stamp)
          ]))
    }
    var stats = RunStats()
    stats.lines = count
    stats.accepted = count
    return GroupReport(sections: [ReportSection(state: "COMPLETED", groups: groups)], stats: stats)
  }

  static func page(_ report: GroupReport, source: String? = "dump.jsonl", locale: ReportLocale = .english) -> String {
    text(
      ReportRenderer.renderToBytes(report, format: .html, options: TextReportOptions(locale: locale, source: source)))
  }

  @Test("The cards come first: before the chart and the run's accounting")
  func cardsFirst() throws {
    let page = Self.page(try Self.report(groups: 3))
    let card = try #require(page.range(of: "<article class=\"card"))
    let chart = try #require(page.range(of: "<section class=\"chart\""))
    let stats = try #require(page.range(of: "<section class=\"stats\""))
    #expect(card.lowerBound < chart.lowerBound && chart.lowerBound < stats.lowerBound)
    // Nothing but the heading before the first card: no tiles, no figure.
    let before = page[..<card.lowerBound]
    #expect(!before.contains("<figure") && !before.contains("class=\"stat "))
  }

  @Test("Title and heading name the input and the period; one day is shown once")
  func titleNamesSourceAndPeriod() throws {
    let page = Self.page(try Self.report(groups: 31))
    #expect(page.contains("<title>Grouped transactions · dump.jsonl · May 1, 2019 – May 31, 2019</title>"))
    #expect(page.contains("<span class=\"id src\" title=\"dump.jsonl\">dump.jsonl</span>"))
    #expect(
      page.contains(
        "<span class=\"period\"><time datetime=\"2019-05-01\">May 1, 2019</time> – <time datetime=\"2019-05-31\">May 31, 2019</time></span>"
      ))
    let one = Self.page(try Self.report(groups: 1), source: nil)
    #expect(one.contains("<title>Grouped transactions · May 31, 2019</title>"))
    let french = Self.page(try Self.report(groups: 2), locale: try #require(ReportLocale(identifier: "fr")))
    #expect(french.contains("<title>Opérations groupées · dump.jsonl · 30 mai 2019 – 31 mai 2019</title>"))
  }

  @Test("A hostile input name is escaped in the title and the heading")
  func hostileSource() throws {
    let page = Self.page(try Self.report(groups: 1), source: "<script>x</script>.jsonl")
    #expect(!page.contains("<script>"))
    #expect(page.contains("<title>Grouped transactions · &lt;script&gt;x&lt;/script&gt;.jsonl · "))
  }

  @Test("More than 50 groups get a month index whose links all lead to a card; 50 get none")
  func monthIndex() throws {
    let fifty = Self.page(try Self.report(groups: 50))
    #expect(!fifty.contains("<nav class=\"months\""))
    let many = Self.page(try Self.report(groups: 75))
    #expect(many.contains("<nav class=\"months\" aria-label=\"Months\"><details><summary>Months</summary>"))
    // 75 days back from May 31: May, April and March 2019.
    let links = many.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    #expect(links == ["s0-2019-05", "s0-2019-04", "s0-2019-03"])
    for link in links { #expect(many.components(separatedBy: "id=\"\(link)\"").count == 2, "\(link)") }
    #expect(many.contains("<a href=\"#s0-2019-04\">April 2019</a> <span class=\"count\">30</span>"))
    // The index comes before the first card, folded.
    let nav = try #require(many.range(of: "<nav class=\"months\""))
    #expect(nav.lowerBound < (try #require(many.range(of: "<article"))).lowerBound)
  }

  @Test("An id is one token: never broken, cut with an ellipsis, whole in its tooltip")
  func idsStayWhole() throws {
    let long = String(repeating: "X", count: 120)
    let page = Self.page(try Self.report(groups: 1, id: long))
    #expect(page.contains("<span class=\"id\" title=\"\(long)-0\">\(long)-0</span>"))
    let sheet = HTMLPage.styleSheet
    #expect(
      sheet.contains(
        ".id{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap"))
  }

  @Test("Numbers are never broken: no overflow-wrap:anywhere outside descriptions, tiles and dates nowrap")
  func numbersStayWhole() {
    let sheet = HTMLPage.styleSheet
    let anywhere = sheet.components(separatedBy: "overflow-wrap:anywhere").count - 1
    #expect(anywhere == 1)
    #expect(sheet.contains(".members li>:first-child,.list .desc,td.wide,th.wide{overflow-wrap:anywhere;min-width:0}"))
    // A URL wraps at its slashes, not inside its digits.
    var out: [UInt8] = []
    HTMLPage.appendBreakable("https://www.bol.com/order/88120417 <b>", to: &out)
    #expect(Self.text(out) == "https:/<wbr>/<wbr>www.bol.com/<wbr>order/<wbr>88120417 &lt;b&gt;")
    #expect(sheet.contains(".stat dd{margin:0;font-size:1.2rem;font-weight:600;white-space:nowrap}"))
    #expect(sheet.contains(".amt{white-space:nowrap"))
    #expect(sheet.contains(".period,time{white-space:nowrap}"))
  }

  /// The rules only a browser can prove (Scripts/browser-check.sh lays out amounts of 18 fraction
  /// digits and of 38 digits at 375 and 1280 px); here, that the sheet still holds them.
  @Test("An amount too wide for its line moves below its label, and one wider than the line scrolls inside itself")
  func wideAmounts() {
    let sheet = HTMLPage.styleSheet
    // A member's amount wraps under its description, which keeps at least 8rem, instead of
    // squeezing it to nothing; an amount in a card or the sums never widens its box.
    #expect(sheet.contains(".members li{display:flex;flex-wrap:wrap;"))
    #expect(sheet.contains(".members li>:first-child{flex:1 1 8rem}"))
    #expect(sheet.contains(".members .amt,.total .amt,.sums .amt{max-width:100%;overflow-x:auto;overflow-y:hidden}"))
    // On a phone a list row puts its amount beside the date when both fit, else on a line of its own.
    #expect(sheet.contains("table.rows tr{display:flex;flex-wrap:wrap;"))
    #expect(!sheet.contains("grid-template-columns:1fr auto"))
    #expect(sheet.contains("table.list td.num{order:1;margin-left:auto}table.list .wide{order:2}"))
    #expect(sheet.contains("table.rows td.num .amt{display:inline-block;max-width:calc(100vw - 3rem);overflow-x:auto;"))
    // The index's sums on a desktop: five columns still fit 1,280 px.
    #expect(sheet.contains("table.index td.sums .amt{display:inline-block;max-width:18rem;overflow-x:auto;"))
  }

  @Test("Summary bars are compared within one currency: a table per currency")
  func summaryBlocksPerCurrency() {
    func cell(_ currency: String, _ expense: Int64) -> SummaryCurrencyTotals {
      SummaryCurrencyTotals(
        currency: currency, count: 1, income: .zero, expense: ExactDecimal(wide: WideInt(-expense), scale: 2))
    }
    let report = SummaryReport(
      dimension: .category,
      entries: [
        SummaryEntry(key: .text("Rent"), count: 1, currencies: [cell("EUR", 1_250_00)]),
        SummaryEntry(key: .text("Books"), count: 2, currencies: [cell("EUR", 12_50), cell("USD", 23_99)]),
      ],
      totals: [cell("EUR", 1_262_50), cell("USD", 23_99)], stats: RunStats())
    let page = Self.text(SummaryRenderer.renderToBytes(report, format: .html))
    let blocks = page.components(separatedBy: "<div class=\"currency\">").dropFirst()
    #expect(blocks.count == 2)
    let (euro, dollar) = (String(blocks.first ?? ""), String(blocks.last ?? ""))
    #expect(euro.hasPrefix("\n<h3 class=\"cur\">EUR</h3>") && dollar.hasPrefix("\n<h3 class=\"cur\">USD</h3>"))
    // Rent's €1,250 is the longest euro bar; $23.99 is the longest (and only) dollar bar,
    // and never drawn against the euros.
    #expect(euro.contains("Rent") && euro.contains("Books") && !dollar.contains("Rent"))
    #expect(euro.contains("<rect class=\"out\" x=\"0\" y=\"52%\" width=\"100.00%\""))
    #expect(euro.contains("<rect class=\"out\" x=\"0\" y=\"52%\" width=\"1.00%\""))
    #expect(dollar.contains("<rect class=\"out\" x=\"0\" y=\"52%\" width=\"100.00%\""))
    #expect(euro.contains("-€1,262.50") && !euro.contains("$") && dollar.contains("-$23.99"))
    // One currency: no heading.
    let single = SummaryReport(
      dimension: .category, entries: [SummaryEntry(key: .text("Rent"), count: 1, currencies: [cell("EUR", 5)])],
      totals: [cell("EUR", 5)], stats: RunStats())
    #expect(!Self.text(SummaryRenderer.renderToBytes(single, format: .html)).contains("<h3 class=\"cur\">"))
  }

  @Test("Card headers put the indicator pill in its own column, aligned on every card")
  func alignedCards() throws {
    let sheet = HTMLPage.styleSheet
    #expect(sheet.contains(".card header{display:grid;grid-template-columns:minmax(0,1fr) auto;"))
    #expect(sheet.contains(".card header .ind{grid-column:2;grid-row:1;justify-self:end}"))
    #expect(sheet.contains(".members .amt{margin-left:auto;text-align:right}"))
  }
}

/// `HTMLAccountPages`: the pages of `--output-dir` and their file names.
@Suite("HTMLRender account pages")
struct HTMLAccountPagesTests {
  static let hostileIDs = [
    "../../etc/passwd", "/", "/abs/path", "a/b", "A/B", "a\u{1}b", "a\u{0}b", "a b", "A1", "a1", ".", "..", "",
    "-rf", ".hidden", "CON", "nul", "Ünïcødé", "😀", "a\u{202E}b", String(repeating: "x", count: 10_000),
    String(repeating: "é", count: 300), "a%2Fb", "a\\b", "index", "index.html",
  ]

  @Test("File names: no path, no hidden or option-like name, short, lower case, all different")
  func fileNames() {
    var seen: [String: String] = [:]
    for id in Self.hostileIDs {
      let name = HTMLAccountPages.fileName(for: id)
      #expect(!name.contains("/") && !name.contains("\\") && !name.contains("\u{0}"), "\(name)")
      #expect(!name.hasPrefix(".") && !name.hasPrefix("-"), "\(name)")
      #expect(name.hasSuffix(".html") && name.utf8.count <= 62, "\(name)")
      #expect(
        name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E })
      #expect(!HTMLAccountPages.indexFiles.contains(name))
      // Case-insensitive file systems: names are lower case, so unequal names stay unequal.
      if let other = seen[name.lowercased()] { Issue.record("'\(id)' and '\(other)' share \(name)") }
      seen[name.lowercased()] = id
    }
    #expect(HTMLAccountPages.fileName(for: "A1") != HTMLAccountPages.fileName(for: "a1"))
    #expect(HTMLAccountPages.fileName(for: "A1").hasPrefix("a1-"))
    #expect(HTMLAccountPages.fileName(for: "../../etc/passwd").hasPrefix("etc-passwd-"))
    #expect(HTMLAccountPages.fileName(for: "").hasPrefix("account-"))
    // The same id always gets the same name (a rerun links the same pages).
    #expect(
      HTMLAccountPages.fileName(for: "NL91ABNA0417164300") == HTMLAccountPages.fileName(for: "NL91ABNA0417164300"))
  }

  static func account(_ id: String, count: Int, day: Int) throws -> AccountReport {
    let stamp = try #require(TimestampParser.parse("2019-05-\(day < 10 ? "0" : "")\(day)T10:00:00"))
    let group = TransactionGroup(
      state: "COMPLETED", date: CalendarDay(year: 2019, month: 5, day: day), creditDebitIndicator: .debit,
      count: count, totals: [CurrencyTotal(currency: "EUR", amount: ExactDecimal(wide: 750, scale: 2))],
      latest: stamp,
      transactions: [
        GroupMember(
          id: "1", description: "<b>Café</b>", amount: ExactDecimal(wide: 750, scale: 2), currency: "EUR",
          instant: stamp)
      ])
    return AccountReport(account: id, count: count, sections: [ReportSection(state: "COMPLETED", groups: [group])])
  }

  @Test("An account's page names the account, input and period, links the index and escapes everything")
  func accountPage() throws {
    let pages = HTMLAccountPages(options: TextReportOptions(source: "bank.jsonl"))
    let page = String(decoding: pages.page(for: try Self.account("<i>A/1</i>", count: 2, day: 17)), as: UTF8.self)
    #expect(
      page.contains("<title>Grouped transactions · Account &lt;i&gt;A/1&lt;/i&gt; · bank.jsonl · May 17, 2019</title>"))
    #expect(page.contains("<span class=\"acct\">Account <span class=\"id\" title=\"&lt;i&gt;A/1&lt;/i&gt;\">"))
    #expect(page.contains("<a href=\"index.html\">All accounts</a>"))
    #expect(!page.contains("<i>") && !page.contains("<b>"))
    #expect(page.hasSuffix("</html>\n"))
  }

  @Test("The index in three orders, each linking the others and every account's page")
  func index() throws {
    var pages = HTMLAccountPages(options: TextReportOptions(source: "bank.jsonl"))
    let accounts = [("A", 1, 3), ("B", 5, 1), ("C", 3, 9)]
    for (id, count, day) in accounts {
      try pages.add(try Self.account(id, count: count, day: day), fileName: HTMLAccountPages.fileName(for: id))
    }
    var stats = RunStats()
    stats.lines = 9
    stats.accepted = 9
    let index = try pages.indexPages(stats: stats)
    #expect(index.map(\.name) == ["index.html", "index-by-count.html", "index-by-latest.html"])
    func order(_ bytes: [UInt8]) -> [String] {
      String(decoding: bytes, as: UTF8.self).components(separatedBy: "<span class=\"id\" title=\"").dropFirst()
        .map { String($0.prefix { $0 != "\"" }) }
    }
    #expect(order(index[0].bytes) == ["A", "B", "C"])
    #expect(order(index[1].bytes) == ["B", "C", "A"])
    #expect(order(index[2].bytes) == ["C", "A", "B"])
    let byCount = String(decoding: index[1].bytes, as: UTF8.self)
    for (id, _, _) in accounts { #expect(byCount.contains("<a href=\"\(HTMLAccountPages.fileName(for: id))\">")) }
    for name in HTMLAccountPages.indexFiles { #expect(byCount.contains("<a href=\"\(name)\"")) }
    #expect(byCount.contains("<a href=\"index-by-count.html\" aria-current=\"page\">"))
    #expect(byCount.contains("<title>Accounts · bank.jsonl · May 1, 2019 – May 9, 2019</title>"))
    #expect(byCount.contains("<dt>Accounts</dt><dd>3</dd>"))
    #expect(byCount.contains("<span class=\"amt out\">-€7.50</span>"))
  }

  /// An account's summary by category: €10.00 in, €2.50 out.
  @Test("An index is handed out a buffer at a time as it is made, never held whole")
  func indexStreamed() throws {
    var pages = HTMLAccountPages(options: TextReportOptions(source: "bank.jsonl"))
    for number in 0..<2_000 {
      let id = "ACCOUNT-\(number)"
      try pages.add(
        try Self.account(id, count: 1 + number % 7, day: 1 + number % 28), fileName: HTMLAccountPages.fileName(for: id))
    }
    let whole = try pages.indexPages(stats: RunStats())
    for order in pages.indexFiles.indices {
      var pieces: [Int] = []
      var bytes: [UInt8] = []
      try pages.writeIndexPage(order, stats: RunStats()) { (chunk: inout [UInt8]) in
        pieces.append(chunk.count)
        bytes += chunk
        chunk.removeAll(keepingCapacity: true)
      }
      #expect(bytes == whole[order].bytes)
      // Hundreds of kilobytes, in pieces of about the writers' buffer.
      #expect(bytes.count > 4 * BufferFlushing.threshold && pieces.count > 4, "\(bytes.count) bytes in \(pieces)")
      #expect(pieces.allSatisfy { $0 < 2 * BufferFlushing.threshold })
    }
  }

  static func summary(_ id: String) -> AccountSummary {
    let cell = SummaryCurrencyTotals(
      currency: "EUR", count: 2, income: ExactDecimal(wide: 1_000, scale: 2),
      expense: ExactDecimal(wide: -250, scale: 2))
    let report = SummaryReport(
      dimension: .category, entries: [SummaryEntry(key: .text("<b>Food</b>"), count: 2, currencies: [cell])],
      totals: [cell], stats: RunStats())
    return AccountSummary(account: id, count: 2, report: report)
  }

  @Test(
    "A summary's page is its summary section, named with its period; its index has no period column and no order by latest day, its title the run's period"
  )
  func summaryPages() throws {
    var pages = HTMLAccountPages(options: TextReportOptions(source: "bank.jsonl"), periods: false)
    #expect(pages.indexFiles == ["index.html", "index-by-count.html"])
    var days = DaySpan(CalendarDay(year: 2019, month: 5, day: 3))
    days.add(CalendarDay(year: 2019, month: 5, day: 9))
    let page = String(decoding: pages.page(for: Self.summary("A/1"), days: days), as: UTF8.self)
    #expect(page.contains("<title>By category · Account A/1 · bank.jsonl · May 3, 2019 – May 9, 2019</title>"))
    let undated = String(decoding: pages.page(for: Self.summary("A/1"), days: nil), as: UTF8.self)
    #expect(undated.contains("<title>By category · Account A/1 · bank.jsonl</title>"))
    #expect(page.contains("<a href=\"index.html\">All accounts</a> · <span class=\"count\">2 transactions</span>"))
    #expect(page.contains("<section class=\"summary\" aria-labelledby=\"summary-h\">"))
    #expect(!page.contains("<b>") && !page.contains("class=\"stats\"") && page.hasSuffix("</html>\n"))
    try pages.add(Self.summary("A/1"), days: days, fileName: HTMLAccountPages.fileName(for: "A/1"))
    try pages.add(
      Self.summary("B/2"), days: DaySpan(CalendarDay(year: 2019, month: 5, day: 1)),
      fileName: HTMLAccountPages.fileName(for: "B/2"))
    let index = try pages.indexPages(stats: RunStats())
    #expect(index.map(\.name) == ["index.html", "index-by-count.html"])
    let text = String(decoding: index[0].bytes, as: UTF8.self)
    #expect(text.contains("<title>Accounts · bank.jsonl · May 1, 2019 – May 9, 2019</title>"))
    #expect(!text.contains("index-by-latest.html") && !text.contains("<td class=\"period\""))
    #expect(
      text.contains("<span class=\"amt in\">+€10.00</span>") && text.contains("<span class=\"amt out\">-€2.50</span>"))
    #expect(text.contains("<dt>Accounts</dt><dd>2</dd>"))
  }
}
