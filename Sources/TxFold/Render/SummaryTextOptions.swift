/// How the `summary` text report presents numbers, words, colours and its chart.
public struct SummaryTextOptions: Sendable, Hashable {
  /// The language of numbers, dates and words.
  public var locale: ReportLocale
  /// Whether to emit ANSI colour escapes (the CLI: on a terminal without `NO_COLOR`).
  public var color: Bool
  /// The line width the bar chart fills: the terminal's width (80 off a terminal).
  public var width: Int
  /// The colours of income and expense when `color` is on.
  public var theme: ColorTheme
  /// What the summary was made from, named by an `html` page (`TextReportOptions.source`).
  public var source: String?

  /// Creates options; the defaults suit a plain file in English.
  public init(
    locale: ReportLocale = .english, color: Bool = false, width: Int = 80, theme: ColorTheme = .standard,
    source: String? = nil
  ) {
    self.locale = locale
    self.color = color
    self.width = width
    self.theme = theme
    self.source = source
  }
}
