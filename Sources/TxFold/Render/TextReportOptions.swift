/// How the `text` format presents numbers, dates, words and colours (and
/// what an `html` page names as its source).
///
/// The machine formats (`json`, `jsonl`, `csv`) ignore these options: they are
/// locale-independent and never coloured.
public struct TextReportOptions: Sendable, Hashable {
  /// The language of numbers, long dates and the report's fixed words.
  public var locale: ReportLocale
  /// Whether to emit ANSI colour and bold escapes. The CLI sets this only when
  /// standard output is a terminal and `NO_COLOR` is unset; with `false` the
  /// report contains no escape byte at all.
  public var color: Bool
  /// The line width long descriptions are cut to, ending in `…`; `nil`
  /// never cuts. The CLI passes the terminal's width (`COLUMNS`, else the
  /// terminal's, else 80), and `nil` for `--wide`. A summary's bar chart
  /// fills this width (80 columns when it is `nil`). A width over
  /// `maximumWidth` is taken as `maximumWidth`, a negative one as 0.
  public var width: Int?
  /// The colours of income and expense when `color` is on (`--theme`).
  package var theme: ColorTheme
  /// What the report was made from (the input file's name, say), which an
  /// `html` page names in its title and heading; `nil` names nothing. The CLI
  /// passes the inputs' file names (`standard input` for `-`).
  public var source: String?

  /// The widest line a text report cuts to or fills, in columns: wider than any
  /// terminal, and small enough that a chart line stays a few kilobytes whatever
  /// width a caller (or a hostile `COLUMNS`) asks for.
  public static let maximumWidth = 1_000

  /// `width` within `0...maximumWidth`, the one place the writers take it from.
  package static func bounded(_ width: Int) -> Int { min(max(width, 0), maximumWidth) }

  /// Creates options; the defaults suit a plain file in English.
  public init(locale: ReportLocale = .english, color: Bool = false, width: Int? = nil, source: String? = nil) {
    self.init(locale: locale, color: color, width: width, theme: .standard, source: source)
  }

  /// Creates options with the colours of `theme`.
  package init(locale: ReportLocale, color: Bool, width: Int?, theme: ColorTheme, source: String?) {
    self.locale = locale
    self.color = color
    self.width = width
    self.theme = theme
    self.source = source
  }
}
