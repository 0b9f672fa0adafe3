/// Writes the `text` format: the human report (Documentation/Formats.md, "`group` reports").
///
/// Numbers, long dates and fixed words come from the `ReportLocale`. In
/// English, with `color` off:
///
/// ```
/// PENDING — 1 group
///
///   May 17, 2019 · Credit · 2 transactions
///     Total 3,839.90 EUR
///       1,919.95 EUR  Salary
///       1,919.95 EUR  Internet Banking
///
/// COMPLETED — 1 group
///
///   May 16, 2019 · Debit · 3 transactions
///     Total -1,234.50 EUR · -5.00 USD
///       -1,234.50 EUR  Rent
///           -5.00 USD  42
///       … and 1 more
///
/// Lines 7 · accepted 7 · rejected 0 · duplicates 0
/// ```
///
/// - A section header is the state's title (`PENDING` and `COMPLETED`
///   translated, other states as written) and its group count; a blank line
///   follows it and every group block.
/// - A group block: the long date, the indicator's word and the count; the
///   totals per currency; one line per kept member — its signed amount,
///   right-aligned within the block, then its description, or its id when it
///   has none; and `… and N more` when `count` exceeds the kept members.
/// - Debits are shown negative with a leading ASCII hyphen-minus (`-12.00`),
///   credits unsigned: the sign says which way the money went. Hyphen-minus is
///   CLDR's minus sign in all five languages and pastes into spreadsheets.
/// - The last line is the run's accounting. A report with no sections says
///   `No transactions.` (translated) before it.
/// - Colours, only when `color` is true: bold headers and dates, the theme's
///   income colour for credits and expense colour for debits (green and red
///   by default; `ColorTheme`). With `color` false the
///   output contains no escape byte.
/// - Text from the input (states, ids, descriptions, currencies) is cleaned so
///   it cannot drive the terminal or break the layout: tab, CR and LF become a
///   space; other control characters and the characters that print nothing
///   (bidirectional controls, zero-width and other format characters:
///   `Unicode.Scalar.isHiddenFromDisplay`) become U+FFFD, so two texts that
///   differ never look alike.
struct TextReportWriter {
  let locale: ReportLocale
  let color: Bool
  let width: Int?
  let theme: ColorTheme

  private static let escape: UInt8 = 0x1B
  private static let bold: [UInt8] = [escape] + Array("[1m".utf8)
  private static let reset: [UInt8] = [escape] + Array("[0m".utf8)
  private static let separator: [UInt8] = Array(" · ".utf8)
  private static let replacementCharacter: [UInt8] = Array("\u{FFFD}".utf8)
  private static let memberIndent: [UInt8] = Array("      ".utf8)

  init(options: TextReportOptions) {
    locale = options.locale
    color = options.color
    width = options.width.map(TextReportOptions.bounded)
    theme = options.theme
  }

