/// The `html` reports' income and expense chart: per currency, one SVG with
/// a pair of bars per day — income up from the axis (solid), expense down
/// (hatched) — and the figures in a table under it.
///
/// Amounts in different currencies are not comparable, so each currency gets
/// its own chart: the currency with the most days of data first, full width,
/// then the others side by side (ties by code). When the days span more than 92 days, the
/// bars are per month instead, so a long dump still draws readable bars. A
/// slot without transactions draws nothing; the SVG holds one or two bars
/// per slot with data, so its size grows with the days shown, not with the
/// transactions.
///
/// Text alternatives: the SVG is `role="img"` with a `<title>` (the caption)
/// and a `<desc>` (how to read it, the first and last day); every bar has a
/// `<title>` (the day and amount, shown on hover); and a `<details>` element
/// holds the same figures as a table.
struct HTMLDailyChart {
  /// One currency's sums per day.
  private struct Series {
    var days: [CalendarDay: (income: ExactDecimal, expense: ExactDecimal)] = [:]
    var overflowed = false
  }

  private var series: [String: Series] = [:]
  /// Put before every `id` the chart writes, so that several charts can share a page
  /// (`account-0-` in a per-account list).
  var idPrefix = ""
  /// The level of the chart's heading: 2 on its own page, 3 inside an account's section.
  var headingLevel = 2
  /// The longest span drawn per day; longer spans are drawn per month.
  static let longestDailySpan: Int32 = 92
  /// Positions are in hundredths of a percent of the SVG's box (no
  /// `viewBox`), so the hatch pattern and the axis keep their pixel size at
  /// every width: the whole height and width are `fullScale`.
  private static let fullScale = 10_000
  /// The shortest bar drawn for a non-zero amount (0.5%), so a small amount stays visible.
  static let shortestBar = 50
  /// A bar's width, in tenths of its slot.
  private static let barTenths = 7

  init() {}

  /// A group report's chart, the same on its own page and on each account's
  /// page: every group's totals on its day, a debit as expense.
  init(sections: [ReportSection]) {
    for section in sections {
      for group in section.groups {
        let debit = group.creditDebitIndicator == .debit
        for total in group.totals {
          let direction = HTMLPage.Direction(magnitude: total.amount, debit: debit)
          guard direction != .none, total.amount.wide != .min else { continue }
          add(
            day: group.date, currency: total.currency, magnitude: total.amount.magnitude,
            income: direction == .income)
        }
      }
    }
  }

  /// Whether anything was added.
  var isEmpty: Bool { series.isEmpty }

  /// Adds `magnitude` (zero or more) as income or expense of `day` in `currency`.
  mutating func add(day: CalendarDay, currency: String, magnitude: ExactDecimal, income: Bool) {
    var entry = series[currency] ?? Series()
    var sums = entry.days[day] ?? (ExactDecimal.zero, ExactDecimal.zero)
    if income {
      if let sum = sums.income.adding(magnitude) { sums.income = sum } else { entry.overflowed = true }
    } else {
      if let sum = sums.expense.adding(magnitude) { sums.expense = sum } else { entry.overflowed = true }
    }
    entry.days[day] = sums
    series[currency] = entry
  }

  /// Adds a signed amount: positive is income, negative expense.
  mutating func add(day: CalendarDay, currency: String, signed amount: ExactDecimal) {
    guard !amount.isZero else { return }
    if amount.isNegative {
      // Written as magnitude digits: `0 - significand` of the smallest significand would trap.
      guard amount.wide != .min else {
        series[currency, default: Series()].overflowed = true
        return
      }
      add(day: day, currency: currency, magnitude: amount.magnitude, income: false)
    } else {
      add(day: day, currency: currency, magnitude: amount, income: true)
    }
  }

  /// Appends the charts, one `<figure>` per currency, in a `<section>`.
  func write<E: Error>(
    locale: ReportLocale, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    guard !series.isEmpty else { return }
    let words = locale.htmlWords
    let allDays = series.values.flatMap { $0.days.keys }
    guard let first = allDays.min(), let last = allDays.max() else { return }
    let daily = last.daysSinceEpoch - first.daysSinceEpoch < Self.longestDailySpan
    out.append(
      contentsOf:
        "<section class=\"chart\" aria-labelledby=\"\(idPrefix)chart-h\">\n<h\(headingLevel) id=\"\(idPrefix)chart-h\">"
        .utf8)
    out.append(contentsOf: (daily ? words.perDay : words.perMonth).utf8)
    out.append(contentsOf: "</h\(headingLevel)>\n".utf8)
    appendLegend(locale: locale, to: &out)
    out.append(contentsOf: "<div class=\"charts\">\n".utf8)
    let currencies = series.sorted { lhs, rhs in
      lhs.value.days.count != rhs.value.days.count
        ? lhs.value.days.count > rhs.value.days.count : lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
    }.map(\.key)
    for (index, currency) in currencies.enumerated() {
      guard let entry = series[currency] else { continue }
      try appendFigure(
        entry, currency: currency, index: index, daily: daily, first: first, last: last, locale: locale,
        to: &out, flush: flush)
    }
    out.append(contentsOf: "</div>\n</section>\n".utf8)
  }

