/// How the `summary` text report presents numbers, words, colours and its chart.
package struct SummaryTextOptions: Sendable, Hashable {
  /// The language of numbers, dates and words.
  package var locale: ReportLocale
  /// Whether to emit ANSI colour escapes (the CLI: on a terminal without `NO_COLOR`).
  package var color: Bool
  /// The line width the bar chart fills: the terminal's width (80 off a terminal),
  /// bounded as `TextReportOptions.width` is.
  package var width: Int
  /// The colours of income and expense when `color` is on.
  package var theme: ColorTheme
  /// What the summary was made from, named by an `html` page (`TextReportOptions.source`).
  package var source: String?
  /// The first and last day of the transactions summed, which an `html`
  /// page names as its period (`DatedSummary.days`; `nil`: none named).
  package var days: DaySpan?

  /// Creates options; the defaults suit a plain file in English.
  package init(
    locale: ReportLocale = .english, color: Bool = false, width: Int = 80, theme: ColorTheme = .standard,
    source: String? = nil, days: DaySpan? = nil
  ) {
    self.days = days
    self.locale = locale
    self.color = color
    self.width = width
    self.theme = theme
    self.source = source
  }
}

extension SummaryTextOptions {
  /// The summary's options from the public text options: the bar chart fills
  /// `width`, 80 columns when it is `nil`.
  init(_ options: TextReportOptions) {
    self.init(
      locale: options.locale, color: options.color, width: options.width ?? 80, theme: options.theme,
      source: options.source)
  }
}
