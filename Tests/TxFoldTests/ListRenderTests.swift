import Foundation
import Testing

@testable import TxFold

/// The list and summary writers: exact bytes of every format, the Latest
/// block, fees, colours, locales, CSV neutralisation, the bar chart.
@Suite("List and summary rendering")
struct ListRenderTests {
  typealias Sample = TransactionSamples

  /// The Spanish seed deduplicated, first page of 4: a fee on the latest.
  static func spanishPage(offset: Int = 0) throws -> ([Transaction], ListContext) {
    let page = PageRequest(offset: offset, limit: 4)
    let result = TransactionQuery(dedupe: true, page: page).run(try Sample.spanishLedger())
    var stats = RunStats()
    stats.lines = 15
    stats.accepted = 11
    stats.rejected = 4
    stats.duplicates = 1
    return (result.transactions, ListContext(stats: stats, matched: result.matched, page: page))
  }

  static func render(
    _ transactions: [Transaction], _ context: ListContext, _ format: ReportFormat,
    _ options: TextReportOptions = TextReportOptions()
  ) throws -> String {
    String(
      decoding: try ListRenderer.renderToBytes(transactions, context: context, format: format, options: options),
      as: UTF8.self)
  }

  @Test("Text: the latest on top with its total including the fee, rows, the sums, what is shown")
  func text() throws {
    let (transactions, context) = try Self.spanishPage()
    #expect(
      try Self.render(transactions, context, .text) == """
        Latest · July 29, 2018
          €87.84  Veniam sit ut pariatur do. · total with fee €86.73

        July 28, 2018                €96.56   2117
        July 26, 2018               €166.83   Fugiat elit cupidatat ipsum ad Lorem aliquip.
        July 26, 2018                €92.54   Nostrud laboris id officia aliquip.

        Sum €443.77
        Total with fees €442.66
        Shown 1–4 of 10
        Lines 15 · accepted 11 · rejected 4 · duplicates 1

        """)
  }

  @Test("Text: a later page has no Latest block; expenses show negative; state and category show")
  func laterPage() throws {
    let (transactions, context) = try Self.spanishPage(offset: 4)
    #expect(
      try Self.render(transactions, context, .text) == """
        July 24, 2018              -€161.56   3371 · total with fee -€166.51
        July 24, 2018              -€113.86   1442
        July 22, 2018                €87.95   Minim non sunt cupidatat magna nisi ut duis.
        July 19, 2018               -€38.67   3369

        Sum -€226.14
        Total with fees -€231.09
        Shown 5–8 of 10
        Lines 15 · accepted 11 · rejected 4 · duplicates 1

        """)
    let pending = [try Sample.make("p", "2019-05-17", "-1.00", description: "Coffee", category: "Food", fee: nil)]
      .map {
        var copy = $0; copy.state = "PENDING"; return copy
      }
    let context2 = ListContext(stats: RunStats(), matched: 1)
    #expect(
      try Self.render(pending, context2, .text).hasPrefix(
        "Latest · May 17, 2019\n  -€1.00  Coffee · Food · pending\n"))
  }

  @Test("Text labels: the description, else the counterparty, else the id; the counterparty beside a description")
  func labels() throws {
    let rows = [
      try Sample.make("1", "2021-06-14", "-8.40", counterparty: "Sushi WA"),
      try Sample.make("2", "2021-06-13", "124", "PBP", description: "Punkte sammeln", counterparty: "REWE"),
      try Sample.make("3", "2021-06-12", "-1", description: "Same", counterparty: "Same"),
      try Sample.make("4", "2021-06-11", "-2"),
    ]
    let text = try Self.render(rows, ListContext(stats: RunStats(), matched: 4), .text)
    #expect(text.hasPrefix("Latest · June 14, 2021\n  -€8.40  Sushi WA\n"))
    #expect(text.contains("PBP 124      Punkte sammeln · REWE\n".replacingOccurrences(of: "PBP ", with: "PBP\u{A0}")))
    #expect(text.contains("-€1.00   Same\n"))
    #expect(text.contains("-€2.00   4\n"))
  }

  @Test("Text cuts the details at their end to the width with …, never below 10 columns; no width never cuts")
  func cutToWidth() throws {
    let long = String(repeating: "Lorem ipsum ", count: 12)
    let rows = [
      try Sample.make("0", "2021-06-15", "-1", description: "newest"),
      try Sample.make("1", "2021-06-14", "-8.40", description: long, category: "Food"),
      try Sample.make(
        "2", "2021-06-13", "-1", description: "Short", category: String(repeating: "Category ", count: 12)),
    ]
    let context = ListContext(stats: RunStats(), matched: 2)
    for width in [60, 80, 120] {
      let text = try Self.render(rows, context, .text, TextReportOptions(width: width))
      let row = try #require(text.split(separator: "\n").first { $0.contains("Lorem") })
      #expect(row.count == width, "width \(width): \(row)")
      #expect(row.hasSuffix("…"))
    }
    let narrow = try Self.render(rows, context, .text, TextReportOptions(width: 20))
    #expect(narrow.contains("  Lorem ips…\n"))
    let wide = try Self.render(rows, context, .text, TextReportOptions(width: nil))
    #expect(wide.contains(long + " · Food\n"))
    // A long category is cut, the label before it kept whole.
    let text = try Self.render(rows, context, .text, TextReportOptions(width: 80))
    #expect(text.contains("Short · Category Category"))
  }

  @Test("Text in French, and an empty list")
  func frenchAndEmpty() throws {
    let (transactions, context) = try Self.spanishPage()
    let french = try Self.render(transactions, context, .text, TextReportOptions(locale: .french))
    #expect(
      french.hasPrefix(
        "Dernière opération · 29 juillet 2018\n  87,84\u{A0}€  Veniam sit ut pariatur do. · total avec frais 86,73\u{A0}€\n"
      ))
    #expect(french.contains("\n28 juillet 2018            96,56\u{A0}€     2117\n"))
    #expect(
      french.hasSuffix(
        "Somme 443,77\u{A0}€\nTotal avec frais 442,66\u{A0}€\nAffichées 1–4 sur 10\nLignes 15 · acceptées 11 · rejetées 4 · doublons 1\n"
      ))
    let empty = try Self.render([], ListContext(stats: RunStats(), matched: 0), .text)
    #expect(empty == "No transactions.\n\nShown 0 of 0\nLines 0 · accepted 0 · rejected 0 · duplicates 0\n")
    for locale in ReportLocale.supportedIdentifiers.compactMap(ReportLocale.init(identifier:)) {
      let words = locale.queryWords
      for dimension in SummaryDimension.allCases {
        #expect(words.titles[dimension] != nil && words.keyHeadings[dimension] != nil, "\(locale.identifier)")
      }
    }
  }

  @Test("Colours only when asked: green income, red expense")
  func colours() throws {
    let (transactions, context) = try Self.spanishPage(offset: 4)
    #expect(!(try Self.render(transactions, context, .text)).contains("\u{1B}"))
    let coloured = try Self.render(transactions, context, .text, TextReportOptions(color: true))
    #expect(coloured.contains("\u{1B}[31m-€161.56\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[32m€87.95\u{1B}[0m"))
  }

  @Test("JSON and JSON lines: the documented shapes")
  func json() throws {
    let (transactions, context) = try Self.spanishPage()
    let document = try Self.render(transactions, context, .json)
    #expect(
      document.hasPrefix(
        """
        {
          "transactions": [
            {"id":"2911","instant":"2018-07-29T17:56:43.000Z","date":"2018-07-29","state":"COMPLETED","creditDebitIndicator":"CRDT","amount":"87.84","currency":"EUR","fee":"-1.11","total":"86.73","description":"Veniam sit ut pariatur do."},
            {"id":"2117","instant":"2018-07-28T14:14:17.000Z","date":"2018-07-28","state":"COMPLETED","creditDebitIndicator":"CRDT","amount":"96.56","currency":"EUR","total":"96.56","description":""},

        """))
    #expect(
      document.hasSuffix(
        """
          ],
          "sum": [{"currency":"EUR","count":4,"amount":"443.77","fees":"-1.11","total":"442.66"}],
          "page": {"offset":0,"limit":4,"shown":4,"matched":10},
          "stats": {"lines":15,"accepted":11,"rejected":4,"duplicates":1}
        }

        """))
    #expect(try JSONSerialization.jsonObject(with: Data(document.utf8)) is [String: Any])
    let lines = try Self.render(transactions, context, .jsonl).split(separator: "\n")
    // Rows only: no trailing sum, page or stats line, every line a transaction.
    #expect(lines.count == 4)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["id"] is String)
      #expect(object?["stats"] == nil && object?["sum"] == nil)
    }
    #expect(try Self.render([], ListContext(stats: RunStats(), matched: 0), .jsonl) == "")
    let empty = try Self.render([], ListContext(stats: RunStats(), matched: 0), .json)
    #expect(
      empty.hasPrefix(
        "{\n  \"transactions\": [],\n  \"sum\": [],\n  \"page\": {\"offset\":0,\"limit\":null,\"shown\":0,\"matched\":0},\n"
      ))
  }

  @Test("CSV: one row per transaction, formula cells neutralised, numbers left as they are")
  func csv() throws {
    let hostile = try Sample.make(
      "-5", "2019-05-17T10:00:00+02:00", "-12.00", "EUR", description: "=HYPERLINK(\"x\")", category: "+1",
      counterparty: "@ACME, Inc.", fee: "-0.50")
    let text = try Self.render([hostile], ListContext(stats: RunStats(), matched: 1), .csv)
    #expect(
      text
        == "id,instant,date,state,creditDebitIndicator,amount,currency,fee,total,description,category,counterparty\r\n"
        + "'-5,2019-05-17T10:00:00+02:00,2019-05-17,COMPLETED,DBIT,-12.00,EUR,-0.50,-12.50,"
        + "\"'=HYPERLINK(\"\"x\"\")\",'+1,\"'@ACME, Inc.\"\r\n")
    #expect(try Self.render([], ListContext(stats: RunStats(), matched: 0), .csv).hasSuffix("counterparty\r\n"))
  }

  // MARK: Summary

  static func summary() throws -> SummaryReport {
    let transactions = [
      try Sample.make("1", "2019-05-17", "-1250.00", category: "Housing"),
      try Sample.make("2", "2019-05-17", "-12.80", category: "Food Drinks"),
      try Sample.make("3", "2019-05-16", "-7.5", category: "Food Drinks"),
      try Sample.make("4", "2019-05-16", "-14.25", "GBP", category: "Groceries"),
      try Sample.make("5", "2019-05-16", "1919.95", category: "Salary"),
      try Sample.make("6", "2019-05-15", "4", category: nil),
      try Sample.make("7", "2019-05-15", "-1", category: "A category whose name is far too long to show"),
    ]
    return try TransactionSummary.summarize(transactions, by: .category)
  }

  @Test("Summary text: the table, bars scaled per currency to the width, totals")
  func summaryText() throws {
    let text = String(decoding: SummaryRenderer.renderToBytes(try Self.summary(), format: .text), as: UTF8.self)
    #expect(
      text == """
        By category

          Category                        Count     Income     Expense
          Housing                             1      €0.00  -€1,250.00    ▐████│
          Food Drinks                         2      €0.00     -€20.30        ▐│
          A category whose name is far …      1      €0.00      -€1.00        ▐│
          Groceries                           1      £0.00     -£14.25  ███████│
          Salary                              1  €1,919.95       €0.00         │███████
          (none)                              1      €4.00       €0.00         │▌

          Total                               6  €1,923.95  -€1,271.30
                                              1      £0.00     -£14.25

          ◀ Expense │ Income ▶
          Bars scaled per currency, full bar: €1,919.95 · £14.25

        Lines 7 · accepted 7 · rejected 0 · duplicates 0

        """)
    // The bars take what the line leaves, at least 10 columns, half each side of the axis when there is income
    // and expense; the largest amount of each currency fills its side.
    for (width, columns) in [(20, 4), (100, 17)] {
      let text = String(
        decoding: SummaryRenderer.renderToBytes(
          try Self.summary(), format: .text, options: SummaryTextOptions(width: width)), as: UTF8.self)
      let bar = String(repeating: "█", count: columns)
      #expect(text.contains("-£14.25  \(bar)│\n"), "width \(width)")
      #expect(text.contains("│\(bar)\n"), "width \(width): the largest euro amount, an income")
    }
    let coloured = String(
      decoding: SummaryRenderer.renderToBytes(
        try Self.summary(), format: .text, options: SummaryTextOptions(color: true)),
      as: UTF8.self)
    #expect(coloured.contains("\u{1B}[31m-€1,250.00\u{1B}[0m    \u{1B}[31m▐████\u{1B}[0m│"))
    #expect(coloured.contains("\u{1B}[32m€1,919.95\u{1B}[0m"))
  }

  @Test("Summary text: income only draws income bars (green), no axis, no legend for one currency")
  func incomeOnlyChart() throws {
    let points = [
      try Sample.make("1", "2022-01-01", "1240", "PBP", category: "1"),
      try Sample.make("2", "2022-01-02", "124", "PBP", category: "2"),
    ]
    let report = try TransactionSummary.summarize(points, by: .category)
    let text = String(
      decoding: SummaryRenderer.renderToBytes(report, format: .text, options: SummaryTextOptions(color: true)),
      as: UTF8.self)
    #expect(text.contains("\u{1B}[32m" + String(repeating: "█", count: 41) + "\u{1B}[0m\n"))
    #expect(!text.contains("│"))
    #expect(!text.contains("◀"))
  }

  struct SortCase: Sendable, CustomTestStringConvertible {
    var order: SummaryOrder
    var keys: [String?]
    var testDescription: String { order.rawValue }
  }

  @Test(
    "Summary orders: key (chronological, missing last), expense, income, count; ties by key",
    arguments: [
      SortCase(
        order: .key,
        keys: ["A category whose name is far too long to show", "Food Drinks", "Groceries", "Housing", "Salary", nil]),
      SortCase(
        order: .expense,
        keys: ["Housing", "Food Drinks", "A category whose name is far too long to show", "Groceries", "Salary", nil]),
      SortCase(
        order: .income,
        keys: ["Salary", nil, "A category whose name is far too long to show", "Food Drinks", "Groceries", "Housing"]),
      SortCase(
        order: .count,
        keys: ["Food Drinks", "A category whose name is far too long to show", "Groceries", "Housing", "Salary", nil]),
    ])
  func summaryOrders(_ test: SortCase) throws {
    let sorted = try Self.summary().sorted(by: test.order)
    #expect(sorted.entries.map(\.key.text) == test.keys)
  }

  @Test("Time keys default to key order, others to expense")
  func defaultOrders() {
    #expect(SummaryOrder.defaultOrder(for: .day) == .key)
    #expect(SummaryOrder.defaultOrder(for: .month) == .key)
    #expect(SummaryOrder.defaultOrder(for: .category) == .expense)
    #expect(SummaryOrder.defaultOrder(for: .counterparty) == .expense)
  }

  @Test("Bar lengths in eighths: rounded, at least one for any expense, exact for huge values")
  func eighths() {
    func decimal(_ significand: WideInt, _ scale: UInt8) -> ExactDecimal {
      ExactDecimal(wide: significand, scale: scale)
    }
    #expect(SummaryTextWriter.eighths(decimal(5, 0), of: decimal(10, 0), width: 10) == 40)
    #expect(SummaryTextWriter.eighths(decimal(1, 0), of: decimal(3, 0), width: 10) == 27)
    #expect(SummaryTextWriter.eighths(decimal(-2030, 2), of: decimal(-125_000, 2), width: 22) == 3)
    #expect(SummaryTextWriter.eighths(decimal(1, 18), of: decimal(WideInt.max, 0), width: 80) == 1)
    #expect(SummaryTextWriter.eighths(decimal(0, 2), of: decimal(10, 0), width: 80) == 0)
    #expect(SummaryTextWriter.eighths(decimal(WideInt.max, 0), of: decimal(WideInt.max, 0), width: 80) == 640)
    // The html summary's width (10,000 eighths): the rounding's half must fit beside the product.
    #expect(SummaryTextWriter.eighths(decimal(WideInt.max, 0), of: decimal(WideInt.max, 0), width: 1250) == 10_000)
    #expect(
      SummaryTextWriter.eighths(
        decimal(WideInt.max.quotientAndRemainder(dividingBy: 2).quotient, 0), of: decimal(WideInt.max, 18), width: 80)
        == 640)
  }

  @Test(
    "Summary and list text: a huge width renders as the widest line allowed, a negative one as none",
    arguments: [Int.max, Int.max / 8 + 1, 1_000_000_000_000, 100_000_000, Int.min, -1])
  func hugeWidths(width: Int) throws {
    // The library bounds the width itself: its callers pass any Int, not only the CLI's checked one.
    let bounded = min(max(width, 0), 1_000)
    let summary = try Self.summary()
    let text = ReportRenderer.renderToBytes(summary, format: .text, options: TextReportOptions(width: width))
    let widest = String(decoding: text, as: UTF8.self).split(separator: "\n").map(\.unicodeScalars.count).max()
    #expect((widest ?? 0) <= 1_000)
    #expect(text == ReportRenderer.renderToBytes(summary, format: .text, options: TextReportOptions(width: bounded)))
    let (transactions, context) = try Self.spanishPage()
    #expect(
      try Self.render(transactions, context, .text, TextReportOptions(width: width))
        == Self.render(transactions, context, .text, TextReportOptions(width: bounded)))
    func decimal(_ significand: WideInt) -> ExactDecimal { ExactDecimal(wide: significand, scale: 0) }
    // A non-zero value keeps its one eighth even with no width.
    let full = max(1, min(max(width, 0), Int.max / 8) * 8)
    #expect(SummaryTextWriter.eighths(decimal(1), of: decimal(1), width: width) == full)
  }

  @Test("Summary JSON, JSON lines and CSV: the documented shapes, the missing key as null or (none)")
  func summaryMachineFormats() throws {
    let report = try Self.summary()
    let json = String(decoding: SummaryRenderer.renderToBytes(report, format: .json), as: UTF8.self)
    #expect(
      json.hasPrefix(
        "{\n  \"by\": \"category\",\n  \"entries\": [\n    {\"key\":\"Housing\",\"count\":1,\"currencies\":[{\"currency\":\"EUR\",\"count\":1,\"income\":\"0.00\",\"expense\":\"-1250.00\"}]},\n"
      ))
    #expect(
      json.contains(
        "\n    {\"key\":null,\"count\":1,\"currencies\":[{\"currency\":\"EUR\",\"count\":1,\"income\":\"4\",\"expense\":\"0\"}]}\n  ],\n"
      ))
    #expect(
      json.hasSuffix(
        "  \"totals\": [{\"currency\":\"EUR\",\"count\":6,\"income\":\"1923.95\",\"expense\":\"-1271.30\"},{\"currency\":\"GBP\",\"count\":1,\"income\":\"0.00\",\"expense\":\"-14.25\"}],\n  \"stats\": {\"lines\":7,\"accepted\":7,\"rejected\":0,\"duplicates\":0}\n}\n"
      ))
    #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    let lines = String(decoding: SummaryRenderer.renderToBytes(report, format: .jsonl), as: UTF8.self)
      .split(separator: "\n")
    // Rows only: one line per entry, no trailing totals or stats line.
    #expect(lines.count == 6)
    #expect(lines.allSatisfy { $0.hasPrefix("{\"key\":") })
    #expect(
      SummaryRenderer.renderToBytes(
        SummaryReport(dimension: .day, entries: [], totals: [], stats: RunStats()), format: .jsonl
      ).isEmpty)
    let csv = String(decoding: SummaryRenderer.renderToBytes(report, format: .csv), as: UTF8.self)
    #expect(
      csv == "key,currency,count,income,expense\r\nHousing,EUR,1,0.00,-1250.00\r\nFood Drinks,EUR,2,0.00,-20.30\r\n"
        + "A category whose name is far too long to show,EUR,1,0,-1\r\nGroceries,GBP,1,0.00,-14.25\r\n"
        + "Salary,EUR,1,1919.95,0.00\r\n(none),EUR,1,4,0\r\n")
    let empty = SummaryReport(dimension: .day, entries: [], totals: [], stats: RunStats())
    #expect(
      String(decoding: SummaryRenderer.renderToBytes(empty, format: .text), as: UTF8.self)
        == "By day\n\nNo transactions.\n\nLines 0 · accepted 0 · rejected 0 · duplicates 0\n")
    #expect(
      String(decoding: SummaryRenderer.renderToBytes(empty, format: .json), as: UTF8.self)
        == "{\n  \"by\": \"day\",\n  \"entries\": [],\n  \"totals\": [],\n  \"stats\": {\"lines\":0,\"accepted\":0,\"rejected\":0,\"duplicates\":0}\n}\n"
    )
  }
}