  /// Writes the whole report, handing full buffers to `flush`.
  func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    if report.sections.isEmpty {
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "\n\n".utf8)
    }
    for section in report.sections {
      appendSectionHeader(section, to: &out)
      for group in section.groups {
        try appendGroup(group, to: &out, flush: flush)
      }
    }
    appendStats(report.stats, to: &out)
  }

  /// `Account A1 — 12 transactions`, underlined, and a blank line (per-account reports). The id is
  /// never cut (it is what an operator searches for); the underline stops at the line width, so a
  /// long id does not draw a screenful of `=`.
  func appendAccountHeader(_ account: AccountReport, to out: inout [UInt8]) {
    var line: [UInt8] = []
    line.append(contentsOf: locale.accountWord.utf8)
    line.append(.space)
    Self.appendSanitized(account.account, to: &line)
    line.append(contentsOf: " — ".utf8)
    locale.appendCounted(
      account.count, singular: locale.transactionSingular, plural: locale.transactionPlural, to: &line)
    begin(Self.bold, &out)
    out.append(contentsOf: line)
    end(&out)
    out.append(.newline)
    let underline = TerminalColumns.width(of: line)
    out.append(contentsOf: repeatElement(UInt8(ascii: "="), count: width.map { min($0, underline) } ?? underline))
    out.append(contentsOf: "\n\n".utf8)
  }

  /// `PENDING — 1 group` and a blank line.
  func appendSectionHeader(_ section: ReportSection, to out: inout [UInt8]) {
    begin(Self.bold, &out)
    switch section.state {
    case KnownState.pending, KnownState.completed:
      out.append(contentsOf: locale.sectionTitle(forState: section.state).utf8)
    default:
      Self.appendSanitized(section.state, to: &out)
    }
    out.append(contentsOf: " — ".utf8)
    locale.appendCounted(
      section.groups.count, singular: locale.groupSingular, plural: locale.groupPlural, to: &out)
    end(&out)
    out.append(contentsOf: "\n\n".utf8)
  }

  /// One group block and the blank line after it.
  func appendGroup<E: Error>(
    _ group: TransactionGroup, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let debit = group.creditDebitIndicator == .debit
    let amountColor = debit ? theme.expense : theme.income

    // The date, the indicator and the count.
    out.append(contentsOf: "  ".utf8)
    begin(Self.bold, &out)
    locale.appendLongDate(group.date, to: &out)
    end(&out)
    out.append(contentsOf: Self.separator)
    begin(amountColor, &out)
    out.append(contentsOf: locale.word(for: group.creditDebitIndicator).utf8)
    end(&out)
    out.append(contentsOf: Self.separator)
    locale.appendCounted(
      group.count, singular: locale.transactionSingular, plural: locale.transactionPlural, to: &out)
    out.append(.newline)

    // The totals, one per currency.
    if !group.totals.isEmpty {
      out.append(contentsOf: "    ".utf8)
      out.append(contentsOf: locale.totalWord.utf8)
      out.append(.space)
      var line = WrappedItems(width: width, column: 5 + TerminalColumns.width(of: Array(locale.totalWord.utf8)))
      for total in group.totals {
        let money = money(total.amount, currency: total.currency, debit: debit)
        line.appendBreak(beforeItemOf: TerminalColumns.width(of: money), to: &out)
        begin(amountColor, &out)
        out.append(contentsOf: money)
        end(&out)
      }
      out.append(.newline)
    }

    // The kept members, amounts lined up on the decimal separator.
    let cells = group.transactions.map { member in
      locale.moneyText(
        magnitudeOf: member.amount, currency: member.currency, negative: debit != member.amount.isNegative)
    }
    let widths = MoneyText.columnWidths(cells)
    for (member, cell) in zip(group.transactions, cells) {
      out.append(contentsOf: Self.memberIndent)
      out.append(contentsOf: repeatElement(UInt8.space, count: cell.leadingPadding(headWidth: widths.head)))
      begin(amountColor, &out)
      out.append(contentsOf: cell.head)
      out.append(contentsOf: cell.tail)
      end(&out)
      out.append(contentsOf: repeatElement(UInt8.space, count: cell.trailingPadding(tailWidth: widths.tail)))
      out.append(contentsOf: "  ".utf8)
      let labelText = member.description.flatMap { $0.isEmpty ? nil : $0 } ?? member.id
      if let width {
        var label: [UInt8] = []
        Self.appendSanitized(labelText, to: &label)
        let used = Self.memberIndent.count + widths.head + widths.tail + 2
        out.append(contentsOf: TerminalColumns.cut(label, to: max(Self.minimumLabelWidth, width - used)))
      } else {
        // No width to cut to (not a terminal): straight into the output, no array per member.
        Self.appendSanitized(labelText, to: &out)
      }
      out.append(.newline)
      try ReportRenderer.flushIfFull(&out, flush)
    }
    let more = group.count - group.transactions.count
    if more > 0 {
      out.append(contentsOf: Self.memberIndent)
      out.append(contentsOf: locale.morePrefix.utf8)
      locale.appendInteger(more, to: &out)
      out.append(contentsOf: locale.moreSuffix.utf8)
      out.append(.newline)
    }
    out.append(.newline)
    try ReportRenderer.flushIfFull(&out, flush)
  }

  /// `Lines 7 · accepted 7 · rejected 0 · duplicates 0`.
  func appendStats(_ stats: RunStats, to out: inout [UInt8]) {
    let items: [(String, Int)] =
      [
        (locale.linesWord, stats.lines), (locale.acceptedWord, stats.accepted),
        (locale.rejectedWord, stats.rejected), (locale.duplicatesWord, stats.duplicates),
      ] + (stats.selected.map { [(locale.selectedWord, $0)] } ?? [])
      + (stats.accounts.map { [(locale.accountsWord, $0)] } ?? [])
      + (stats.changedAccounts.map { [(locale.changedWord, $0)] } ?? [])
    for (index, (word, value)) in items.enumerated() {
      if index > 0 { out.append(contentsOf: Self.separator) }
      out.append(contentsOf: word.utf8)
      out.append(.space)
      locale.appendInteger(value, to: &out)
    }
    out.append(.newline)
  }

  /// `-€1,234.50`: the amount in the locale's money format, negative for a
  /// debit (a debit's negative amount, which a magnitude should not be,
  /// shows positive: the sign says which way the money went).
  func money(_ amount: ExactDecimal, currency: String, debit: Bool) -> [UInt8] {
    let negative = debit != amount.isNegative
    return locale.moneyText(magnitudeOf: amount, currency: currency, negative: negative).bytes
  }

  /// The narrowest a cut description gets, however narrow the line.
  static let minimumLabelWidth = 10

  /// Starts a style when colours are on.
  private func begin(_ style: [UInt8], _ out: inout [UInt8]) {
    if color { out.append(contentsOf: style) }
  }

  /// Ends a style when colours are on.
  private func end(_ out: inout [UInt8]) {
    if color { out.append(contentsOf: Self.reset) }
  }

  /// Appends input text cleaned for a terminal (see the type's notes).
  static func appendSanitized(_ text: String, to out: inout [UInt8]) {
    // Nearly always printable ASCII: checked and copied from the string's own
    // contiguous UTF-8 when it has it, not byte by byte through a view.
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < UInt8(ascii: " ") || byte > UInt8(ascii: "~") { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true { return }
    let printableASCII = UInt8(ascii: " ")...UInt8(ascii: "~")
    if copied == nil && text.utf8.allSatisfy({ printableASCII.contains($0) }) {
      out.append(contentsOf: text.utf8)
      return
    }
    text.forEachShownScalar { scalar, shown in
      switch scalar.value {
      case 0x09, 0x0A, 0x0D:  // tab, line feed, carriage return
        out.append(.space)
      case _ where !shown:
        out.append(contentsOf: replacementCharacter)
      default:
        UTF8.encode(scalar) { out.append($0) }
      }
    }
  }
}
