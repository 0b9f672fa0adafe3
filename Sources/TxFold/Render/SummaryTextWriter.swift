/// Writes `txfold summary`'s `text` format: a table of keys with a horizontal
/// bar chart of their expense and income (the tech-challenge seed's insights
/// chart).
///
/// In English, 80 columns wide, with `color` off:
///
/// ```
/// By category
///
///   Category      Count     Income     Expense
///   Housing           1      €0.00  -€1,250.00              ████│
///   Groceries         2      €0.00    -€139.36                 ▐│
///                     1      £0.00     -£14.25  ████████████████│
///   Other Income      1  €5,200.00       €0.00                  │████████████████
///
///   Total             4  €5,200.00  -€1,389.36
///                     1      £0.00     -£14.25
///
///   ◀ Expense │ Income ▶
///   Bars scaled per currency, full bar: €5,200.00 · £14.25
///
/// Lines 5 · accepted 5 · rejected 0 · duplicates 0
/// ```
///
/// - One line per key and currency, in the summary's order (the key is
///   written on its first line only); the count is that key's transactions
///   in that currency.
/// - Keys: categories and counterparties as written (cut to 30 columns with
///   `…`), states by their translated titles, days as long dates, months as
///   `May 2019`; the missing key as `(none)` (translated).
/// - The columns are as wide as their widest cell, so the table is stable for
///   a given summary; amounts line up on the decimal separator. The bar
///   column takes the rest of the line, at least 10 columns. Bars are scaled
///   *per currency* (amounts in different currencies are not comparable) to
///   the largest expense or income in it; `BarChart` draws them: expense
///   left of an axis and income right of it when the summary has both.
/// - `Total` lines: every key together, per currency. A legend follows when
///   the chart diverges (which side is which) or has several currencies
///   (each one's full bar); then the accounting. A summary without keys
///   says `No transactions.` instead of the table.
/// - Colours, only when `color` is true: bold title and headings, green
///   income, red expense and bars.
struct SummaryTextWriter {
  let options: SummaryTextOptions
  let words: QueryWords
  /// The widest key shown, in columns.
  static let keyLimit = 30
  static let minimumBarWidth = 10

  init(options: SummaryTextOptions) {
    self.options = options
    words = options.locale.queryWords
  }

  /// One table line before padding.
  struct Line {
    var key: [UInt8]
    var count: [UInt8]
    var income: MoneyText
    var expense: MoneyText
    var incomeValue: ExactDecimal
    var expenseValue: ExactDecimal
    var currency: String
  }

  /// Writes `report`; without `stats`, the accounting line is left out (a
  /// per-account summary prints it once, at the end).
  func write<E: Error>(
    _ report: SummaryReport, stats: Bool = true, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  )
    throws(E)
  {
    let locale = options.locale
    styled(Array((words.titles[report.dimension] ?? "").utf8), TextStyle.bold, &out)
    out.append(contentsOf: "\n\n".utf8)
    if report.entries.isEmpty {
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "\n\n".utf8)
      if stats { TextReportWriter(options: TextReportOptions(locale: locale)).appendStats(report.stats, to: &out) }
      return
    }
    var lines: [Line] = []
    for entry in report.entries {
      let key = keyText(entry.key, dimension: report.dimension)
      for (index, cell) in entry.currencies.enumerated() {
        lines.append(line(index == 0 ? key : [], cell))
      }
    }
    let totals = report.totals.enumerated().map { index, cell in
      line(index == 0 ? Array(locale.totalWord.utf8) : [], cell)
    }
    let header = Line(
      key: Array((words.keyHeadings[report.dimension] ?? "").utf8), count: Array(words.count.utf8),
      income: MoneyText(head: Array(words.income.utf8)), expense: MoneyText(head: Array(words.expense.utf8)),
      incomeValue: .zero, expenseValue: .zero,
      currency: "")
    let all = [header] + lines + totals
    let keyWidth = all.map { width($0.key) }.max() ?? 0
    let countWidth = all.map { width($0.count) }.max() ?? 0
    // Amount columns line up on the decimal separator; a heading is right-aligned over its column.
    let incomeColumn = AmountColumn(heading: header.income, cells: (lines + totals).map(\.income))
    let expenseColumn = AmountColumn(heading: header.expense, cells: (lines + totals).map(\.expense))
    let incomeWidth = incomeColumn.width
    let expenseWidth = expenseColumn.width
    let prefix = 2 + keyWidth + 2 + countWidth + 2 + incomeWidth + 2 + expenseWidth + 2
    let barWidth = max(Self.minimumBarWidth, TextReportOptions.bounded(options.width) - prefix)
    // Each currency's bars share one scale: the largest expense or income in it.
    var scale: [String: ExactDecimal] = [:]
    var hasIncome = false
    var hasExpense = false
    for line in lines {
      hasIncome = hasIncome || !line.incomeValue.isZero
      hasExpense = hasExpense || !line.expenseValue.isZero
      for value in [line.incomeValue.drawnMagnitude, line.expenseValue.drawnMagnitude]
      where value.compare(scale[line.currency] ?? .zero) > 0 {
        scale[line.currency] = value
      }
    }
    let chart = BarChart(
      width: barWidth, diverging: hasIncome && hasExpense, color: options.color, theme: options.theme)