  /// The swatches: solid for income, hatched for expense, each with its word and sign.
  func appendLegend(locale: ReportLocale, to out: inout [UInt8]) {
    let words = locale.queryWords
    out.append(contentsOf: "<p class=\"legend\"><span><span class=\"key in\"></span>+ ".utf8)
    out.append(contentsOf: words.income.utf8)
    out.append(contentsOf: "</span><span><span class=\"key out\"></span>- ".utf8)
    out.append(contentsOf: words.expense.utf8)
    out.append(contentsOf: "</span></p>\n".utf8)
  }

  private func appendFigure<E: Error>(
    _ entry: Series, currency: String, index: Int, daily: Bool, first: CalendarDay, last: CalendarDay,
    locale: ReportLocale, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let words = locale.htmlWords
    // Slots: days, or months when the span is long.
    var slots: [Int: (label: CalendarDay, income: ExactDecimal, expense: ExactDecimal)] = [:]
    var overflowed = entry.overflowed
    for (day, sums) in entry.days {
      let slot = daily ? Int(day.daysSinceEpoch - first.daysSinceEpoch) : Self.monthIndex(day) - Self.monthIndex(first)
      let label = daily ? day : Self.firstOfMonth(day)
      var current = slots[slot] ?? (label, .zero, .zero)
      if let income = current.income.adding(sums.income), let expense = current.expense.adding(sums.expense) {
        current.income = income
        current.expense = expense
      } else {
        overflowed = true
      }
      slots[slot] = current
    }
    let slotCount =
      (daily
        ? Int(last.daysSinceEpoch - first.daysSinceEpoch)
        : Self.monthIndex(last)
          - Self.monthIndex(first)) + 1
    var largestIncome = ExactDecimal.zero
    var largestExpense = ExactDecimal.zero
    for value in slots.values {
      if value.income.compare(largestIncome) > 0 { largestIncome = value.income }
      if value.expense.compare(largestExpense) > 0 { largestExpense = value.expense }
    }
    let range = largestIncome.adding(largestExpense)
    if range == nil { overflowed = true }

    let captionID = "\(idPrefix)chart-\(index)"
    out.append(contentsOf: "<figure aria-labelledby=\"\(captionID)\">\n<figcaption id=\"\(captionID)\">".utf8)
    HTMLPage.appendEscaped(currency, to: &out)
    out.append(contentsOf: "</figcaption>\n".utf8)
    if overflowed {
      out.append(contentsOf: "<p class=\"note\">".utf8)
      out.append(contentsOf: words.tooLargeToChart.utf8)
      out.append(contentsOf: "</p>\n</figure>\n".utf8)
      return
    }
    let total = range ?? .zero
    let full = Self.fullScale
    let axis = Self.scaled(largestIncome, of: total, units: full)
    let barWidth = max(1, full * Self.barTenths / 10 / slotCount)
    out.append(
      contentsOf: "<svg class=\"chart\" role=\"img\" aria-labelledby=\"\(captionID)-t \(captionID)-d\">\n".utf8)
    out.append(contentsOf: "<title id=\"\(captionID)-t\">".utf8)
    out.append(contentsOf: (daily ? words.perDay : words.perMonth).utf8)
    out.append(contentsOf: ", ".utf8)
    HTMLPage.appendEscaped(currency, to: &out)
    out.append(contentsOf: "</title>\n<desc id=\"\(captionID)-d\">".utf8)
    out.append(contentsOf: words.chartDescription.utf8)
    out.append(.space)
    appendLabel(first, daily: daily, locale: locale, to: &out)
    out.append(contentsOf: " – ".utf8)
    appendLabel(last, daily: daily, locale: locale, to: &out)
    out.append(contentsOf: "</desc>\n".utf8)
    let ordered = slots.sorted { $0.key < $1.key }
    for (slot, value) in ordered {
      let x = Self.percent(slot * full / slotCount + (full / slotCount - barWidth) / 2)
      // Income stands on the axis, reaching up; expense hangs from it.
      for direction in [HTMLPage.Direction.income, .expense] {
        let amount = direction == .income ? value.income : value.expense
        if amount.isZero { continue }
        let height = max(Self.shortestBar, Self.scaled(amount, of: total, units: full))
        let top = direction == .income ? axis - height : axis
        out.append(contentsOf: "<rect class=\"\(direction.cssClass)\" x=\"\(x)\" y=\"\(Self.percent(top))\"".utf8)
        out.append(contentsOf: " width=\"\(Self.percent(barWidth))\" height=\"\(Self.percent(height))\"><title>".utf8)
        appendLabel(value.label, daily: daily, locale: locale, to: &out)
        out.append(contentsOf: ": ".utf8)
        HTMLPage.appendMoneyText(amount, currency: currency, direction: direction, locale: locale, to: &out)
        out.append(contentsOf: "</title></rect>\n".utf8)
      }
      try ReportRenderer.flushIfFull(&out, flush)
    }
    let axisY = Self.percent(axis)
    out.append(contentsOf: "<line class=\"zero\" x1=\"0\" y1=\"\(axisY)\" x2=\"100%\" y2=\"\(axisY)\"/>\n</svg>\n".utf8)
    out.append(contentsOf: "<div class=\"axis\" aria-hidden=\"true\"><span>".utf8)
    appendLabel(first, daily: daily, locale: locale, to: &out)
    out.append(contentsOf: "</span><span>".utf8)
    appendLabel(last, daily: daily, locale: locale, to: &out)
    out.append(contentsOf: "</span></div>\n".utf8)

    // The same figures as a table.
    let query = locale.queryWords
    out.append(contentsOf: "<details><summary>".utf8)
    out.append(contentsOf: words.showFigures.utf8)
    out.append(contentsOf: "</summary>\n<table>\n<thead><tr><th scope=\"col\">".utf8)
    out.append(contentsOf: ((daily ? query.keyHeadings[.day] : query.keyHeadings[.month]) ?? "").utf8)
    out.append(contentsOf: "</th><th scope=\"col\" class=\"num\">".utf8)
    out.append(contentsOf: query.income.utf8)
    out.append(contentsOf: "</th><th scope=\"col\" class=\"num\">".utf8)
    out.append(contentsOf: query.expense.utf8)
    out.append(contentsOf: "</th></tr></thead>\n<tbody>\n".utf8)
    for (_, value) in ordered {
      out.append(contentsOf: "<tr><th scope=\"row\">".utf8)
      appendLabel(value.label, daily: daily, locale: locale, to: &out)
      out.append(contentsOf: "</th><td class=\"num\">".utf8)
      HTMLPage.appendMoney(
        value.income, currency: currency, direction: HTMLPage.Direction(signed: value.income), locale: locale,
        to: &out)
      out.append(contentsOf: "</td><td class=\"num\">".utf8)
      HTMLPage.appendMoney(
        value.expense, currency: currency, direction: value.expense.isZero ? .none : .expense,
        locale: locale, to: &out)
      out.append(contentsOf: "</td></tr>\n".utf8)
      try ReportRenderer.flushIfFull(&out, flush)
    }
    out.append(contentsOf: "</tbody>\n</table>\n</details>\n</figure>\n".utf8)
  }

