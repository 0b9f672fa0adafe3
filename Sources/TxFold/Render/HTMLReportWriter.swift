/// Writes the `html` format of `group` and `merge`: one self-contained page
/// (the shell, style and accessibility rules are `HTMLPage`'s).
///
/// The page, in order — the cards first, so that on a phone the first group
/// starts on the first screen:
///
/// - the title, naming the input, and the period (first – last day);
/// - with more than 50 groups, a month index (folded): per state, a link to
///   the first card of each month;
/// - per state, in the report's order, a heading (`PENDING` and `COMPLETED`
///   translated, other states as written) with its group count, and the
///   groups as cards, as a banking app's grouped-transactions screen shows
///   them: the long date, the indicator (word and sign), the count, the
///   totals per currency, the kept members (description, or id when it has
///   none, and signed amount) and `… and N more` when `count` exceeds them;
/// - the income and expense chart per day (`HTMLDailyChart`), built from
///   the groups: a credit group's totals are income, a debit group's
///   expense (an amount written negative goes the other way, as in `text`);
/// - the run's accounting (lines, accepted, rejected with the count per
///   reason, duplicates).
///
/// Numbers, dates and words follow the `ReportLocale`. Every string from the
/// input is escaped. The groups are written one by one and flushed as the
/// buffer fills; the chart's sums are the only thing gathered first (one
/// pair per day and currency).
struct HTMLReportWriter {
  let locale: ReportLocale

  /// The input's name for the page's title and heading (`TextReportOptions.source`).
  var source: String? = nil

  /// Reports with more groups than this get a month index.
  static let monthIndexThreshold = 50

  func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let words = locale.htmlWords
    HTMLPage.begin(
      title: words.groupTitle, subtitle: nil,
      heading: HTMLPage.Heading(source: source, period: HTMLPage.period(of: report.sections)), locale: locale,
      to: &out)
    try appendSections(report.sections, idPrefix: "", headingLevel: 2, to: &out, flush: flush)

    let chart = HTMLDailyChart(sections: report.sections)
    try chart.write(locale: locale, to: &out, flush: flush)
    HTMLPage.appendAccounting(report.stats, locale: locale, to: &out)
    HTMLPage.end(to: &out)
  }

  /// The states and their cards ("no transactions" when there are none),
  /// after a month index when there are more than `monthIndexThreshold`
  /// groups. `idPrefix` keeps ids unique on a page with several accounts;
  /// the state headings are `h<headingLevel>`, the cards' dates one level below.
  func appendSections<E: Error>(
    _ sections: [ReportSection], idPrefix: String, headingLevel: Int, to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    if sections.isEmpty {
      out.append(contentsOf: "<p class=\"empty\">".utf8)
      out.append(contentsOf: locale.noTransactions.utf8)
      out.append(contentsOf: "</p>\n".utf8)
      return
    }
    let indexed = sections.reduce(0) { $0 + $1.groups.count } > Self.monthIndexThreshold
    if indexed { appendMonthIndex(sections, idPrefix: idPrefix, to: &out) }
    for (index, section) in sections.enumerated() {
      let id = "\(idPrefix)state-\(index)"
      out.append(
        contentsOf:
          "<section class=\"state\" aria-labelledby=\"\(id)\">\n<h\(headingLevel) class=\"state\" id=\"\(id)\">".utf8)
      HTMLPage.appendEscaped(locale.sectionTitle(forState: section.state), to: &out)
      out.append(contentsOf: " <span class=\"count\">".utf8)
      locale.appendCounted(
        section.groups.count, singular: locale.groupSingular, plural: locale.groupPlural, to: &out)
      out.append(contentsOf: "</span></h\(headingLevel)>\n<div class=\"cards\">\n".utf8)
      var month = -1
      for group in section.groups {
        var anchor: String?
        if indexed {
          let (year, monthOfYear, _) = group.date.components
          if year * 12 + monthOfYear != month {
            month = year * 12 + monthOfYear
            anchor = Self.monthAnchor(idPrefix: idPrefix, section: index, year: year, month: monthOfYear)
          }
        }
        try appendCard(group, heading: "h\(headingLevel + 1)", anchor: anchor, to: &out, flush: flush)
      }
      out.append(contentsOf: "</div>\n</section>\n".utf8)
    }
  }

  /// `s0-2019-05`: the id of the first card of a month in a state's cards.
  static func monthAnchor(idPrefix: String, section: Int, year: Int, month: Int) -> String {
    let paddedMonth = month < 10 ? "0\(month)" : "\(month)"
    return "\(idPrefix)s\(section)-\(year)-\(paddedMonth)"
  }

  /// The month index: per state, a link to the first card of each month with
  /// its number of groups, folded into a `<details>` so that it never pushes
  /// the first card off a phone's first screen.
  private func appendMonthIndex(_ sections: [ReportSection], idPrefix: String, to out: inout [UInt8]) {
    out.append(contentsOf: "<nav class=\"months\" aria-label=\"".utf8)
    out.append(contentsOf: locale.htmlWords.months.utf8)
    out.append(contentsOf: "\"><details><summary>".utf8)
    out.append(contentsOf: locale.htmlWords.months.utf8)
    out.append(contentsOf: "</summary>\n<dl>\n".utf8)
    for (index, section) in sections.enumerated() {
      out.append(contentsOf: "<dt>".utf8)
      HTMLPage.appendEscaped(locale.sectionTitle(forState: section.state), to: &out)
      out.append(contentsOf: "</dt><dd><ul>".utf8)
      var months: [(year: Int, month: Int, groups: Int)] = []
      for group in section.groups {
        let (year, month, _) = group.date.components
        if let last = months.last, last.year == year, last.month == month {
          months[months.count - 1].groups += 1
        } else {
          months.append((year, month, 1))
        }
      }
      for entry in months {
        out.append(contentsOf: "<li><a href=\"#".utf8)
        out.append(
          contentsOf: Self.monthAnchor(idPrefix: idPrefix, section: index, year: entry.year, month: entry.month).utf8)
        out.append(contentsOf: "\">".utf8)
        locale.appendMonthYear(year: entry.year, month: entry.month, to: &out)
        out.append(contentsOf: "</a> <span class=\"count\">".utf8)
        locale.appendInteger(entry.groups, to: &out)
        out.append(contentsOf: "</span></li>".utf8)
      }
      out.append(contentsOf: "</ul></dd>\n".utf8)
    }
    out.append(contentsOf: "</dl>\n</details></nav>\n".utf8)
  }

  /// One group as a card, its date a heading of `level` (`h3`; `h4` under a
  /// per-account page's state headings).
  func appendCard<E: Error>(
    _ group: TransactionGroup, heading level: String = "h3", anchor: String? = nil, to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let debit = group.creditDebitIndicator == .debit
    let side = debit ? "out" : "in"
    out.append(contentsOf: "<article class=\"card \(side)\"".utf8)
    if let anchor { out.append(contentsOf: " id=\"\(anchor)\"".utf8) }
    out.append(contentsOf: ">\n<header><\(level)>".utf8)
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
        // No class on the label: it is a member's first child (`.members li>:first-child`), and
        // twenty thousand members make a class attribute 260 kB of a page.
        out.append(contentsOf: "<li><span>".utf8)
        if let description = member.description, !description.isEmpty {
          HTMLPage.appendBreakable(description, to: &out)
        } else {
          HTMLPage.appendID(member.id, to: &out)
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
