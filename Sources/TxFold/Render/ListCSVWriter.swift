/// Writes `txfold list`'s `csv` format: RFC 4180, one row per transaction, in
/// list order.
///
/// ```
/// id,instant,date,state,creditDebitIndicator,amount,currency,fee,total,description,category,counterparty\r\n
/// t-2,2019-05-16T18:00:00+02:00,2019-05-16,COMPLETED,DBIT,-120.00,EUR,-1.50,-121.50,Rent,Housing,ACME\r\n
/// ```
///
/// - CRLF line ends, the last row's too; an empty list is the header alone.
/// - `amount`, `fee` and `total` are signed canonical decimals (`.` as the
///   decimal point, no grouping); `fee` is empty without one, `total` is
///   `amount + fee`. `instant` is the timestamp as written, `date` its day.
///   Absent description, category or counterparty give empty cells.
/// - Quoting and formula neutralisation as in `group`'s CSV
///   (`CSVReportWriter.appendTextCell`): a text cell beginning with `=`, `+`,
///   `-`, `@`, tab or CR gets a `'` prefix; the numeric cells are exempt, so
///   `-120.00` stays a number.
/// - The sum and the accounting are not part of this format (use `json`).
struct ListCSVWriter: ListFormatWriter {
  static let header =
    "id,instant,date,state,creditDebitIndicator,amount,currency,fee,total,description,category,counterparty"
  private static let lineEnd: [UInt8] = [.carriageReturn, .newline]
  let context: ListContext

  func begin(to out: inout [UInt8]) {
    out.append(contentsOf: Self.header.utf8)
    out.append(contentsOf: Self.lineEnd)
  }

  func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    CSVReportWriter.appendTextCell(transaction.id, to: &out)
    out.append(.comma)
    transaction.instant.appendText(to: &out)
    out.append(.comma)
    context.zone.day(of: transaction.instant).appendText(to: &out)
    out.append(.comma)
    CSVReportWriter.appendTextCell(transaction.state, to: &out)
    out.append(.comma)
    out.append(contentsOf: transaction.creditDebitIndicator.code.utf8)
    out.append(.comma)
    transaction.amount.appendText(to: &out)
    out.append(.comma)
    CSVReportWriter.appendTextCell(transaction.currency, to: &out)
    out.append(.comma)
    transaction.fee?.appendText(to: &out)
    out.append(.comma)
    total.appendText(to: &out)
    for value in [transaction.description, transaction.category, transaction.counterparty] {
      out.append(.comma)
      if let value { CSVReportWriter.appendTextCell(value, to: &out) }
    }
    out.append(contentsOf: Self.lineEnd)
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {}
}
