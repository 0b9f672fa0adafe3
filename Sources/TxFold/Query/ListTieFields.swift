/// What a list row shows besides its instant and id, as the list order reads
/// it to place transactions that share both (`TransactionOrder.compareShown`):
/// a `PENDING` copy and its `COMPLETED` copy, a record re-sent with another
/// description. Read from a `Transaction` (`TransactionTieFields`) or from a
/// row the parallel list rendered (`ListEntryRow`), so that every path and
/// every format orders such ties alike, whatever the order of the input.
protocol ListTieFields {
  /// Text as its UTF-8 bytes, decoded (never escaped, quoted or neutralised as a format writes it).
  associatedtype Text: Sequence where Text.Element == UInt8

  /// The timestamp as written (which also decides the day shown).
  var writtenInstant: Text { get }
  var state: Text { get }
  var isCredit: Bool { get }
  var amount: ExactDecimal { get }
  var currency: Text { get }
  var fee: ExactDecimal? { get }
  var description: Text? { get }
  var category: Text? { get }
  var counterparty: Text? { get }
}

/// A `Transaction`'s values as the tie-break reads them.
struct TransactionTieFields: ListTieFields {
  let transaction: Transaction

  var writtenInstant: String.UTF8View { transaction.instant.description.utf8 }
  var state: String.UTF8View { transaction.state.utf8 }
  var isCredit: Bool { transaction.creditDebitIndicator == .credit }
  var amount: ExactDecimal { transaction.amount }
  var currency: String.UTF8View { transaction.currency.utf8 }
  var fee: ExactDecimal? { transaction.fee }
  var description: String.UTF8View? { transaction.description?.utf8 }
  var category: String.UTF8View? { transaction.category?.utf8 }
  var counterparty: String.UTF8View? { transaction.counterparty?.utf8 }
}
