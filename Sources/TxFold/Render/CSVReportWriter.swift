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
/// - A control character other than tab, CR and LF (U+0000–U+001F, U+007F)
///   is written as U+FFFD: no csv reader or database load takes a NUL
///   (PostgreSQL's `COPY` refuses the file), and the others only make a
///   cell look other than it is. `json` and `jsonl` keep every text exact.
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
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { appendTextCell(bytes: $0, to: &out) }
    if copied == nil { _ = Array(text.utf8).withUnsafeBufferPointer { appendTextCell(bytes: $0, to: &out) } }
  }

  /// Whether a text cell of these bytes gets the `'` prefix against formulas.
  @inline(__always)
  static func neutralises(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.first.map { formulaLeaders.contains($0) } ?? false
  }

  /// What a byte asks of a cell: `quotes` (comma, quote, CR, LF), `replaced` (the other
  /// control characters), or nothing.
  private static let cellBytes: [UInt8] = (0..<256).map { value in
    let byte = UInt8(value)
    if byte == .comma || byte == .quote || byte == .carriageReturn || byte == .newline { return quotes }
    return byte < UInt8(ascii: " ") && byte != .tab || byte == 0x7F ? replaced : 0
  }
  private static let quotes: UInt8 = 1
  private static let replaced: UInt8 = 2
  private static let replacementCharacter: [UInt8] = Array("\u{FFFD}".utf8)

  /// `appendTextCell(_:to:)` for text given as UTF-8 bytes.
  ///
  /// With `controls` `.kept`, control characters are copied as they are, for a row that
  /// `appendReplacingControls(_:to:)` writes out later (the parallel list's rows, whose tie-break
  /// reads the texts back exactly); the result says whether there was one.
  @discardableResult
  static func appendTextCell(
    bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], controls: ControlCharacters = .replaced
  ) -> Bool {
    let neutralise = neutralises(bytes)
    var special: UInt8 = 0
    cellBytes.withUnsafeBufferPointer { table in
      for byte in bytes { special |= table[Int(byte)] }
    }
    let quoted = special & quotes != 0
    let replacing = special & replaced != 0 && controls == .replaced
    if quoted { out.append(.quote) }
    if neutralise { out.append(apostrophe) }
    if quoted || replacing {
      for byte in bytes {
        if byte == .quote { out.append(.quote) }
        if replacing && cellBytes[Int(byte)] == replaced {
          out.append(contentsOf: replacementCharacter)
        } else {
          out.append(byte)
        }
      }
      if quoted { out.append(.quote) }
    } else {
      out.append(contentsOf: bytes)
    }
    return special & replaced != 0
  }

  /// What a text cell does with control characters other than tab, CR and LF.
  enum ControlCharacters {
    /// Written as U+FFFD (every cell that is written out at once).
    case replaced
    /// Copied, for `appendReplacingControls(_:to:)` to replace when the row is written out.
    case kept
  }

  /// Appends rendered csv rows whose cells kept their control characters
  /// (`ControlCharacters.kept`), each as U+FFFD: what `appendTextCell` would have written. Tab,
  /// CR and LF stay, so quoting and line ends are untouched.
  static func appendReplacingControls(_ rows: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    for byte in rows {
      if cellBytes[Int(byte)] == replaced {
        out.append(contentsOf: replacementCharacter)
      } else {
        out.append(byte)
      }
    }
  }
}
