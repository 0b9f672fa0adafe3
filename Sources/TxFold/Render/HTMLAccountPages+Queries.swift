/// The account pages of `summary` and `list` (`HTMLAccountPages`).
extension HTMLAccountPages {
  /// The page of one account of `summary`, whole: titled after the
  /// summary's dimension and naming `days` (the first and last day of the
  /// account's transactions, `AccountSummaryCursor.days`) as its period,
  /// then the summary section the one-page report draws
  /// (`HTMLSummaryWriter.appendSection`) for that account.
  package func page(for account: AccountSummary, days: DaySpan?) -> [UInt8] {
    var out: [UInt8] = []
    let report = account.report
    beginPage(
      title: locale.queryWords.titles[report.dimension] ?? "", account: account.account, count: account.count,
      period: days?.period, to: &out)
    var page: [UInt8] = []
    HTMLSummaryWriter(locale: locale).appendSection(report, to: &out) { (chunk: inout [UInt8]) -> Void in
      page.append(contentsOf: chunk)
      chunk.removeAll(keepingCapacity: true)
    }
    HTMLPage.end(to: &out)
    page.append(contentsOf: out)
    return page
  }

  /// Notes `account` (of `summary`) for the index, its page written as
  /// `fileName`: its transactions, its `days` (which only the index's title
  /// names: a summary's index has no period column) and its totals per currency.
  package mutating func add(_ account: AccountSummary, days: DaySpan?, fileName: String) throws(SpillError) {
    var sums: [String: (income: ExactDecimal?, expense: ExactDecimal?)] = [:]
    for cell in account.report.totals {
      sums[cell.currency] = (cell.income, cell.expense.wide == .min ? nil : cell.expense.magnitude)
    }
    try add(account: account.account, fileName: fileName, count: account.count, period: days?.period, sums: sums)
  }

  /// What `writeListPage` saw of an account's rows, for `add`: the first
  /// and last day shown, and per currency the income and the expense shown
  /// (magnitudes of the amounts, as the page's chart sums them; `nil` once
  /// a sum overflowed).
  package struct ListedRows {
    package var period: (first: CalendarDay, last: CalendarDay)?
    package var sums: [String: (income: ExactDecimal?, expense: ExactDecimal?)] = [:]
  }

  /// Writes the page of one account of `list`, as its rows are pulled from
  /// `next` (never all in memory): titled like the list page, then the
  /// table, the sums and the chart the one-page list draws for them
  /// (`HTMLListWriter`). `context.matched` is the account's matching
  /// transactions before paging, and `context.days` their first and last
  /// day, the period the page names (known before its first row, as the
  /// one-page list's: `AccountListCursor.days`).
  package func writeListPage<S: Error, E: Error>(
    account: String, context: ListContext, next: () throws(S) -> Transaction?,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(ListRenderer.Failure<S, E>) -> ListedRows {
    var head: [UInt8] = []
    beginPage(
      title: locale.htmlWords.listTitle, account: account, count: context.matched, period: context.days?.period,
      to: &head)
    var page = ListPage(
      head: head, rows: HTMLListWriter(accountPageOptions: options, context: context), zone: context.zone)
    _ = try ListRenderer.render(&page, next: next, flush: flush)
    return page.listed
  }

  /// An account's list page around `HTMLListWriter`'s rows, noting what the index shows of them.
  private struct ListPage: ListFormatWriter {
    let head: [UInt8]
    var rows: HTMLListWriter
    let zone: ZoneResolver
    var listed = ListedRows()

    func begin(to out: inout [UInt8]) {
      out.append(contentsOf: head)
      rows.begin(to: &out)
    }

    mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
      let day = zone.day(of: transaction)
      if let period = listed.period {
        listed.period = (min(period.first, day), max(period.last, day))
      } else {
        listed.period = (day, day)
      }
      var sums = listed.sums[transaction.currency] ?? (ExactDecimal.zero, ExactDecimal.zero)
      switch HTMLPage.Direction(signed: transaction.amount) {
      case .income: sums.income = sums.income?.adding(transaction.amount)
      case .expense:
        sums.expense =
          transaction.amount.wide == .min ? nil : sums.expense?.adding(transaction.amount.magnitude)
      case .none: break
      }
      listed.sums[transaction.currency] = sums
      rows.append(transaction, total: total, to: &out)
    }

    func finish(sum: SelectionSum, to out: inout [UInt8]) {
      rows.finish(sum: sum, to: &out)
      HTMLPage.end(to: &out)
    }
  }
}
