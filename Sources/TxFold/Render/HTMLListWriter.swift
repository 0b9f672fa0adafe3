/// Writes `txfold list`'s `html` format: one self-contained page (the shell,
/// style and accessibility rules are `HTMLPage`'s).
///
/// The page, in order:
///
/// - the title, naming the input and the period: the first and last day of
///   every matching transaction (`ListContext.days`, after the filter and
///   dedupe, before paging), which the pipeline gathers as it reads, so the
///   head is written before the first row without holding the rows back;
/// - a table of the transactions in list order: the long date, the label
///   (description, else counterparty, else id) with the state when it is not
///   `COMPLETED` and the total including the fee when there is one, the
///   category, and the signed amount. The newest transaction of the
///   selection (the first row of a page that starts at offset 0) is
///   highlighted and tagged "Latest". On a phone each row becomes a small
///   block (date and amount, then the label and category);
/// - the sums of what is shown, per currency (and including fees when a row
///   has one), and which of the matching transactions are shown;
/// - the income and expense chart per day of the rows shown
///   (`HTMLDailyChart`; it comes last because the rows stream out before
///   their sums are known);
/// - the run's accounting, last, so that on a phone the rows start on the
///   first screen.
///
/// Numbers, dates and words follow the `ReportLocale`. Every string from the
/// input is escaped. Rows are written as they are pulled; only the chart's
/// sums (one pair per day and currency) are gathered.
///
/// Made with an `idPrefix`, it writes one account's part of a per-account
/// page (`AccountListWriter`): the table, the sums and the chart (its ids
/// prefixed, its heading an `h3`), without the page around them or the
/// accounting.
struct HTMLListWriter: ListFormatWriter {
  let locale: ReportLocale
  let words: QueryWords
  let context: ListContext
  /// Whether this writes a whole page (else one account's part of one).
  let wholePage: Bool
  private var shown = 0
  private var chart = HTMLDailyChart()
  /// The input's name for the page's title and heading.
  let source: String?

  /// A writer of the whole page, or with `idPrefix` of one account's part of a page.
  init(options: TextReportOptions, context: ListContext, idPrefix: String? = nil) {
    locale = options.locale
    words = options.locale.queryWords
    self.context = context
    source = options.source
    wholePage = idPrefix == nil
    if let idPrefix {
      chart.idPrefix = idPrefix
      chart.headingLevel = 3
    }
  }

  /// A writer of one account's page of `--output-dir`
  /// (`HTMLAccountPages.writeListPage`): the table, the sums and the chart
  /// exactly as the whole page has them (ids and headings alike), without
  /// the page around them or the accounting.
  init(accountPageOptions options: TextReportOptions, context: ListContext) {
    self.init(options: options, context: context, idPrefix: "")
    chart.headingLevel = 2
  }

  func begin(to out: inout [UInt8]) {
    guard wholePage else { return }
    HTMLPage.begin(
      title: locale.htmlWords.listTitle, subtitle: nil,
      heading: HTMLPage.Heading(source: source, period: context.days?.period), locale: locale, to: &out)
  }

  mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    let day = context.zone.day(of: transaction)
    if shown == 0 { appendTableHead(to: &out) }
    let latest = shown == 0 && context.page.offset == 0
    shown += 1
    chart.add(day: day, currency: transaction.currency, signed: transaction.amount)

