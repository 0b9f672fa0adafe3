/// Writes `txfold list`'s `text` format: for people, in the `ReportLocale`.
///
/// In English, with `color` off (the first transaction of the first page is
/// the newest of the selection and gets the "Latest" block, as the ledger
/// seed puts it on top; the rows follow):
///
/// ```
/// Latest · May 17, 2019
///   1,919.95 EUR  Salary · Income · pending
///
/// May 16, 2019               -7.50 EUR  Café "De Kas" · pending
/// May 16, 2019              -42.10 CHF  Zürich Hauptbahnhof
/// May 15, 2019             -120.00 EUR  Rent · Housing · total with fee -121.50 EUR
///
/// Sum -42.10 CHF · 1,792.45 EUR
/// Total with fees -42.10 CHF · 1,790.95 EUR
/// Shown 1–4 of 4
/// Lines 5 · accepted 4 · rejected 1 · duplicates 0
/// ```
///
/// - A row: the long date, padded to the locale's widest; the signed amount
///   and currency, right-aligned in 18 columns; then the description (its id
///   when it has none or an empty one), the category when it has one, the
///   state when it is not `COMPLETED` (`pending`, translated; others as
///   written), and, when it has a fee, its total
///   including the fee. Rows never need to be read ahead, so the list streams.
/// - The "Latest" block only on a page that starts at offset 0 (elsewhere the
///   newest transaction is on another page).
/// - The footer: the sum per currency of the transactions shown (omitted when
///   none is); the sum including fees when one of them has a fee; which
///   of the matching transactions are shown; the run's accounting. A list with
///   nothing to show says `No transactions.` instead of rows.
/// - Colours, only when `color` is true: bold headings, green for credits
///   (income) and red for debits (expenses); sums by their sign. Input text
///   is cleaned for the terminal as in `TextReportWriter`.
struct ListTextWriter: ListFormatWriter {
  let locale: ReportLocale
  let words: QueryWords
  let color: Bool
  let theme: ColorTheme
  let context: ListContext
  let dateWidth: Int
  /// The line width details are cut to; `nil` never cuts.
  let width: Int?
  /// The amount column's width before the decimal separator, in terminal
  /// columns: rows stream, so the column cannot be measured first.
  let amountHeadWidth: Int
  /// The column's width from the decimal separator on: room for three
  /// fraction digits, and in a language that writes the symbol after the
  /// number, for a space and a three-letter code.
  let amountTailWidth: Int
  /// Ends with the run's accounting (off for each account of a per-account list).
  var showsStats = true
  private var shown = 0
  private var rows = 0

  private static let separator: [UInt8] = Array(" · ".utf8)

  init(options: TextReportOptions, context: ListContext) {
    locale = options.locale
    words = options.locale.queryWords
    color = options.color
    theme = options.theme
    self.context = context
    dateWidth = options.locale.longDateColumnWidth
    width = options.width.map(TextReportOptions.bounded)
    let trailingSymbol = options.locale.currencyPlacement == .trailing
    amountTailWidth = trailingSymbol ? 8 : 4
    amountHeadWidth = trailingSymbol ? 10 : 12
  }

  func begin(to out: inout [UInt8]) {}

  mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    let day = context.zone.day(of: transaction)
    defer { shown += 1 }
    if shown == 0 && context.page.offset == 0 {
      style(TextStyle.bold, &out) { out in out.append(contentsOf: words.latest.utf8) }
      out.append(contentsOf: Self.separator)
      locale.appendLongDate(day, to: &out)
      out.append(contentsOf: "\n  ".utf8)
      var amount: [UInt8] = []
      appendMoney(transaction.amount, currency: transaction.currency, to: &amount)
      style(transaction.creditDebitIndicator == .debit ? theme.expense : theme.income, &out) { out in
        out.append(contentsOf: amount)
      }
      out.append(contentsOf: "  ".utf8)
      appendDetails(transaction, total: total, used: 4 + TerminalColumns.width(of: amount), to: &out)
      out.append(contentsOf: "\n\n".utf8)
      return
    }
    rows += 1
    var date: [UInt8] = []
    locale.appendLongDate(day, to: &date)
    out.append(contentsOf: date)
    out.append(contentsOf: repeatElement(UInt8.space, count: max(0, dateWidth - TerminalColumns.width(of: date))))
    let amount = locale.moneyText(transaction.amount, currency: transaction.currency)
    out.append(contentsOf: "  ".utf8)
    out.append(contentsOf: repeatElement(UInt8.space, count: amount.leadingPadding(headWidth: amountHeadWidth)))
    style(transaction.creditDebitIndicator == .debit ? theme.expense : theme.income, &out) { out in
      out.append(contentsOf: amount.head)
      out.append(contentsOf: amount.tail)
    }
    out.append(contentsOf: repeatElement(UInt8.space, count: amount.trailingPadding(tailWidth: amountTailWidth)))
    out.append(contentsOf: "  ".utf8)
    let used =
      dateWidth + 2 + max(amountHeadWidth, TerminalColumns.width(of: amount.head))
      + max(amountTailWidth, TerminalColumns.width(of: amount.tail)) + 2
    appendDetails(transaction, total: total, used: used, to: &out)
    out.append(.newline)
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {
    if shown == 0 {
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "\n\n".utf8)
    }
    if rows > 0 { out.append(.newline) }
    if sum.count > 0 {
      appendSums(words.sum, sum.currencies.map { ($0.amount, $0.currency) }, to: &out)
      if sum.hasFees {
        appendSums(words.totalWithFees, sum.currencies.map { ($0.total, $0.currency) }, to: &out)
      }
    }
    locale.appendShownCount(shown, of: context, to: &out)
    out.append(.newline)
    if showsStats {
      TextReportWriter(options: TextReportOptions(locale: locale, color: false)).appendStats(context.stats, to: &out)
    }
  }

  /// `Rent · Landlord Ltd · Housing · pending · total with fee -€121.50`: the
  /// label (the description, else the counterparty, else the id), the
  /// counterparty when the label is not already it, the category, the state
  /// when not `COMPLETED`, the total including a fee. With a width, the text
  /// before the fee total is cut at its end (so the label goes last) to fit
  /// the line after `used` columns, never below
  /// `TextReportWriter.minimumLabelWidth`.
  private func appendDetails(_ transaction: Transaction, total: ExactDecimal, used: Int, to out: inout [UInt8]) {
    var label: [UInt8] = []
    let description = transaction.description.flatMap { $0.isEmpty ? nil : $0 }
    let counterparty = transaction.counterparty.flatMap { $0.isEmpty ? nil : $0 }
    TextReportWriter.appendSanitized(description ?? counterparty ?? transaction.id, to: &label)
    // Everything but the fee total is plain text, so it can be measured and cut.
    var rest: [UInt8] = []
    var feeWidth = 0
    func appendPart(_ text: String, sanitized: Bool) {
      rest.append(contentsOf: Self.separator)
      if sanitized { TextReportWriter.appendSanitized(text, to: &rest) } else { rest.append(contentsOf: text.utf8) }
    }
    if let counterparty, description != nil, counterparty != description {
      appendPart(counterparty, sanitized: true)
    }
    if let category = transaction.category, !category.isEmpty {
      appendPart(category, sanitized: true)
    }
    if transaction.state == KnownState.pending {
      appendPart(words.pending, sanitized: false)
    } else if transaction.state != KnownState.completed {
      appendPart(transaction.state, sanitized: true)
    }
    var feeTotal: [UInt8] = []
    if transaction.fee != nil {
      appendMoney(total, currency: transaction.currency, to: &feeTotal)
      feeWidth =
        TerminalColumns.width(of: Self.separator) + TerminalColumns.width(of: Array(words.totalWithFee.utf8))
        + 1
        + TerminalColumns.width(of: feeTotal)
    }
    label.append(contentsOf: rest)
    if let width {
      label = TerminalColumns.cut(label, to: max(TextReportWriter.minimumLabelWidth, width - used - feeWidth))
    }
    out.append(contentsOf: label)
    if transaction.fee != nil {
      out.append(contentsOf: Self.separator)
      out.append(contentsOf: words.totalWithFee.utf8)
      out.append(.space)
      style(total.isNegative ? theme.expense : theme.income, &out) { out in out.append(contentsOf: feeTotal) }
    }
  }

  /// `Sum €1,792.45 · -CHF 42.10` and a newline, each sum coloured by its sign, going on under the
  /// first past the line width (`WrappedItems`).
  private func appendSums(_ label: String, _ sums: [(ExactDecimal, String)], to out: inout [UInt8]) {
    out.append(contentsOf: label.utf8)
    out.append(.space)
    var line = WrappedItems(width: width, column: TerminalColumns.width(of: Array(label.utf8)) + 1)
    for (amount, currency) in sums {
      let money = locale.moneyText(amount, currency: currency).bytes
      line.appendBreak(beforeItemOf: TerminalColumns.width(of: money), to: &out)
      style(amount.isNegative ? theme.expense : theme.income, &out) { out in out.append(contentsOf: money) }
    }
    out.append(.newline)
  }

  /// The signed amount with its currency, in the locale's money format.
  private func appendMoney(_ amount: ExactDecimal, currency: String, to out: inout [UInt8]) {
    out.append(contentsOf: locale.moneyText(amount, currency: currency).bytes)
  }

  private func style(_ escape: [UInt8], _ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
    if color { out.append(contentsOf: escape) }
    body(&out)
    if color { out.append(contentsOf: TextStyle.reset) }
  }
}
