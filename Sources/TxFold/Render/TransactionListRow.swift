/// A `Transaction` as a `list` row (`ListRowView`): the list writers' rows
/// of `list --format text|html`'s path, the library's lists and the
/// per-account lists.
struct TransactionListRow: ListRowView {
  let transaction: Transaction
  let day: CalendarDay
  let total: ExactDecimal

  /// The row of `transaction`, on the day a list dated it on (`Transaction.date`) or else
  /// dated in `zone`, with its `total` (`amount + fee`).
  init(_ transaction: Transaction, total: ExactDecimal, zone: ZoneResolver) {
    self.transaction = transaction
    day = zone.day(of: transaction)
    self.total = total
  }

  var id: String { transaction.id }
  var state: String { transaction.state }
  var currency: String { transaction.currency }
  var description: String? { transaction.description }
  var category: String? { transaction.category }
  var counterparty: String? { transaction.counterparty }
  var instant: Timestamp { transaction.instant }
  var indicator: CreditDebitIndicator { transaction.creditDebitIndicator }
  var amount: ExactDecimal { transaction.amount }
  var fee: ExactDecimal? { transaction.fee }

  static func appendJSON(_ text: String, to out: inout [UInt8]) { JSONEscaping.appendString(text, to: &out) }
  static func appendCSV(_ text: String, to out: inout [UInt8]) -> Bool {
    CSVReportWriter.appendTextCell(text, to: &out)
    return false
  }
}
