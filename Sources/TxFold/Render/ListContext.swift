/// What a list report says besides its transactions: the accounting, how
/// many matched, the page, and the zone its dates are taken in.
package struct ListContext: Sendable {
  /// The accounting of the run, for the report's stats.
  package var stats: RunStats
  /// Transactions that passed dedupe and the filter, before paging.
  package var matched: Int
  /// The page shown, which the report names.
  package var page: PageRequest
  /// The zone of each row's `date` (`.asWritten`: the date as written).
  package var zone: ZoneResolver
  /// The first and last day of the matching transactions (all pages), which
  /// an `html` list names as its period; `nil` when unknown or none matched.
  package var days: DaySpan?

  /// Creates the context of a list report.
  package init(
    stats: RunStats, matched: Int, page: PageRequest = .all, zone: ZoneResolver = .asWritten, days: DaySpan? = nil
  ) {
    self.days = days
    self.stats = stats
    self.matched = matched
    self.page = page
    self.zone = zone
  }
}
