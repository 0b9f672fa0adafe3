/// Writes the `html` format of `group` and `merge`: one self-contained page
/// (the shell, style and accessibility rules are `HTMLPage`'s).
///
/// The page, in order:
///
/// - the title and the run's accounting (lines, accepted, rejected with the
///   count per reason, duplicates);
/// - the income and expense chart per day (`HTMLDailyChart`), built from
///   the groups: a credit group's totals are income, a debit group's
///   expense (an amount written negative goes the other way, as in `text`);
/// - per state, in the report's order, a heading (`PENDING` and `COMPLETED`
///   translated, other states as written) with its group count, and the
///   groups as cards, as a banking app's grouped-transactions screen shows
///   them: the long date, the indicator (word and sign), the count, the
///   totals per currency, the kept members (description, or id when it has
///   none, and signed amount) and `… and N more` when `count` exceeds them.
///
/// Numbers, dates and words follow the `ReportLocale`. Every string from the
/// input is escaped. The groups are written one by one and flushed as the
/// buffer fills; the chart's sums are the only thing gathered first (one
/// pair per day and currency).
struct HTMLReportWriter {
  let locale: ReportLocale

  func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let words = locale.htmlWords
    HTMLPage.begin(title: words.groupTitle, subtitle: nil, locale: locale, to: &out)
    HTMLPage.appendAccounting(report.stats, locale: locale, to: &out)

    var chart = HTMLDailyChart()
    for section in report.sections {
      for group in section.groups {
        let debit = group.creditDebitIndicator == .debit
        for total in group.totals {
          let direction = HTMLPage.Direction(magnitude: total.amount, debit: debit)
          guard direction != .none, total.amount.wide != .min else { continue }
          chart.add(
            day: group.date, currency: total.currency, magnitude: total.amount.magnitude,
            income: direction == .income)
        }
      }
    }
    try chart.write(locale: locale, to: &out, flush: flush)

    if report.sections.isEmpty {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "</p>\n".utf8)
    }
    for (index, section) in report.sections.enumerated() {
      out.append(
        contentsOf: "<section class=\"state\" aria-labelledby=\"state-\(index)\">\n<h2 id=\"state-\(index)\">".utf8)
      HTMLPage.appendEscaped(locale.sectionTitle(forState: section.state), to: &out)
      out.append(contentsOf: " <span class=\"count\">".utf8)
      locale.appendCounted(
        section.groups.count, singular: locale.groupSingular, plural: locale.groupPlural, to: &out)
      out.append(contentsOf: "</span></h2>\n<div class=\"cards\">\n".utf8)
      for group in section.groups {
        try appendCard(group, to: &out, flush: flush)
      }
      out.append(contentsOf: "</div>\n</section>\n".utf8)
    }
    HTMLPage.end(to: &out)
  }

  /// One group as a card, its date a heading of `level` (`h3`; `h4` under a
  /// per-account page's state headings).
  func appendCard<E: Error>(
    _ group: TransactionGroup, heading level: String = "h3", to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let debit = group.creditDebitIndicator == .debit
    let side = debit ? "out" : "in"
    out.append(contentsOf: "<article class=\"card \(side)\">\n<header><\(level)>".utf8)
    HTMLPage.appendTime(group.date, locale: locale, to: &out)
    out.append(contentsOf: "</\(level)><span class=\"ind \(side)\"><span aria-hidden=\"true\">".utf8)
    out.append(contentsOf: (debit ? "− " : "+ ").utf8)
    out.append(contentsOf: "</span>".utf8)
    out.append(contentsOf: locale.word(for: group.creditDebitIndicator).utf8)
    out.append(contentsOf: "</span><span class=\"count\">".utf8)
    locale.appendCounted(
      group.count, singular: locale.transactionSingular, plural: locale.transactionPlural, to: &out)
    out.append(contentsOf: "</span></header>\n".utf8)

    if !group.totals.isEmpty {
      out.append(contentsOf: "<p class=\"total\"><span>".utf8)
      out.append(contentsOf: locale.totalWord.utf8)
      out.append(contentsOf: "</span>".utf8)
      for total in group.totals {
        out.append(.space)
        HTMLPage.appendMoney(
          total.amount, currency: total.currency, direction: HTMLPage.Direction(magnitude: total.amount, debit: debit),
          locale: locale, to: &out)
      }
      out.append(contentsOf: "</p>\n".utf8)
    }

    if !group.transactions.isEmpty {
      out.append(contentsOf: "<ul class=\"members\">\n".utf8)
      for member in group.transactions {
        out.append(contentsOf: "<li><span class=\"desc\">".utf8)
        if let description = member.description, !description.isEmpty {
          HTMLPage.appendEscaped(description, to: &out)
        } else {
          HTMLPage.appendEscaped(member.id, to: &out)
        }
        out.append(contentsOf: "</span>".utf8)
        HTMLPage.appendMoney(
          member.amount, currency: member.currency,
          direction: HTMLPage.Direction(magnitude: member.amount, debit: debit), locale: locale, to: &out)
        out.append(contentsOf: "</li>\n".utf8)
        try ReportRenderer.flushIfFull(&out, flush)
      }
      out.append(contentsOf: "</ul>\n".utf8)
    }
    let more = group.count - group.transactions.count
    if more > 0 {
      out.append(contentsOf: "<p class=\"more\">".utf8)
      out.append(contentsOf: locale.morePrefix.utf8)
      locale.appendInteger(more, to: &out)
      out.append(contentsOf: locale.moreSuffix.utf8)
      out.append(contentsOf: "</p>\n".utf8)
    }
    out.append(contentsOf: "</article>\n".utf8)
    try ReportRenderer.flushIfFull(&out, flush)
  }
}