  /// A slot's label: the long date, or the month and year.
  private func appendLabel(_ day: CalendarDay, daily: Bool, locale: ReportLocale, to out: inout [UInt8]) {
    if daily {
      locale.appendLongDate(day, to: &out)
    } else {
      let (year, month, _) = day.components
      locale.appendMonthYear(year: year, month: month, to: &out)
    }
  }

  private static func monthIndex(_ day: CalendarDay) -> Int {
    let (year, month, _) = day.components
    return year * 12 + month - 1
  }

  private static func firstOfMonth(_ day: CalendarDay) -> CalendarDay {
    let (year, month, _) = day.components
    return CalendarDay(year: year, month: month, day: 1)
  }

  /// Hundredths of a percent as an SVG length: `1234` is `12.34%`.
  static func percent(_ hundredths: Int) -> String {
    let clamped = min(max(hundredths, 0), fullScale)
    let fraction = clamped % 100
    return "\(clamped / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
  }

  /// `value` as a share of `maximum` in `units` (rounded, exact arithmetic).
  static func scaled(_ value: ExactDecimal, of maximum: ExactDecimal, units: Int) -> Int {
    // The text chart's bar length is in eighths of a column: ask for `units` eighths.
    let eighths = SummaryTextWriter.eighths(value, of: maximum, width: (units + 7) / 8)
    return min(units, eighths)
  }
}
