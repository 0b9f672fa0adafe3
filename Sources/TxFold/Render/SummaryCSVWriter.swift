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
  private static let lineEnd: [UInt8] = [.carriageReturn, .newline]

  static func write<E: Error>(_ report: SummaryReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void)
    throws(E)
  {
    out.append(contentsOf: header.utf8)
    out.append(contentsOf: lineEnd)
    try appendRows(report, prefix: [], to: &out, flush: flush)
  }

  /// The report's rows, each starting with `prefix` (a per-account summary's account cell).
  static func appendRows<E: Error>(
    _ report: SummaryReport, prefix: [UInt8], to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    for entry in report.entries {
      for cell in entry.currencies {
        out.append(contentsOf: prefix)
        CSVReportWriter.appendTextCell(entry.key.text ?? TransactionSummary.missingKey, to: &out)
        out.append(.comma)
        CSVReportWriter.appendTextCell(cell.currency, to: &out)
        out.append(contentsOf: ",\(cell.count),".utf8)
        cell.income.appendText(to: &out)
        out.append(.comma)
        cell.expense.appendText(to: &out)
        out.append(contentsOf: lineEnd)
      }
      try ReportRenderer.flushIfFull(&out, flush)
    }
  }
}
