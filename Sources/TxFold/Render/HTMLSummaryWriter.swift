/// Writes `txfold summary`'s `html` format: one self-contained page (the
/// shell, style and accessibility rules are `HTMLPage`'s).
///
/// The page, in order:
///
/// - the summary's title (`By category`, translated), naming the input and
///   the period: the first and last day of the transactions summed (after
///   the filter and `--dedupe`; none for an empty summary);
/// - a legend (income solid with `+`, expense hatched with `-`) and how the
///   bars are scaled;
/// - one block per currency (by currency code; headed by the code when
///   there is more than one), so that bars are only ever compared within one
///   currency ($23.99 never looks longer than €1,250): a table in the
///   summary's order, one row per key that has amounts in that currency —
///   the key, the count, the income, the expense, and an SVG with two bars,
///   income (solid) and expense (hatched), both relative to the largest
///   income or expense of the block. The bars are decoration: the row's
///   numbers are their text; then the currency's `Total` row;
/// - the run's accounting.
///
/// Keys as in `text` (translated states, long dates, `May 2019`, `(none)`),
/// but never cut: the page wraps them. Every string from the input is
/// escaped; the rows are flushed as the buffer fills.
struct HTMLSummaryWriter {
  let locale: ReportLocale
  /// The input's name for the page's title and heading.
  var source: String? = nil
  /// The first and last day of the transactions summed, the period the page's title and heading name.
  var days: DaySpan? = nil
  /// The bars' full length, in hundredths of a percent of the cell.
  private static let barUnits = 10_000
  /// The shortest bar drawn for a non-zero amount, so a small amount stays visible.
  private static let shortestBar = HTMLDailyChart.shortestBar

  func write<E: Error>(
    _ report: SummaryReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let words = locale.queryWords
    HTMLPage.begin(
      title: words.titles[report.dimension] ?? "", subtitle: nil,
      heading: HTMLPage.Heading(source: source, period: days?.period),
      locale: locale, to: &out)
    try appendSection(report, to: &out, flush: flush)
    HTMLPage.appendAccounting(report.stats, locale: locale, to: &out)
    HTMLPage.end(to: &out)
  }

  /// The page's summary section: its heading (the dimension's key word) and
  /// `appendSummary`'s tables; also the body of an account's page of `--output-dir`.
  func appendSection<E: Error>(
    _ report: SummaryReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    out.append(contentsOf: "<section class=\"summary\" aria-labelledby=\"summary-h\">\n<h2 id=\"summary-h\">".utf8)
    out.append(contentsOf: (locale.queryWords.keyHeadings[report.dimension] ?? "").utf8)
    out.append(contentsOf: "</h2>\n".utf8)
    try appendSummary(report, to: &out, flush: flush)
    out.append(contentsOf: "</section>\n".utf8)
  }

  /// The summary without the page or its heading: "no transactions", or the
  /// legend, the note on scaling and a table per currency (a per-account page has one summary per account).
  func appendSummary<E: Error>(
    _ report: SummaryReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let htmlWords = locale.htmlWords
    if report.entries.isEmpty {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "</p>\n".utf8)
      return
    }
    HTMLDailyChart().appendLegend(locale: locale, to: &out)
    out.append(contentsOf: "<p class=\"note\">".utf8)
    out.append(contentsOf: htmlWords.scaledPerCurrency.utf8)
    out.append(contentsOf: "</p>\n".utf8)