    func appendRow(_ line: Line, heading: Bool, bar: Bool) {
      out.append(contentsOf: "  ".utf8)
      styled(line.key, heading ? TextStyle.bold : [], &out)
      pad(keyWidth - width(line.key) + 2 + countWidth - width(line.count), &out)
      styled(line.count, heading ? TextStyle.bold : [], &out)
      let incomeStyle = line.incomeValue.isZero ? [] : options.theme.income
      pad(2 + incomeColumn.leading(line.income, heading: heading), &out)
      styled(line.income.bytes, heading ? TextStyle.bold : incomeStyle, &out)
      pad(incomeColumn.trailing(line.income, heading: heading), &out)
      let expenseStyle = line.expenseValue.isZero ? [] : options.theme.expense
      pad(2 + expenseColumn.leading(line.expense, heading: heading), &out)
      styled(line.expense.bytes, heading ? TextStyle.bold : expenseStyle, &out)
      if bar, let maximum = scale[line.currency] {
        let cells = chart.bar(
          expense: line.expenseValue.drawnMagnitude, income: line.incomeValue.drawnMagnitude, of: maximum)
        if !cells.isEmpty {
          pad(expenseColumn.trailing(line.expense, heading: heading) + 2, &out)
          out.append(contentsOf: cells)
        }
      }
      out.append(.newline)
    }

