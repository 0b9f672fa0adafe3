/// Groups in-memory transactions the way `txfold group` groups a dump: what a
/// banking app calls on the transactions it has on screen.
///
/// ```swift
/// let report = try TransactionGrouping.group(transactions)
/// for section in report.sections {          // PENDING, then COMPLETED, …
///   for group in section.groups { … }       // most recent day first
/// }
/// ```
public enum TransactionGrouping {
  /// Why grouping failed.
  public enum Failure: Error, Sendable, Equatable {
    /// An exact total no longer fits in 128 bits.
    case sumOverflow(state: String, date: String, currency: String)
  }

  /// Groups `transactions` by (state, day, indicator) into ordered sections.
  ///
  /// - Parameters:
  ///   - memberLimit: members kept per group, the most recent (`Int.max`: all).
  ///   - dedupe: count transactions that share an id once: the latest, and on
  ///     a tie the later one in the array.
  ///   - zone: the zone days are taken in (`.asWritten` keeps dates as written).
  /// - Complexity: O(n + g log g) for n transactions in g groups.
  public static func group(
    _ transactions: [Transaction], memberLimit: Int = Int.max, dedupe: Bool = false, zone: ZoneResolver = .asWritten
  ) throws(Failure) -> GroupReport {
    let table = GroupTable(memberLimit: memberLimit)
    var stats = RunStats()
    stats.lines = transactions.count
    stats.accepted = transactions.count
    var chosen = transactions
    if dedupe {
      var winners: [String: Int] = [:]
      for (position, transaction) in transactions.enumerated() {
        if let current = winners[transaction.id],
          transaction.instant.compareInstant(transactions[current].instant) < 0
        {
          continue
        }
        winners[transaction.id] = position
      }
      chosen = winners.values.sorted().map { transactions[$0] }
      stats.duplicates = transactions.count - chosen.count
    }
    for transaction in chosen where !table.fold(transaction, zone: zone) {
      let found = table.overflow
      throw .sumOverflow(state: found?.state ?? "?", date: found?.date ?? "?", currency: found?.currency ?? "?")
    }
    return table.report(stats: stats)
  }
}