    // One block per currency, in the order of the totals (by currency code): bars are
    // compared only with the bars of their own table, never across currencies.
    var currencies = report.totals.map(\.currency)
    for entry in report.entries {
      for cell in entry.currencies where !currencies.contains(cell.currency) { currencies.append(cell.currency) }
    }
    for (block, currency) in currencies.enumerated() {
      // The longest bar of the block: the currency's largest income or expense.
      var largest = ExactDecimal.zero
      for entry in report.entries {
        for cell in entry.currencies where cell.currency == currency {
          if cell.income.compare(largest) > 0 { largest = cell.income }
          if cell.expense.drawnMagnitude.compare(largest) > 0 { largest = cell.expense.drawnMagnitude }
        }
      }
      try appendBlock(
        report, currency: currency, block: block, largest: largest, headed: currencies.count > 1, to: &out,
        flush: flush)
    }
  }

  /// One currency's table: a row per key that has amounts in it, its bars
  /// scaled to `largest`, and the currency's total. `headed`: with a heading
  /// naming the currency (when the summary has more than one).
  private func appendBlock<E: Error>(
    _ report: SummaryReport, currency: String, block: Int, largest: ExactDecimal, headed: Bool,
    to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let words = locale.queryWords
    out.append(contentsOf: "<div class=\"currency\">\n".utf8)
    if headed {
      out.append(contentsOf: "<h3 class=\"cur\">".utf8)
      HTMLPage.appendEscaped(currency, to: &out)
      out.append(contentsOf: "</h3>\n".utf8)
    }
    out.append(contentsOf: "<table class=\"rows summary\">\n<thead><tr><th scope=\"col\">".utf8)
    out.append(contentsOf: (words.keyHeadings[report.dimension] ?? "").utf8)
    for heading in [words.count, words.income, words.expense] {
      out.append(contentsOf: "</th><th scope=\"col\" class=\"num\">".utf8)
      out.append(contentsOf: heading.utf8)
    }
    out.append(contentsOf: "</th><th scope=\"col\"><span class=\"vh\">".utf8)
    out.append(contentsOf: words.income.utf8)
    out.append(contentsOf: " / ".utf8)
    out.append(contentsOf: words.expense.utf8)
    out.append(contentsOf: "</span></th></tr></thead>\n<tbody>\n".utf8)
    for entry in report.entries {
      for cell in entry.currencies where cell.currency == currency {
        out.append(contentsOf: "<tr><th scope=\"row\" class=\"wide\">".utf8)
        appendKey(entry.key, dimension: report.dimension, to: &out)
        out.append(contentsOf: "</th>".utf8)
        appendCells(cell, words: words, to: &out)
        out.append(contentsOf: "<td class=\"bar wide\">".utf8)
        appendBars(cell, largest: largest, to: &out)
        out.append(contentsOf: "</td></tr>\n".utf8)
        try ReportRenderer.flushIfFull(&out, flush)
      }
    }
    out.append(contentsOf: "</tbody>\n<tfoot>\n".utf8)
    for cell in report.totals where cell.currency == currency {
      out.append(contentsOf: "<tr><th scope=\"row\" class=\"wide\">".utf8)
      out.append(contentsOf: locale.totalWord.utf8)
      out.append(contentsOf: "</th>".utf8)
      appendCells(cell, words: words, to: &out)
      out.append(contentsOf: "<td class=\"bar wide\"></td></tr>\n".utf8)
    }
    out.append(contentsOf: "</tfoot>\n</table>\n</div>\n".utf8)
  }

  /// The count, income and expense cells; each says what it is on a phone, where the headings are hidden.
  private func appendCells(_ cell: SummaryCurrencyTotals, words: QueryWords, to out: inout [UInt8]) {
    HTMLPage.openCell(class: "num", label: words.count, to: &out)
    locale.appendInteger(cell.count, to: &out)
    out.append(contentsOf: "</td>".utf8)
    for (label, amount) in [(words.income, cell.income), (words.expense, cell.expense)] {
      HTMLPage.openCell(class: "num", label: label, to: &out)
      HTMLPage.appendMoney(
        amount, currency: cell.currency, direction: HTMLPage.Direction(signed: amount), locale: locale, to: &out)
      out.append(contentsOf: "</td>".utf8)
    }
  }

  /// The income bar over the expense bar, scaled to `largest`.
  private func appendBars(_ cell: SummaryCurrencyTotals, largest: ExactDecimal, to out: inout [UInt8]) {
    let income = cell.income.isNegative ? 0 : HTMLDailyChart.scaled(cell.income, of: largest, units: Self.barUnits)
    let expense = HTMLDailyChart.scaled(cell.expense.drawnMagnitude, of: largest, units: Self.barUnits)
    out.append(contentsOf: "<svg aria-hidden=\"true\" focusable=\"false\">".utf8)
    if income > 0 {
      out.append(contentsOf: "<rect class=\"in\" x=\"0\" y=\"8%\" width=\"".utf8)
      out.append(contentsOf: HTMLDailyChart.percent(max(Self.shortestBar, income)).utf8)
      out.append(contentsOf: "\" height=\"40%\"/>".utf8)
    }
    if expense > 0 {
      out.append(contentsOf: "<rect class=\"out\" x=\"0\" y=\"52%\" width=\"".utf8)
      out.append(contentsOf: HTMLDailyChart.percent(max(Self.shortestBar, expense)).utf8)
      out.append(contentsOf: "\" height=\"40%\"/>".utf8)
    }
    out.append(contentsOf: "</svg>".utf8)
  }

  /// How a key is shown: translated states, long dates, months, `(none)`.
  private func appendKey(_ key: SummaryKey, dimension: SummaryDimension, to out: inout [UInt8]) {
    switch key {
    case .missing: out.append(contentsOf: locale.queryWords.noKey.utf8)
    case .day(let day): HTMLPage.appendTime(day, locale: locale, to: &out)
    case .month(let year, let month): locale.appendMonthYear(year: year, month: month, to: &out)
    case .week, .year: out.append(contentsOf: (key.text ?? "").utf8)
    case .text(let text):
      HTMLPage.appendEscaped(dimension == .state ? locale.sectionTitle(forState: text) : text, to: &out)
    }
  }
}
