/// Writes the `csv` format: RFC 4180, one row per group and currency (Documentation/Formats.md, "`group` reports").
///
/// ```
/// state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest\r\n
/// PENDING,2019-05-17,CRDT,2,EUR,2,3839.90,2019-05-17T14:28:01\r\n
/// ```
///
/// - Lines end with CRLF, as RFC 4180 (which the SPEC names) prescribes; this
///   is also what Excel and Python's `csv` module write, and every CSV reader
///   accepts it. The last row ends with CRLF too.
/// - Rows follow section order, then group order, then the group's `totals`
///   order (by currency code). `count` is the group's count (repeated on each
///   of its currency rows); `currencyCount` the number of its transactions in
///   that currency, so the column sums to the records folded; `amount` is
///   that currency's total in canonical text (`3839.90`: `.` as decimal
///   point, no grouping). A group with no totals still gets one row, with
///   empty `currency`, `currencyCount` and `amount`; a total whose count is
///   not known (`CurrencyTotal.count` `nil`) has an empty `currencyCount`.
/// - A cell containing `,`, `"`, CR or LF is quoted, with `"` doubled.
/// - Formula injection: a text cell beginning with `=`, `+`, `-`, `@`, tab or
///   CR is prefixed with `'` so spreadsheets show it as text. The numeric
///   `amount` cell is exempt: a negative amount stays `-12.00`.
/// - Members and run stats are not part of this format (use `json`/`jsonl`);
///   an empty report is the header row alone.
///
/// The per-account report writes the same rows after its `account` cell (`prefix`).
struct CSVReportWriter: GroupDocumentWriter {
  /// The header row, without its line end.
  static let header = "state,date,creditDebitIndicator,count,currency,currencyCount,amount,latest"

  /// What each row starts with: the per-account report's account cell and comma, or nothing.
  var prefix: [UInt8] = []

  private static let apostrophe = UInt8(ascii: "'")
  /// First bytes that make a spreadsheet read a cell as a formula.
  private static let formulaLeaders: [UInt8] = [
    UInt8(ascii: "="), .plus, .minus, UInt8(ascii: "@"), .tab, .carriageReturn,
  ]

  func appendBeginning(empty: Bool, to out: inout [UInt8]) {
    out.append(contentsOf: Self.header.utf8)
    out.append(.carriageReturn)
    out.append(.newline)
  }

  func appendSectionStart(first: Bool, appendState: (inout [UInt8]) -> Void, to out: inout [UInt8]) {}

  /// Appends the group's rows: one per total, or one with empty currency
  /// cells when it has none.
  func appendGroup<Group: GroupView>(_ group: Group, first: Bool, last: Bool, to out: inout [UInt8]) {
    @inline(__always) func appendStart() {
      out.append(contentsOf: prefix)
      group.appendStateCSV(to: &out)
      out.append(.comma)
      group.day.appendText(to: &out)
      out.appendLiteral(group.indicator == .credit ? ",CRDT," : ",DBIT,")
      out.appendDecimal(group.count)
      out.append(.comma)
    }
    @inline(__always) func appendEnd() {
      out.append(.comma)
      group.latest.appendText(to: &out)
      out.append(.carriageReturn)
      out.append(.newline)
    }
    var rows = 0
    group.forEachTotal { currency, amount, count in
      appendStart()
      group.appendCurrencyCSV(currency, to: &out)
      out.append(.comma)
      if let count { out.appendDecimal(count) }
      out.append(.comma)
      // Canonical decimal text: digits, `.` and a leading `-` only, so it
      // needs neither quoting nor neutralising.
      amount.appendText(to: &out)
      appendEnd()
      rows += 1
    }
    if rows == 0 {
      appendStart()
      out.append(.comma)
      out.append(.comma)
      appendEnd()
    }
  }

  func appendSectionEnd(last: Bool, to out: inout [UInt8]) {}

  func appendEnd(empty: Bool, stats: RunStats, to out: inout [UInt8]) {}

  /// Appends a text cell: neutralised against formulas, quoted when needed.
  static func appendTextCell(_ text: String, to out: inout [UInt8]) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { appendTextCell(bytes: $0, to: &out) }
    if copied == nil { Array(text.utf8).withUnsafeBufferPointer { appendTextCell(bytes: $0, to: &out) } }
  }

  /// Whether a text cell of these bytes gets the `'` prefix against formulas.
  @inline(__always)
  static func neutralises(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.first.map { formulaLeaders.contains($0) } ?? false
  }

  /// 1 for the bytes that make a cell quoted: comma, quote, CR, LF.
  private static let quoting: [UInt8] = (0..<256).map {
    $0 == Int(UInt8.comma) || $0 == Int(UInt8.quote) || $0 == Int(UInt8.carriageReturn) || $0 == Int(UInt8.newline)
      ? 1 : 0
  }

  /// `appendTextCell(_:to:)` for text given as UTF-8 bytes (the parallel list's rows).
  static func appendTextCell(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    let neutralise = neutralises(bytes)
    var special: UInt8 = 0
    quoting.withUnsafeBufferPointer { table in
      for byte in bytes { special |= table[Int(byte)] }
    }
    let quoted = special != 0
    if quoted { out.append(.quote) }
    if neutralise { out.append(apostrophe) }
    if quoted {
      for byte in bytes {
        if byte == .quote { out.append(.quote) }
        out.append(byte)
      }
      out.append(.quote)
    } else {
      out.append(contentsOf: bytes)
    }
  }
}
