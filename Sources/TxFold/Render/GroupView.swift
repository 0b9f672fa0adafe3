/// One group as the machine formats (`json`, `jsonl`, `csv`) read it, wherever
/// it lives: a report's `TransactionGroup`, or a group of a fold's table read
/// in place (`TableGroupView`). The formats' writers are generic over it, so
/// each format is written by one piece of code whichever the source, and the
/// table's writing is specialised for the table with nothing boxed.
///
/// Names (the state and each total's currency) are written by the view:
/// a table has each name escaped once per writer, a report escapes its
/// strings as they come.
protocol GroupView {
  /// How the view holds a total's currency (a `String`, or a number in the table's names).
  associatedtype Currency

  var day: CalendarDay { get }
  var indicator: CreditDebitIndicator { get }
  /// The number of transactions in the group.
  var count: Int { get }
  var latest: Timestamp { get }

  /// Writes the state as a JSON string through `scratch`.
  func writeStateJSON(to scratch: inout ByteScratch, flushingTo out: inout [UInt8])
  /// Appends the state as a CSV text cell.
  func appendStateCSV(to out: inout [UInt8])

  /// Calls `body` with each total in report order (by currency code); `count`
  /// is `nil` where the source does not know it.
  func forEachTotal(_ body: (_ currency: Currency, _ amount: ExactDecimal, _ count: Int?) -> Void)
  /// Writes a total's currency as a JSON string through `scratch`.
  func writeCurrencyJSON(_ currency: Currency, to scratch: inout ByteScratch, flushingTo out: inout [UInt8])
  /// Appends a total's currency as a CSV text cell.
  func appendCurrencyCSV(_ currency: Currency, to out: inout [UInt8])

  /// Calls `body` with each member the report shows, in report order.
  func forEachMember(_ body: (GroupMemberText) -> Void)
}
