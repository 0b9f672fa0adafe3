/// The fixed words the `html` reports add to the text reports' words, per
/// language (`ReportLocale.htmlWords`; the languages' sets are in
/// ReportLocale+Languages.swift).
struct HTMLWords: Sendable, Hashable {
  /// The page title of `group` and `merge`.
  let groupTitle: String
  /// The page title of `list`.
  let listTitle: String
  /// The heading of the run's accounting.
  let accounting: String
  /// The chart's caption when it has one bar pair per day, and per month.
  let perDay: String
  let perMonth: String
  /// The chart's description for readers who cannot see it.
  let chartDescription: String
  /// The summary of the `<details>` element that shows the chart's figures.
  let showFigures: String
  /// Said instead of a chart whose sums do not fit in 128 bits.
  let tooLargeToChart: String
  /// The summary's note on how its bars are scaled.
  let scaledPerCurrency: String
  /// List column headings.
  let description: String
  let amount: String
  /// The month index's label.
  var months: String = "Months"
  /// The title of the per-account index (`--output-dir`), the link back to it, and its words.
  var accountsTitle: String = "Accounts"
  var allAccounts: String = "All accounts"
  var period: String = "Period"
  var sortBy: String = "Sort by"

}