    out.append(contentsOf: (latest ? "<tr class=\"latest\">" : "<tr>").utf8)
    out.append(contentsOf: "<td class=\"date\">".utf8)
    HTMLPage.appendTime(day, locale: locale, to: &out)
    out.append(contentsOf: "</td><td class=\"wide desc\">".utf8)
    if let description = transaction.description, !description.isEmpty {
      HTMLPage.appendBreakable(description, to: &out)
    } else if let counterparty = transaction.counterparty, !counterparty.isEmpty {
      HTMLPage.appendBreakable(counterparty, to: &out)
    } else {
      HTMLPage.appendID(transaction.id, to: &out)
    }
    if latest {
      out.append(contentsOf: " <span class=\"tag\">".utf8)
      out.append(contentsOf: words.latest.utf8)
      out.append(contentsOf: "</span>".utf8)
    }
    if transaction.state == KnownState.pending {
      out.append(contentsOf: " <span class=\"tag\">".utf8)
      out.append(contentsOf: words.pending.utf8)
      out.append(contentsOf: "</span>".utf8)
    } else if transaction.state != KnownState.completed {
      out.append(contentsOf: " <span class=\"tag\">".utf8)
      HTMLPage.appendEscaped(transaction.state, to: &out)
      out.append(contentsOf: "</span>".utf8)
    }
    if transaction.fee != nil {
      out.append(contentsOf: " <span class=\"fee\">".utf8)
      out.append(contentsOf: words.totalWithFee.utf8)
      out.append(.space)
      HTMLPage.appendMoney(
        total, currency: transaction.currency, direction: HTMLPage.Direction(signed: total), locale: locale,
        to: &out)
      out.append(contentsOf: "</span>".utf8)
    }
    out.append(contentsOf: "</td><td class=\"wide cat\">".utf8)
    if let category = transaction.category { HTMLPage.appendEscaped(category, to: &out) }
    out.append(contentsOf: "</td><td class=\"num\">".utf8)
    HTMLPage.appendMoney(
      transaction.amount, currency: transaction.currency, direction: HTMLPage.Direction(signed: transaction.amount),
      locale: locale, to: &out)
    out.append(contentsOf: "</td></tr>\n".utf8)
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {
    if shown == 0 {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "</p>\n".utf8)
    } else {
      out.append(contentsOf: "</tbody>\n</table>\n".utf8)
    }
    out.append(contentsOf: "<section class=\"sums\">\n".utf8)
    if sum.count > 0 {
      appendSums(words.sum, sum.currencies.map { ($0.amount, $0.currency) }, to: &out)
      if sum.hasFees {
        appendSums(words.totalWithFees, sum.currencies.map { ($0.total, $0.currency) }, to: &out)
      }
    }
    out.append(contentsOf: "<p class=\"count\">".utf8)
    locale.appendShownCount(shown, of: context, to: &out)
    out.append(contentsOf: "</p>\n</section>\n".utf8)
    // The chart flushes its buffer whenever it passes the threshold, and a flushed buffer is
    // emptied, so it is written into its own, whose pieces join `out` (the caller flushes `out`;
    // the charts are bounded by the days shown, at most 92 or the months, per currency).
    out.append(
      contentsOf: BufferFlushing.collect { flush in
        var charts: [UInt8] = []
        chart.write(locale: locale, to: &charts, flush: flush)
        flush(&charts)
      })
    if wholePage {
      HTMLPage.appendAccounting(context.stats, locale: locale, to: &out)
      HTMLPage.end(to: &out)
    }
  }

  /// Opens the table, with its column headings.
  private func appendTableHead(to out: inout [UInt8]) {
    let htmlWords = locale.htmlWords
    out.append(contentsOf: "<table class=\"rows list\">\n<thead><tr><th scope=\"col\">".utf8)
    out.append(contentsOf: (words.keyHeadings[.day] ?? "").utf8)
    out.append(contentsOf: "</th><th scope=\"col\">".utf8)
    out.append(contentsOf: htmlWords.description.utf8)
    out.append(contentsOf: "</th><th scope=\"col\">".utf8)
    out.append(contentsOf: (words.keyHeadings[.category] ?? "").utf8)
    out.append(contentsOf: "</th><th scope=\"col\" class=\"num\">".utf8)
    out.append(contentsOf: htmlWords.amount.utf8)
    out.append(contentsOf: "</th></tr></thead>\n<tbody>\n".utf8)
  }

  /// `Sum +€1,792.45 -CHF 42.10`.
  private func appendSums(_ label: String, _ sums: [(ExactDecimal, String)], to out: inout [UInt8]) {
    out.append(contentsOf: "<p><span>".utf8)
    out.append(contentsOf: label.utf8)
    out.append(contentsOf: "</span>".utf8)
    for (amount, currency) in sums {
      out.append(.space)
      HTMLPage.appendMoney(
        amount, currency: currency, direction: HTMLPage.Direction(signed: amount), locale: locale, to: &out)
    }
    out.append(contentsOf: "</p>\n".utf8)
  }
}
