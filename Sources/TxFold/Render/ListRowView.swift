/// One `list` row as the `csv` and `json` writers read it (`ListCSVWriter.appendRow`,
/// `ListJSONWriter.appendObject`), wherever its values lie: a `Transaction`
/// (`TransactionListRow`), or a record's values decoded in place by the
/// parallel list's workers (`RecordListRow`), whose texts are never made
/// `String`s. The writers are generic over it, so each format's row is
/// written by one piece of code, compiled for each source.
protocol ListRowView {
  /// How the row holds its texts (a `String`, or UTF-8 bytes where they lie).
  associatedtype Text

  var id: Text { get }
  var state: Text { get }
  var currency: Text { get }
  var description: Text? { get }
  var category: Text? { get }
  var counterparty: Text? { get }
  /// The timestamp as written, and its day in the report's zone.
  var instant: Timestamp { get }
  var day: CalendarDay { get }
  var indicator: CreditDebitIndicator { get }
  var amount: ExactDecimal { get }
  var fee: ExactDecimal? { get }
  /// `amount + fee`, or the amount without a fee.
  var total: ExactDecimal { get }

  /// Appends `text` as a JSON string.
  static func appendJSON(_ text: Text, to out: inout [UInt8])
  /// Appends `text` as a CSV text cell; returns whether it left a control character for the
  /// row's writer to replace (`CSVReportWriter.ControlCharacters.kept`).
  static func appendCSV(_ text: Text, to out: inout [UInt8]) -> Bool
}
