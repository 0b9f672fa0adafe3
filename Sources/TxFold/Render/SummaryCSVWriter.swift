/// Writes `txfold summary`'s `csv` format: RFC 4180, one row per key and
/// currency, in the summary's order.
///
/// ```
/// key,currency,count,income,expense\r\n
/// Rent,EUR,1,0.00,-5200.00\r\n
/// (none),EUR,2,12.50,0.00\r\n
/// ```
///
/// - CRLF line ends, the last row's too; an empty summary is the header alone.
/// - `key` is the canonical text as in the `json` format, and `(none)` for
///   transactions without one. `count` counts the key's transactions in that
///   currency; `income` and `expense` are canonical decimals.
/// - Quoting and formula neutralisation as in `group`'s CSV; the numeric
///   cells are exempt. Totals and accounting are not part of this format.
enum SummaryCSVWriter {
  static let header = "key,currency,count,income,expense"

  static func write<E: Error>(_ report: SummaryReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void)
    throws(E)
  {
    out.append(contentsOf: header.utf8)
    out.append(.carriageReturn)
    out.append(.newline)
    try appendRows(report, prefix: [], to: &out, flush: flush)
  }

  /// The report's rows, each starting with `prefix` (a per-account summary's account cell).
  static func appendRows<E: Error>(
    _ report: SummaryReport, prefix: [UInt8], to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    // Written byte by byte (no interpolated `String` per row, the key's text made once per
    // entry): a per-account summary writes a few rows for each of hundreds of thousands of accounts.
    for entry in report.entries {
      let key = entry.key.text ?? TransactionSummary.missingKey
      for cell in entry.currencies {
        out.append(contentsOf: prefix)
        CSVReportWriter.appendTextCell(key, to: &out)
        out.append(.comma)
        CSVReportWriter.appendTextCell(cell.currency, to: &out)
        out.append(.comma)
        out.appendDecimal(cell.count)
        out.append(.comma)
        cell.income.appendText(to: &out)
        out.append(.comma)
        cell.expense.appendText(to: &out)
        out.append(.carriageReturn)
        out.append(.newline)
      }
      try ReportRenderer.flushIfFull(&out, flush)
    }
  }
}
