import Testing

@testable import TxFold

/// The renderers (`Render/`): exact bytes of every format for a report built
/// by hand, CSV quoting and formula neutralisation, JSON escaping, the five
/// locales, colours, and streaming through the flush closure.
@Suite("Render")
struct RenderTests {
  // MARK: Fixture

  /// The grouped example of SampleData (PENDING, two credits of 1919.95 EUR) plus a
  /// COMPLETED section with a two-currency debit group that keeps fewer
  /// members than its count (one without description) and a one-member credit.
  static func sampleReport() throws -> GroupReport {
    let pending = TransactionGroup(
      state: "PENDING", date: CalendarDay(year: 2019, month: 5, day: 17), creditDebitIndicator: .credit,
      count: 2, totals: [CurrencyTotal(currency: "EUR", amount: decimal(383_990, 2), count: 2)],
      latest: try stamp("2019-05-17T14:28:01"),
      transactions: [
        GroupMember(
          id: "2", description: "Salary", amount: decimal(191_995, 2), currency: "EUR",
          instant: try stamp("2019-05-17T14:28:01")),
        GroupMember(
          id: "1", description: "Internet Banking", amount: decimal(191_995, 2), currency: "EUR",
          instant: try stamp("2019-05-17T09:00:00")),
      ])
    let debits = TransactionGroup(
      state: "COMPLETED", date: CalendarDay(year: 2019, month: 5, day: 16), creditDebitIndicator: .debit,
      count: 3,
      totals: [
        CurrencyTotal(currency: "EUR", amount: decimal(123_450, 2), count: 2),
        CurrencyTotal(currency: "USD", amount: decimal(500, 2), count: 1),
      ],
      latest: try stamp("2019-05-16T18:00:00+02:00"),
      transactions: [
        GroupMember(
          id: "3", description: "Rent", amount: decimal(123_450, 2), currency: "EUR",
          instant: try stamp("2019-05-16T18:00:00+02:00")),
        GroupMember(
          id: "42", description: nil, amount: decimal(500, 2), currency: "USD",
          instant: try stamp("2019-05-16T12:00:00Z")),
      ])
    let refund = TransactionGroup(
      state: "COMPLETED", date: CalendarDay(year: 2019, month: 5, day: 15), creditDebitIndicator: .credit,
      count: 1, totals: [CurrencyTotal(currency: "EUR", amount: decimal(1050, 2), count: 1)],
      latest: try stamp("2019-05-15"),
      transactions: [
        GroupMember(
          id: "5", description: "Refund", amount: decimal(1050, 2), currency: "EUR",
          instant: try stamp("2019-05-15"))
      ])
    var stats = RunStats()
    stats.lines = 7
    stats.accepted = 6
    stats.rejected = 1
    return GroupReport(
      sections: [
        ReportSection(state: "PENDING", groups: [pending]),
        ReportSection(state: "COMPLETED", groups: [debits, refund]),
      ],
      stats: stats)
  }

  static func decimal(_ significand: WideInt, _ scale: UInt8) -> ExactDecimal {
    ExactDecimal(wide: significand, scale: scale)
  }

  static func stamp(_ text: String) throws -> Timestamp {
    try #require(TimestampParser.parse(text))
  }

  static func render(_ report: GroupReport, _ format: ReportFormat, _ options: TextReportOptions = .init())
    -> String
  {
    String(decoding: ReportRenderer.renderToBytes(report, format: format, options: options), as: UTF8.self)
  }

  static let emptyReport = GroupReport(sections: [], stats: RunStats())

  // MARK: json, jsonl, csv: exact bytes

