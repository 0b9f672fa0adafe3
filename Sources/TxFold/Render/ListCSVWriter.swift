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
/// - Control characters other than tab, CR and LF as U+FFFD (`CSVReportWriter`).
/// - The sum and the accounting are not part of this format (use `json`).
struct ListCSVWriter: ListFormatWriter {
  static let header =
    "id,instant,date,state,creditDebitIndicator,amount,currency,fee,total,description,category,counterparty"
  let context: ListContext

  func begin(to out: inout [UInt8]) {
    out.append(contentsOf: Self.header.utf8)
    out.append(.carriageReturn)
    out.append(.newline)
  }

  func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    Self.appendRow(TransactionListRow(transaction, total: total, zone: context.zone), to: &out)
  }

  /// Appends one row, with its CRLF; returns whether it left a control character to replace
  /// (`ListRowView.appendCSV`).
  @discardableResult
  static func appendRow<Row: ListRowView>(_ row: Row, to out: inout [UInt8]) -> Bool {
    var controls = Row.appendCSV(row.id, to: &out)
    out.append(.comma)
    row.instant.appendText(to: &out)
    out.append(.comma)
    row.day.appendText(to: &out)
    out.append(.comma)
    controls = Row.appendCSV(row.state, to: &out) || controls
    out.appendLiteral(row.indicator == .credit ? ",CRDT," : ",DBIT,")
    row.amount.appendText(to: &out)
    out.append(.comma)
    controls = Row.appendCSV(row.currency, to: &out) || controls
    out.append(.comma)
    row.fee?.appendText(to: &out)
    out.append(.comma)
    row.total.appendText(to: &out)
    // Three calls, not a loop over an array literal (an allocation per row).
    controls = appendOptionalCell(row.description, of: Row.self, to: &out) || controls
    controls = appendOptionalCell(row.category, of: Row.self, to: &out) || controls
    controls = appendOptionalCell(row.counterparty, of: Row.self, to: &out) || controls
    out.append(.carriageReturn)
    out.append(.newline)
    return controls
  }

  /// A comma, then the cell (nothing for an absent value).
  @inline(__always)
  private static func appendOptionalCell<Row: ListRowView>(_ text: Row.Text?, of _: Row.Type, to out: inout [UInt8])
    -> Bool
  {
    out.append(.comma)
    guard let text else { return false }
    return Row.appendCSV(text, to: &out)
  }

  /// Appends the row a parallel list's worker rendered into `entry` (`ListEntryLayout`), its
  /// kept control characters replaced (`ListEntryLayout.csvControls`).
  @inline(__always)
  static func appendRendered(_ entry: UnsafeRawPointer, to out: inout [UInt8]) {
    let row = ListEntryLayout.row(entry)
    if ListEntryLayout.flags(entry) & ListEntryLayout.csvControls != 0 {
      CSVReportWriter.appendReplacingControls(row, to: &out)
    } else {
      out.append(contentsOf: row)
    }
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {}
}
