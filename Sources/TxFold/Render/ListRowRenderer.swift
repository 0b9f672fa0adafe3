/// Renders one `list` row from a record's values as bytes, the way
/// `ListCSVWriter` and `ListJSONWriter` render it from a `Transaction`: the
/// parallel list's workers render each record's row as they decode it
/// (no `String` per record), and the merge only copies rows out.
///
/// The texts are UTF-8 bytes where they lie (the record's bytes, or a buffer
/// of decoded ones); a test holds the rows byte for byte to the writers' on
/// the same records.
struct ListRowRenderer {
  /// The row styles the parallel list renders.
  enum Style: Sendable {
    /// `ListCSVWriter`'s row, with its CRLF.
    case csv
    /// `ListJSONWriter`'s transaction object, without separator or line end.
    case json
  }

  /// The row's text fields, as UTF-8 (valid for the call they are passed to).
  struct Fields {
    var id: UnsafeBufferPointer<UInt8>
    var state: UnsafeBufferPointer<UInt8>
    var currency: UnsafeBufferPointer<UInt8>
    var description: UnsafeBufferPointer<UInt8>?
    var category: UnsafeBufferPointer<UInt8>?
    var counterparty: UnsafeBufferPointer<UInt8>?
  }

  /// The row's other values.
  struct Values {
    var instant: Timestamp
    var day: CalendarDay
    var indicator: CreditDebitIndicator
    var amount: ExactDecimal
    var fee: ExactDecimal?
    var total: ExactDecimal
  }

  let style: Style

  private static let debit: [UInt8] = Array("DBIT".utf8)
  private static let credit: [UInt8] = Array("CRDT".utf8)

  /// Appends the row.
  @inline(__always)
  func append(fields: Fields, values: Values, to out: inout [UInt8]) {
    switch style {
    case .csv: Self.appendCSV(fields: fields, values: values, to: &out)
    case .json: Self.appendJSON(fields: fields, values: values, to: &out)
    }
  }

  static func appendCSV(fields: Fields, values: Values, to out: inout [UInt8]) {
    CSVReportWriter.appendTextCell(bytes: fields.id, to: &out)
    out.append(.comma)
    values.instant.appendText(to: &out)
    out.append(.comma)
    values.day.appendText(to: &out)
    out.append(.comma)
    CSVReportWriter.appendTextCell(bytes: fields.state, to: &out)
    out.append(.comma)
    out.append(contentsOf: values.indicator == .credit ? credit : debit)
    out.append(.comma)
    values.amount.appendText(to: &out)
    out.append(.comma)
    CSVReportWriter.appendTextCell(bytes: fields.currency, to: &out)
    out.append(.comma)
    values.fee?.appendText(to: &out)
    out.append(.comma)
    values.total.appendText(to: &out)
    // Three calls, not a loop over an array literal (an allocation per row).
    appendOptionalCell(fields.description, to: &out)
    appendOptionalCell(fields.category, to: &out)
    appendOptionalCell(fields.counterparty, to: &out)
    out.append(.carriageReturn)
    out.append(.newline)
  }

  /// A comma, then the cell (nothing for an absent value).
  @inline(__always)
  private static func appendOptionalCell(_ text: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
    out.append(.comma)
    if let text { CSVReportWriter.appendTextCell(bytes: text, to: &out) }
  }

  private static let idKey: [UInt8] = Array("{\"id\":".utf8)
  private static let instantKey: [UInt8] = Array(",\"instant\":\"".utf8)
  private static let dateKey: [UInt8] = Array("\",\"date\":\"".utf8)
  private static let stateKey: [UInt8] = Array("\",\"state\":".utf8)
  private static let indicatorKey: [UInt8] = Array(",\"creditDebitIndicator\":\"".utf8)
  private static let amountKey: [UInt8] = Array("\",\"amount\":\"".utf8)
  private static let currencyKey: [UInt8] = Array("\",\"currency\":".utf8)
  private static let feeKey: [UInt8] = Array(",\"fee\":\"".utf8)
  private static let totalKey: [UInt8] = Array(",\"total\":\"".utf8)
  private static let descriptionKey: [UInt8] = Array(",\"description\":".utf8)
  private static let categoryKey: [UInt8] = Array(",\"category\":".utf8)
  private static let counterpartyKey: [UInt8] = Array(",\"counterparty\":".utf8)

  static func appendJSON(fields: Fields, values: Values, to out: inout [UInt8]) {
    out.append(contentsOf: idKey)
    JSONEscaping.appendString(contiguous: fields.id, to: &out)
    out.append(contentsOf: instantKey)
    values.instant.appendText(to: &out)
    out.append(contentsOf: dateKey)
    values.day.appendText(to: &out)
    out.append(contentsOf: stateKey)
    JSONEscaping.appendString(contiguous: fields.state, to: &out)
    out.append(contentsOf: indicatorKey)
    out.append(contentsOf: values.indicator == .credit ? credit : debit)
    out.append(contentsOf: amountKey)
    values.amount.appendText(to: &out)
    out.append(contentsOf: currencyKey)
    JSONEscaping.appendString(contiguous: fields.currency, to: &out)
    if let fee = values.fee {
      out.append(contentsOf: feeKey)
      fee.appendText(to: &out)
      out.append(.quote)
    }
    out.append(contentsOf: totalKey)
    values.total.appendText(to: &out)
    out.append(.quote)
    if let text = fields.description {
      out.append(contentsOf: descriptionKey)
      JSONEscaping.appendString(contiguous: text, to: &out)
    }
    if let text = fields.category {
      out.append(contentsOf: categoryKey)
      JSONEscaping.appendString(contiguous: text, to: &out)
    }
    if let text = fields.counterparty {
      out.append(contentsOf: counterpartyKey)
      JSONEscaping.appendString(contiguous: text, to: &out)
    }
    out.append(.closeBrace)
  }
}
