/// A `list` row from a record's values, its texts as UTF-8 bytes where they
/// lie (the record's bytes, or a buffer of decoded ones), valid for the call
/// the row is passed to: the parallel list's workers render each kept
/// record's row as they decode it, with no `String` per record, and the
/// merge only copies rows out.
struct RecordListRow: ListRowView {
  var id: UnsafeBufferPointer<UInt8>
  var state: UnsafeBufferPointer<UInt8>
  var currency: UnsafeBufferPointer<UInt8>
  var description: UnsafeBufferPointer<UInt8>?
  var category: UnsafeBufferPointer<UInt8>?
  var counterparty: UnsafeBufferPointer<UInt8>?
  var instant: Timestamp
  var day: CalendarDay
  var indicator: CreditDebitIndicator
  var amount: ExactDecimal
  var fee: ExactDecimal?
  var total: ExactDecimal

  /// Escaped as they lie: the bytes the record's `Transaction` would hold (`ListChunkFolder`).
  static func appendJSON(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    JSONEscaping.appendString(contiguous: text, to: &out)
  }

  /// Control characters kept: the tie-break reads the texts back from the row
  /// (`ListEntryRow`), exactly as decoded; the row is written out with them replaced
  /// (`ListEntryLayout.csvControls`).
  static func appendCSV(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
    CSVReportWriter.appendTextCell(bytes: text, to: &out, controls: .kept)
  }
}