    appendRow(header, heading: true, bar: false)
    for line in lines {
      appendRow(line, heading: false, bar: true)
      try ReportRenderer.flushIfFull(&out, flush)
    }
    out.append(.newline)
    for line in totals { appendRow(line, heading: false, bar: false) }
    let scaled = scale.filter { !$0.value.isZero }
    if chart.diverging || scaled.count > 1 {
      out.append(.newline)
      appendLegend(diverging: chart.diverging, scales: scaled, to: &out)
    }
    out.append(.newline)
    if stats { TextReportWriter(options: TextReportOptions(locale: locale)).appendStats(report.stats, to: &out) }
  }

  /// `◀ Expense │ Income ▶` when the chart diverges, and
  /// `Bars scaled per currency, full bar: €1,250.00 · £14.25` when it has
  /// several currencies, each on its line.
  private func appendLegend(diverging: Bool, scales: [String: ExactDecimal], to out: inout [UInt8]) {
    out.append(contentsOf: "  ".utf8)
    if diverging {
      out.append(contentsOf: "◀ \(words.expense) │ \(words.income) ▶".utf8)
    }
    if scales.count > 1 {
      if diverging { out.append(contentsOf: "\n  ".utf8) }
      out.append(contentsOf: words.barsPerCurrency.utf8)
      out.append(.space)
      var line = WrappedItems(
        width: TextReportOptions.bounded(options.width),
        column: 3 + TerminalColumns.width(of: Array(words.barsPerCurrency.utf8)))
      let currencies = scales.keys.sorted { TransactionOrder.compareUTF8($0, $1) < 0 }
      for currency in currencies {
        let money = options.locale.moneyText(scales[currency] ?? .zero, currency: currency).bytes
        line.appendBreak(beforeItemOf: TerminalColumns.width(of: money), to: &out)
        out.append(contentsOf: money)
      }
    }
    out.append(.newline)
  }

  /// The cells of one key's line in one currency.
  private func line(_ key: [UInt8], _ cell: SummaryCurrencyTotals) -> Line {
    var count: [UInt8] = []
    options.locale.appendInteger(cell.count, to: &count)
    return Line(
      key: key, count: count, income: money(cell.income, cell.currency), expense: money(cell.expense, cell.currency),
      incomeValue: cell.income, expenseValue: cell.expense, currency: cell.currency)
  }

  private func money(_ amount: ExactDecimal, _ currency: String) -> MoneyText {
    options.locale.moneyText(amount, currency: currency)
  }

  /// A column of amounts lined up on the decimal separator under a
  /// right-aligned heading.
  private struct AmountColumn {
    let head: Int
    let tail: Int
    var width: Int { head + tail }

    init(heading: MoneyText, cells: [MoneyText]) {
      let widths = MoneyText.columnWidths(cells)
      // A heading wider than the amounts widens the part before the separator.
      head = max(widths.head, TerminalColumns.width(of: heading.bytes) - widths.tail)
      tail = widths.tail
    }

    /// The spaces before a cell: amounts by their head, a heading by its whole width.
    func leading(_ cell: MoneyText, heading: Bool) -> Int {
      heading ? max(0, width - TerminalColumns.width(of: cell.bytes)) : cell.leadingPadding(headWidth: head)
    }

    /// The spaces after a cell that fill the column.
    func trailing(_ cell: MoneyText, heading: Bool) -> Int {
      heading ? 0 : cell.trailingPadding(tailWidth: tail)
    }
  }

  /// How a key is shown (see the type's notes).
  private func keyText(_ key: SummaryKey, dimension: SummaryDimension) -> [UInt8] {
    var bytes: [UInt8] = []
    switch key {
    case .missing: bytes.append(contentsOf: words.noKey.utf8)
    case .day(let day): options.locale.appendLongDate(day, to: &bytes)
    case .month(let year, let month): options.locale.appendMonthYear(year: year, month: month, to: &bytes)
    case .week, .year: bytes.append(contentsOf: (key.text ?? "").utf8)
    case .text(let text):
      TextReportWriter.appendSanitized(
        dimension == .state ? options.locale.sectionTitle(forState: text) : text, to: &bytes)
    }
    return TerminalColumns.cut(bytes, to: Self.keyLimit)
  }

  /// The bar length of `value` against `maximum` over `width` columns, in
  /// eighths of a column, rounded; at least 1 for a non-zero value.
  static func eighths(_ value: ExactDecimal, of maximum: ExactDecimal, width: Int) -> Int {
    var numerator = value.drawnMagnitude.wide
    var denominator = maximum.drawnMagnitude.wide
    var numeratorScale = Int(value.scale)
    var denominatorScale = Int(maximum.scale)
    func tenth(_ number: WideInt) -> WideInt { number.quotientAndRemainder(dividingBy: 10).quotient }
    // Bring both to one scale, dropping digits rather than overflowing.
    while numeratorScale < denominatorScale {
      let (scaled, overflow) = numerator.multipliedReportingOverflow(by: 10)
      if overflow { denominator = tenth(denominator) } else { numerator = scaled }
      if overflow { denominatorScale -= 1 } else { numeratorScale += 1 }
    }
    while denominatorScale < numeratorScale {
      let (scaled, overflow) = denominator.multipliedReportingOverflow(by: 10)
      if overflow { numerator = tenth(numerator) } else { denominator = scaled }
      if overflow { numeratorScale -= 1 } else { denominatorScale += 1 }
    }
    // A width no line could have still must not overflow the count of eighths. The dividend
    // below is `numerator × units` plus half the denominator (at most half of 2^127): a product
    // within half of 2^127 leaves room for it.
    let units = Int64(min(max(0, width), Int.max / 8) * 8)
    let largestNumerator = units > 0 ? WideInt.max.quotientAndRemainder(dividingBy: units).quotient : 0
    while units > 0 && numerator > largestNumerator.quotientAndRemainder(dividingBy: 2).quotient {
      numerator = tenth(numerator)
      denominator = tenth(denominator)
    }
    guard !value.isZero else { return 0 }
    guard denominator > 0 else { return Int(units) }
    // Both sides are non-negative: divide the magnitudes.
    let dividend = numerator * WideInt(units) + denominator.quotientAndRemainder(dividingBy: 2).quotient
    let quotient = dividend.magnitude.quotient(dividingBy: denominator.magnitude)
    let length = quotient.high == 0 && quotient.low <= UInt64(units) ? Int64(quotient.low) : units
    return max(1, Int(length))
  }

  private func width(_ bytes: [UInt8]) -> Int { TerminalColumns.width(of: bytes) }

  private func pad(_ count: Int, _ out: inout [UInt8]) {
    out.append(contentsOf: repeatElement(UInt8.space, count: max(0, count)))
  }

  /// Appends `bytes`, in `escape`'s style when colours are on and it has one.
  private func styled(_ bytes: [UInt8], _ escape: [UInt8], _ out: inout [UInt8]) {
    let on = options.color && !escape.isEmpty
    if on { out.append(contentsOf: escape) }
    out.append(contentsOf: bytes)
    if on { out.append(contentsOf: TextStyle.reset) }
  }
}
