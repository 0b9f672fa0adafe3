/// The fixed words of the `list` and `summary` text reports, per language.
///
/// Kept apart from the group report's words so the two can grow
/// independently; each language's set is in ReportLocale+Languages.swift
/// (`ReportLocale.queryWords`).
struct QueryWords: Sendable, Hashable {
  /// The heading of the block that shows the newest transaction.
  let latest: String
  /// The sum line's label.
  let sum: String
  /// Before a row's total including its fee.
  let totalWithFee: String
  /// The label of the sum line including fees.
  let totalWithFees: String
  /// `Shown 6–8 of 8`.
  let shown: String
  let of: String
  /// Summary column headings.
  let count: String
  let income: String
  let expense: String
  /// The summary's title per dimension, and its key column's heading.
  let titles: [SummaryDimension: String]
  let keyHeadings: [SummaryDimension: String]
  /// How the text summary shows a missing key.
  let noKey: String
  /// How a list row marks a `PENDING` transaction.
  let pending: String
  /// `May 2019`: true puts `de` between month and year (Spanish).
  let monthDeYear: Bool
  /// The summary chart's legend before each currency's full bar.
  let barsPerCurrency: String

}

extension ReportLocale {
  /// A list's footer count, `Shown 11–20 of 57` (`Shown 0 of 57` past the
  /// last page), one wording for the text and the html list.
  func appendShownCount(_ shown: Int, of context: ListContext, to out: inout [UInt8]) {
    let words = queryWords
    out.append(contentsOf: words.shown.utf8)
    out.append(.space)
    if shown > 0 {
      appendInteger(context.page.offset + 1, to: &out)
      out.append(contentsOf: "–".utf8)
      appendInteger(context.page.offset + shown, to: &out)
    } else {
      appendInteger(0, to: &out)
    }
    out.append(.space)
    out.append(contentsOf: words.of.utf8)
    out.append(.space)
    appendInteger(context.matched, to: &out)
  }

  /// Appends a month of a year: `May 2019`, `mai 2019`, `mayo de 2019`.
  func appendMonthYear(year: Int, month: Int, to out: inout [UInt8]) {
    let name = monthNames.indices.contains(month - 1) ? monthNames[month - 1] : String(month)
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: (queryWords.monthDeYear ? " de " : " ").utf8)
    out.append(contentsOf: String(year).utf8)
  }

  /// The widest long date of this language (day 28 of every month of a
  /// four-digit year), in terminal columns: the width of a list's date column.
  var longDateColumnWidth: Int {
    var widest = 0
    for month in 1...12 {
      var bytes: [UInt8] = []
      appendLongDate(CalendarDay(year: 2000, month: month, day: 28), to: &bytes)
      widest = max(widest, TextReportWriter.displayWidth(bytes))
    }
    return widest
  }
}