  @Test func jsonDocument() throws {
    let expected = """
      {
        "sections": [
          {
            "state": "PENDING",
            "groups": [
              {"date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","instant":"2019-05-17T14:28:01"},{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","instant":"2019-05-17T09:00:00"}]}
            ]
          },
          {
            "state": "COMPLETED",
            "groups": [
              {"date":"2019-05-16","creditDebitIndicator":"DBIT","count":3,"totals":[{"currency":"EUR","amount":"1234.50"},{"currency":"USD","amount":"5.00"}],"latest":"2019-05-16T18:00:00+02:00","transactions":[{"id":"3","description":"Rent","amount":"1234.50","currency":"EUR","instant":"2019-05-16T18:00:00+02:00"},{"id":"42","amount":"5.00","currency":"USD","instant":"2019-05-16T12:00:00Z"}]},
              {"date":"2019-05-15","creditDebitIndicator":"CRDT","count":1,"totals":[{"currency":"EUR","amount":"10.50"}],"latest":"2019-05-15","transactions":[{"id":"5","description":"Refund","amount":"10.50","currency":"EUR","instant":"2019-05-15"}]}
            ]
          }
        ],
        "stats": {"lines":7,"accepted":6,"rejected":1,"duplicates":0}
      }

      """
    #expect(Self.render(try Self.sampleReport(), .json) == expected)
  }

  @Test func jsonEmptyReport() {
    let expected = """
      {
        "sections": [],
        "stats": {"lines":0,"accepted":0,"rejected":0,"duplicates":0}
      }

      """
    #expect(Self.render(Self.emptyReport, .json) == expected)
  }

  @Test func jsonLines() throws {
    let expected = """
      {"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR","instant":"2019-05-17T14:28:01"},{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR","instant":"2019-05-17T09:00:00"}]}
      {"state":"COMPLETED","date":"2019-05-16","creditDebitIndicator":"DBIT","count":3,"totals":[{"currency":"EUR","amount":"1234.50"},{"currency":"USD","amount":"5.00"}],"latest":"2019-05-16T18:00:00+02:00","transactions":[{"id":"3","description":"Rent","amount":"1234.50","currency":"EUR","instant":"2019-05-16T18:00:00+02:00"},{"id":"42","amount":"5.00","currency":"USD","instant":"2019-05-16T12:00:00Z"}]}
      {"state":"COMPLETED","date":"2019-05-15","creditDebitIndicator":"CRDT","count":1,"totals":[{"currency":"EUR","amount":"10.50"}],"latest":"2019-05-15","transactions":[{"id":"5","description":"Refund","amount":"10.50","currency":"EUR","instant":"2019-05-15"}]}

      """
    // Rows only: no stats line (the accounting goes to `--stats` and standard error).
    #expect(Self.render(try Self.sampleReport(), .jsonl) == expected)
    #expect(Self.render(Self.emptyReport, .jsonl) == "")
  }

  @Test func csvRows() throws {
    let expected = [
      "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest",
      "PENDING,2019-05-17,CRDT,2,EUR,2,3839.90,2019-05-17T14:28:01",
      "COMPLETED,2019-05-16,DBIT,3,EUR,2,1234.50,2019-05-16T18:00:00+02:00",
      "COMPLETED,2019-05-16,DBIT,3,USD,1,5.00,2019-05-16T18:00:00+02:00",
      "COMPLETED,2019-05-15,CRDT,1,EUR,1,10.50,2019-05-15",
      "",
    ].joined(separator: "\r\n")
    #expect(Self.render(try Self.sampleReport(), .csv) == expected)
    #expect(
      Self.render(Self.emptyReport, .csv)
        == "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest\r\n")
  }

  /// A report as an app may build one: a section with no groups between
  /// two others, a group with no totals, a total whose count is not known,
  /// and names a format must escape, quote or neutralise.
  static func unusualReport() throws -> GroupReport {
    let noTotals = TransactionGroup(
      state: "PENDING", date: CalendarDay(year: 2019, month: 5, day: 17), creditDebitIndicator: .credit,
      count: 0, totals: [], latest: try stamp("2019-05-17"), transactions: [])
    let unknownCount = TransactionGroup(
      state: "X\"Y", date: CalendarDay(year: 2019, month: 5, day: 16), creditDebitIndicator: .debit, count: 2,
      totals: [CurrencyTotal(currency: "=EU", amount: decimal(-150, 2))], latest: try stamp("2019-05-16T10:00:00Z"),
      transactions: [
        GroupMember(
          id: "a\tb", description: "é", amount: decimal(-150, 2), currency: "=EU",
          instant: try stamp("2019-05-16T10:00:00Z"))
      ])
    return GroupReport(
      sections: [
        ReportSection(state: "PENDING", groups: [noTotals]), ReportSection(state: "COMPLETED", groups: []),
        ReportSection(state: "X\"Y", groups: [unknownCount]),
      ],
      stats: RunStats())
  }

  static let unusualPending =
    #"{"date":"2019-05-17","creditDebitIndicator":"CRDT","count":0,"totals":[],"latest":"2019-05-17","transactions":[]}"#
  static let unusualOther =
    #"{"date":"2019-05-16","creditDebitIndicator":"DBIT","count":2,"totals":[{"currency":"=EU","amount":"-1.50"}],"#
    + #""latest":"2019-05-16T10:00:00Z","transactions":[{"id":"a\tb","description":"é","amount":"-1.50","#
    + #""currency":"=EU","instant":"2019-05-16T10:00:00Z"}]}"#

  @Test func sectionsWithoutGroupsAndGroupsWithoutTotals() throws {
    let report = try Self.unusualReport()
    let json = """
      {
        "sections": [
          {
            "state": "PENDING",
            "groups": [
              \(Self.unusualPending)
            ]
          },
          {
            "state": "COMPLETED",
            "groups": [
            ]
          },
          {
            "state": "X\\"Y",
            "groups": [
              \(Self.unusualOther)
            ]
          }
        ],
        "stats": {"lines":0,"accepted":0,"rejected":0,"duplicates":0}
      }

      """
    #expect(Self.render(report, .json) == json)
    let pendingLine = "{\"state\":\"PENDING\"," + Self.unusualPending.dropFirst()
    let otherLine = #"{"state":"X\"Y","# + Self.unusualOther.dropFirst()
    #expect(Self.render(report, .jsonl) == pendingLine + "\n" + otherLine + "\n")
    let csv = [
      "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest",
      "PENDING,2019-05-17,CRDT,0,,,,2019-05-17",
      #""X""Y",2019-05-16,DBIT,2,'=EU,,-1.50,2019-05-16T10:00:00Z"#,
      "",
    ].joined(separator: "\r\n")
    #expect(Self.render(report, .csv) == csv)
  }

  @Test func perAccountObjectsAndRows() throws {
    let report = try Self.unusualReport()
    let account = AccountReport(account: "A\"1", count: 2, sections: report.sections)
    func written(_ format: ReportFormat) throws -> String {
      var writer = try #require(AccountReportWriter(format: format))
      var out: [UInt8] = []
      let flush = { (chunk: inout [UInt8]) -> Void in
        out += chunk
        chunk.removeAll()
      }
      writer.begin(flush: flush)
      writer.write(account, flush: flush)
      writer.finish(stats: RunStats(), flush: flush)
      return String(decoding: out, as: UTF8.self)
    }
    let object =
      #"{"account":"A\"1","count":2,"sections":[{"state":"PENDING","groups":["# + Self.unusualPending
      + #"]},{"state":"COMPLETED","groups":[]},{"state":"X\"Y","groups":["# + Self.unusualOther + "]}]}"
    #expect(try written(.jsonl) == object + "\n")
    let stats = #"{"lines":0,"accepted":0,"rejected":0,"duplicates":0,"accounts":1}"#
    #expect(try written(.json) == "{\n  \"accounts\": [\n    " + object + "\n  ],\n  \"stats\": " + stats + "\n}\n")
    let csv = [
      "account,state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest",
      #""A""1",PENDING,2019-05-17,CRDT,0,,,,2019-05-17"#,
      #""A""1","X""Y",2019-05-16,DBIT,2,'=EU,,-1.50,2019-05-16T10:00:00Z"#,
      "",
    ].joined(separator: "\r\n")
    #expect(try written(.csv) == csv)
  }

  @Test func namesAndMembersLongerThanTheScratchMemory() throws {
    let state = String(repeating: "S", count: 2_000)
    let currency = String(repeating: "C", count: 1_500)
    let id = String(repeating: "i", count: 900)
    let description = String(repeating: "d", count: 1_200)
    let group = TransactionGroup(
      state: state, date: CalendarDay(year: 2019, month: 5, day: 17), creditDebitIndicator: .credit, count: 1,
      totals: [CurrencyTotal(currency: currency, amount: Self.decimal(150, 2), count: 1)],
      latest: try Self.stamp("2019-05-17"),
      transactions: [
        GroupMember(
          id: id, description: description, amount: Self.decimal(150, 2), currency: currency,
          instant: try Self.stamp("2019-05-17"))
      ])
    let report = GroupReport(sections: [ReportSection(state: state, groups: [group])], stats: RunStats())
    let line =
      "{\"state\":\"\(state)\",\"date\":\"2019-05-17\",\"creditDebitIndicator\":\"CRDT\",\"count\":1,"
      + "\"totals\":[{\"currency\":\"\(currency)\",\"amount\":\"1.50\"}],\"latest\":\"2019-05-17\","
      + "\"transactions\":[{\"id\":\"\(id)\",\"description\":\"\(description)\",\"amount\":\"1.50\","
      + "\"currency\":\"\(currency)\",\"instant\":\"2019-05-17\"}]}\n"
    #expect(Self.render(report, .jsonl) == line)
  }

  // MARK: CSV quoting and formula neutralisation

  struct CellCase: Sendable, CustomTestStringConvertible {
    var input: String
    var expected: String
    var testDescription: String { "\(input.debugDescription) → \(expected.debugDescription)" }
  }

  @Test(arguments: [
    CellCase(input: "PENDING", expected: "PENDING"),
    CellCase(input: "", expected: ""),
    CellCase(input: "a,b", expected: "\"a,b\""),
    CellCase(input: "say \"hi\"", expected: "\"say \"\"hi\"\"\""),
    CellCase(input: "two\nlines", expected: "\"two\nlines\""),
    CellCase(input: "=1+2", expected: "'=1+2"),
    CellCase(input: "+31 20", expected: "'+31 20"),
    CellCase(input: "-5", expected: "'-5"),
    CellCase(input: "@SUM(A1:A9)", expected: "'@SUM(A1:A9)"),
    CellCase(input: "\tTAB", expected: "'\tTAB"),
    CellCase(input: "\rCR", expected: "\"'\rCR\""),
    CellCase(input: "a=b", expected: "a=b"),
    CellCase(input: "Zoë", expected: "Zoë"),
    CellCase(input: "a\u{0}b", expected: "a\u{FFFD}b"),
    CellCase(input: "\u{1B}[2J", expected: "\u{FFFD}[2J"),
    CellCase(input: "DEL\u{7F}", expected: "DEL\u{FFFD}"),
    CellCase(input: "\u{0},\"", expected: "\"\u{FFFD},\"\"\""),
    CellCase(input: "=\u{1}", expected: "'=\u{FFFD}"),
    CellCase(input: "in\tside", expected: "in\tside"),
  ])
  func csvTextCell(_ test: CellCase) {
    var out: [UInt8] = []
    CSVReportWriter.appendTextCell(test.input, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == test.expected)
  }

  @Test func csvNeutralisesHostileStateButNotNegativeAmounts() throws {
    let group = TransactionGroup(
      state: "=HYPERLINK(\"http://evil.example\",\"click\")", date: CalendarDay(year: 2022, month: 7, day: 10),
      creditDebitIndicator: .debit, count: 1,
      totals: [
        CurrencyTotal(currency: "EUR", amount: Self.decimal(-1200, 2)),
        CurrencyTotal(currency: "X,Y", amount: Self.decimal(7, 0)),
      ],
      latest: try Self.stamp("2022-07-10T10:59:05+0200"), transactions: [])
    let report = GroupReport(sections: [ReportSection(state: group.state, groups: [group])], stats: RunStats())
    let expected = [
      "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest",
      "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\",2022-07-10,DBIT,1,EUR,,-12.00,2022-07-10T10:59:05+0200",
      "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\",2022-07-10,DBIT,1,\"X,Y\",,7,2022-07-10T10:59:05+0200",
      "",
    ].joined(separator: "\r\n")
    #expect(Self.render(report, .csv) == expected)
  }

  // MARK: JSON escaping

  struct EscapeCase: Sendable, CustomTestStringConvertible {
    var input: String
    var expected: String
    var testDescription: String { input.debugDescription }
  }

  @Test(arguments: [
    EscapeCase(input: "plain", expected: #""plain""#),
    EscapeCase(input: "", expected: #""""#),
    EscapeCase(input: "say \"hi\"", expected: #""say \"hi\"""#),
    EscapeCase(input: "C:\\path", expected: #""C:\\path""#),
    EscapeCase(input: "a\nb\rc\td", expected: #""a\nb\rc\td""#),
    EscapeCase(input: "\u{8}\u{C}", expected: #""\b\f""#),
    EscapeCase(input: "\u{0}\u{1}\u{1B}\u{1F}", expected: #""\u0000\u0001\u001b\u001f""#),
    EscapeCase(input: "Café Zoë 😀 / \u{7F}", expected: "\"Café Zoë 😀 / \u{7F}\""),
  ])
  func jsonEscaping(_ test: EscapeCase) {
    var out: [UInt8] = []
    JSONEscaping.appendString(test.input, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == test.expected)
    var fromBytes: [UInt8] = []
    JSONEscaping.appendString(bytes: Array(test.input.utf8), to: &fromBytes)
    #expect(fromBytes == out)
  }

  @Test func jsonEscapesReportStrings() throws {
    let group = TransactionGroup(
      state: "PENDING", date: CalendarDay(year: 2019, month: 5, day: 17), creditDebitIndicator: .credit,
      count: 1, totals: [CurrencyTotal(currency: "EUR", amount: Self.decimal(1, 0))],
      latest: try Self.stamp("2019-05-17"),
      transactions: [
        GroupMember(
          id: "a\"b", description: "Café \\ \"Zoë\"\n", amount: Self.decimal(1, 0), currency: "EUR",
          instant: try Self.stamp("2019-05-17"))
      ])
    let report = GroupReport(sections: [ReportSection(state: "PENDING", groups: [group])], stats: RunStats())
    let line = Self.render(report, .jsonl).split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      line.contains(
        #"{"id":"a\"b","description":"Café \\ \"Zoë\"\n","amount":"1","currency":"EUR","instant":"2019-05-17"}"#))
  }

  // MARK: Locales

  struct NumberCase: Sendable, CustomTestStringConvertible {
    var locale: String
    var units: WideInt
    var scale: UInt8
    var expected: String
    var testDescription: String { "\(locale) \(units)e-\(scale) → \(expected.debugDescription)" }
  }

  @Test(arguments: [
    NumberCase(locale: "en", units: 191_995, scale: 2, expected: "1,919.95"),
    NumberCase(locale: "en", units: 1_991_995, scale: 2, expected: "19,919.95"),
    NumberCase(locale: "en", units: 123_456_789, scale: 2, expected: "1,234,567.89"),
    NumberCase(locale: "en", units: 99_995, scale: 2, expected: "999.95"),
    NumberCase(locale: "en", units: -191_995, scale: 2, expected: "-1,919.95"),
    NumberCase(locale: "en", units: 10, scale: 2, expected: "0.10"),
    NumberCase(locale: "en", units: 177, scale: 0, expected: "177"),
    NumberCase(locale: "fr", units: 191_995, scale: 2, expected: "1\u{202F}919,95"),
    NumberCase(locale: "fr", units: 123_456_789, scale: 2, expected: "1\u{202F}234\u{202F}567,89"),
    NumberCase(locale: "fr", units: 99_995, scale: 2, expected: "999,95"),
    NumberCase(locale: "de", units: 191_995, scale: 2, expected: "1.919,95"),
    NumberCase(locale: "de", units: 123_456_789, scale: 2, expected: "1.234.567,89"),
    NumberCase(locale: "nl", units: 191_995, scale: 2, expected: "1.919,95"),
    NumberCase(locale: "nl", units: -1_991_995, scale: 2, expected: "-19.919,95"),
    NumberCase(locale: "es", units: 191_995, scale: 2, expected: "1919,95"),
    NumberCase(locale: "es", units: 1_991_995, scale: 2, expected: "19.919,95"),
    NumberCase(locale: "es", units: 123_456_789, scale: 2, expected: "1.234.567,89"),
    NumberCase(locale: "es", units: 99_995, scale: 2, expected: "999,95"),
  ])
  func numberFormat(_ test: NumberCase) throws {
    let locale = try #require(ReportLocale(identifier: test.locale))
    #expect(locale.formatNumber(ExactDecimal(wide: test.units, scale: test.scale)) == test.expected)
  }

  @Test func frenchGroupsWithNarrowNoBreakSpace() {
    let text = ReportLocale.french.formatNumber(ExactDecimal(wide: 191_995, scale: 2))
    #expect(Array(text.utf8) == [0x31, 0xE2, 0x80, 0xAF, 0x39, 0x31, 0x39, 0x2C, 0x39, 0x35])
  }

  struct DateCase: Sendable, CustomTestStringConvertible {
    var locale: String
    var year: Int
    var month: Int
    var day: Int
    var expected: String
    var testDescription: String { "\(locale) \(year)-\(month)-\(day) → \(expected)" }
  }

  @Test(arguments: [
    DateCase(locale: "en", year: 2019, month: 5, day: 17, expected: "May 17, 2019"),
    DateCase(locale: "fr", year: 2019, month: 5, day: 17, expected: "17 mai 2019"),
    DateCase(locale: "de", year: 2019, month: 5, day: 17, expected: "17. Mai 2019"),
    DateCase(locale: "nl", year: 2019, month: 5, day: 17, expected: "17 mei 2019"),
    DateCase(locale: "es", year: 2019, month: 5, day: 17, expected: "17 de mayo de 2019"),
    DateCase(locale: "en", year: 2020, month: 2, day: 1, expected: "February 1, 2020"),
    DateCase(locale: "fr", year: 2021, month: 8, day: 1, expected: "1 août 2021"),
    DateCase(locale: "de", year: 2022, month: 3, day: 9, expected: "9. März 2022"),
    DateCase(locale: "nl", year: 2023, month: 10, day: 31, expected: "31 oktober 2023"),
    DateCase(locale: "es", year: 2024, month: 12, day: 25, expected: "25 de diciembre de 2024"),
  ])
  func longDate(_ test: DateCase) throws {
    let locale = try #require(ReportLocale(identifier: test.locale))
    #expect(locale.formatLongDate(CalendarDay(year: test.year, month: test.month, day: test.day)) == test.expected)
  }

  @Test(arguments: [
    ("en", "en"), ("EN", "en"), ("en_US", "en"), ("en-GB", "en"), ("C", "en"), ("POSIX", "en"),
    ("fr", "fr"), ("fr_FR", "fr"), ("fr-FR", "fr"), ("fr_CA.UTF-8", "fr"),
    ("de_DE.UTF-8", "de"), ("de_CH@euro", "de"), ("nl_BE", "nl"), ("es-419", "es"),
  ])
  func localeIdentifier(identifier: String, language: String) {
    #expect(ReportLocale(identifier: identifier)?.identifier == language)
  }

  @Test(arguments: ["", "xx", "pt_BR", "english", "_fr"])
  func unknownLocaleIdentifier(_ identifier: String) {
    #expect(ReportLocale(identifier: identifier) == nil)
  }

  @Test func everySupportedIdentifierResolves() {
    for identifier in ReportLocale.supportedIdentifiers {
      #expect(ReportLocale(identifier: identifier)?.identifier == identifier)
    }
  }

  // MARK: Text

  @Test func englishText() throws {
    let expected = """
      PENDING — 1 group

        May 17, 2019 · Credit · 2 transactions
          Total €3,839.90
            €1,919.95  Salary
            €1,919.95  Internet Banking

      COMPLETED — 2 groups

        May 16, 2019 · Debit · 3 transactions
          Total -€1,234.50 · -$5.00
            -€1,234.50  Rent
                -$5.00  42
            … and 1 more

        May 15, 2019 · Credit · 1 transaction
          Total €10.50
            €10.50  Refund

      Lines 7 · accepted 6 · rejected 1 · duplicates 0

      """
    #expect(Self.render(try Self.sampleReport(), .text) == expected)
  }

  struct TextWordsCase: Sendable, CustomTestStringConvertible {
    var locale: String
    var fragments: [String]
    var testDescription: String { locale }
  }

  @Test(arguments: [
    TextWordsCase(
      locale: "en",
      fragments: ["PENDING — 1 group", "COMPLETED — 2 groups", "Credit", "Debit", "… and 1 more", "Lines 7"]),
    TextWordsCase(
      locale: "fr",
      fragments: [
        "EN ATTENTE — 1 groupe", "EFFECTUÉES — 2 groupes", "17 mai 2019 · Crédit · 2 opérations",
        "Total 3\u{202F}839,90\u{A0}€", "-1\u{202F}234,50\u{A0}€", "-5,00\u{A0}US$", "… et 1 de plus",
        "Lignes 7 · acceptées 6",
      ]),
    TextWordsCase(
      locale: "de",
      fragments: [
        "AUSSTEHEND — 1 Gruppe", "ABGESCHLOSSEN — 2 Gruppen", "17. Mai 2019 · Gutschrift · 2 Buchungen",
        "Summe 3.839,90\u{A0}€", "Belastung", "… und 1 weitere", "Zeilen 7",
      ]),
    TextWordsCase(
      locale: "nl",
      fragments: [
        "IN BEHANDELING — 1 groep", "VOLTOOID — 2 groepen", "17 mei 2019 · Bijschrijving · 2 transacties",
        "Totaal €\u{A0}3.839,90", "€\u{A0}-1.234,50", "US$\u{A0}-5,00", "Afschrijving", "… en nog 1", "Regels 7",
      ]),
    TextWordsCase(
      locale: "es",
      fragments: [
        "PENDIENTES — 1 grupo", "COMPLETADAS — 2 grupos", "17 de mayo de 2019 · Abono · 2 movimientos",
        "Total 3839,90\u{A0}€", "-1234,50\u{A0}€", "Cargo", "… y 1 más", "Líneas 7",
      ]),
  ])
  func localizedText(_ test: TextWordsCase) throws {
    let locale = try #require(ReportLocale(identifier: test.locale))
    let text = Self.render(try Self.sampleReport(), .text, TextReportOptions(locale: locale))
    for fragment in test.fragments {
      #expect(text.contains(fragment), "missing \(fragment.debugDescription)")
    }
  }

  @Test func textCutsLongDescriptionsToTheWidth() throws {
    var report = try Self.sampleReport()
    report.sections[0].groups[0].transactions[0].description = String(repeating: "Salary ", count: 20)
    let cut = Self.render(report, .text, TextReportOptions(width: 40))
    let line = try #require(cut.split(separator: "\n").first { $0.contains("Salary") })
    #expect(line.count == 40)
    #expect(line.hasSuffix("…"))
    #expect(cut.contains("      €1,919.95  Internet Banking\n"))
    let uncut = Self.render(report, .text, TextReportOptions(width: nil))
    #expect(uncut.contains(String(repeating: "Salary ", count: 20) + "\n"))
  }

  @Test("Text: a width too large to mean anything cuts nothing, a negative one cuts as 0 does")
  func textHugeWidths() throws {
    var report = try Self.sampleReport()
    report.sections[0].groups[0].transactions[0].description = String(repeating: "Salary ", count: 20)
    for width in [Int.max, 1_000_000_000_000] {
      #expect(Self.render(report, .text, TextReportOptions(width: width)) == Self.render(report, .text))
    }
    for width in [Int.min, -1] {
      #expect(
        Self.render(report, .text, TextReportOptions(width: width))
          == Self.render(report, .text, TextReportOptions(width: 0)))
    }
  }

  @Test func textOtherStateAsWritten() throws {
    var report = try Self.sampleReport()
    report.sections[1].state = "REFUNDED"
    let text = Self.render(report, .text, TextReportOptions(locale: .german))
    #expect(text.contains("REFUNDED — 2 Gruppen"))
  }

  @Test func textWithoutColorHasNoEscapes() throws {
    var report = try Self.sampleReport()
    // Escapes and controls in input text must not reach the terminal either.
    report.sections[0].groups[0].transactions[0].description = "Salary\u{1B}[2J\u{9B}31m\nnext\u{202E}"
    let bytes = ReportRenderer.renderToBytes(report, format: .text, options: TextReportOptions(color: false))
    #expect(!bytes.contains(0x1B))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("Salary\u{FFFD}[2J\u{FFFD}31m next\u{FFFD}\n"))
  }

  @Test func textWithColor() throws {
    let text = Self.render(try Self.sampleReport(), .text, TextReportOptions(color: true))
    let green = "\u{1B}[32m"
    let red = "\u{1B}[31m"
    let bold = "\u{1B}[1m"
    let reset = "\u{1B}[0m"
    #expect(text.contains("\(bold)PENDING — 1 group\(reset)"))
    #expect(text.contains("\(green)Credit\(reset)"))
    #expect(text.contains("\(green)€1,919.95\(reset)  Salary"))
    #expect(text.contains("\(red)Debit\(reset)"))
    #expect(text.contains("Total \(red)-€1,234.50\(reset) · \(red)-$5.00\(reset)"))
    #expect(text.contains("    \(red)-$5.00\(reset)  42"))
    #expect(!text.contains("\(red)€1,919.95"))
    #expect(!text.contains("\(green)-"))
  }

  @Test func textEmptyReport() {
    var stats = RunStats()
    stats.lines = 2
    stats.rejected = 2
    let report = GroupReport(sections: [], stats: stats)
    #expect(Self.render(report, .text) == "No transactions.\n\nLines 2 · accepted 0 · rejected 2 · duplicates 0\n")
    let french = Self.render(report, .text, TextReportOptions(locale: .french))
    #expect(french == "Aucune opération.\n\nLignes 2 · acceptées 0 · rejetées 2 · doublons 0\n")
  }

  @Test func textSignOfUnusualTotals() {
    let locale = ReportLocale.english
    let writer = TextReportWriter(options: TextReportOptions(locale: locale))
    func money(_ significand: WideInt, debit: Bool) -> String {
      String(
        decoding: writer.money(ExactDecimal(wide: significand, scale: 2), currency: "EUR", debit: debit), as: UTF8.self)
    }
    #expect(money(0, debit: true) == "€0.00")
    #expect(money(-500, debit: true) == "€5.00")
    #expect(money(-500, debit: false) == "-€5.00")
    // The most negative 128-bit value prints without trapping (no negation).
    #expect(money(WideInt.min, debit: true) == "€1,701,411,834,604,692,317,316,873,037,158,841,057.28")
  }

  // MARK: Streaming

  /// A report large enough to pass the flush threshold several times.
  static func largeReport(groups: Int) throws -> GroupReport {
    let latest = try stamp("2020-01-01T00:00:00Z")
    var list: [TransactionGroup] = []
    for index in 0..<groups {
      let member = GroupMember(
        id: String(index), description: "Member \(index) “quoted”, with comma",
        amount: ExactDecimal(wide: WideInt(index) * 101, scale: 2), currency: "EUR", instant: latest)
      list.append(
        TransactionGroup(
          state: "COMPLETED", date: CalendarDay(daysSinceEpoch: Int32(18_000 - index % 1000)),
          creditDebitIndicator: index % 2 == 0 ? .credit : .debit, count: 3,
          totals: [CurrencyTotal(currency: "EUR", amount: member.amount)], latest: latest,
          transactions: [member, member]))
    }
    return GroupReport(sections: [ReportSection(state: "COMPLETED", groups: list)], stats: RunStats())
  }

  @Test(arguments: ReportFormat.allCases)
  func streamsInPiecesWithTheSameBytes(_ format: ReportFormat) throws {
    let report = try Self.largeReport(groups: 3000)
    var chunks: [Int] = []
    var joined: [UInt8] = []
    ReportRenderer.render(report, format: format) { (buffer: inout [UInt8]) in
      chunks.append(buffer.count)
      joined.append(contentsOf: buffer)
      buffer.removeAll(keepingCapacity: true)
    }
    #expect(chunks.count > 2)
    #expect(chunks.dropLast().allSatisfy { $0 >= ReportRenderer.flushThreshold })
    #expect(chunks.allSatisfy { $0 < ReportRenderer.flushThreshold + 4096 })
    #expect(joined == ReportRenderer.renderToBytes(report, format: format))
    #expect(joined.last == UInt8(ascii: "\n"))
  }

  struct SinkFull: Error {}

  @Test func flushErrorStopsRendering() throws {
    let report = try Self.largeReport(groups: 3000)
    var calls = 0
    #expect(throws: SinkFull.self) {
      try ReportRenderer.render(report, format: .jsonl) { (_: inout [UInt8]) throws(SinkFull) in
        calls += 1
        throw SinkFull()
      }
    }
    #expect(calls == 1)
  }

  @Test func formatNames() {
    #expect(ReportFormat.allCases.map(\.rawValue) == ["text", "json", "jsonl", "csv", "html"])
    #expect(ReportFormat(rawValue: "jsonl") == .jsonl)
  }
}
