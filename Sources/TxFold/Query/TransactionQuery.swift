/// A list as the seeds' screens show it, on transactions in memory:
/// deduplicate, filter, sort newest first, then take a page.
///
/// The steps run in that order, which is also `txfold list`'s:
///
/// 1. **dedupe** (when on): one transaction per id, the latest (on a tie the
///    later in the array), chosen among *all* transactions, so a `PENDING`
///    record superseded by its `COMPLETED` re-export is gone even under
///    `--state PENDING`;
/// 2. **filter** (`TransactionFilter`);
/// 3. **sort** newest first (`TransactionQuery.compare(_:_:)`, also usable on its own);
/// 4. **page** (`PageRequest`).
///
/// With a `--timezone` zone in the filter, offset-less times are placed in it
/// first (`ZoneResolver.placed(_:)`), so "latest" means the same as in the
/// zone's days; the returned transactions carry the placed instants (their
/// written form is unchanged) and their day in the zone (`Transaction.date`).
///
/// ```swift
/// // The tech-challenge seed: the Food button, and the sum of what it shows.
/// let food = TransactionQuery(filter: TransactionFilter(categories: ["Food"])).run(transactions)
/// let sum = try SelectionSum.of(food.transactions)
/// ```
public struct TransactionQuery: Sendable {
  /// Which transactions pass (step 2).
  public var filter: TransactionFilter
  /// Keep one transaction per id (see step 1).
  public var dedupe: Bool
  /// Which slice of the newest-first order comes back (step 4).
  public var page: PageRequest

  /// Creates a query; by default every transaction, newest first, no dedupe.
  public init(filter: TransactionFilter = TransactionFilter(), dedupe: Bool = false, page: PageRequest = .all) {
    self.filter = filter
    self.dedupe = dedupe
    self.page = page
  }

  /// Runs the query.
  ///
  /// - Complexity: O(n log n) for n transactions; memory O(n).
  public func run(_ transactions: [Transaction]) -> TransactionQueryResult {
    var chosen = transactions
    if filter.zone.zone != nil {
      for index in chosen.indices {
        chosen[index].instant = filter.zone.placed(chosen[index].instant)
        chosen[index] = filter.zone.dating(chosen[index])
      }
    }
    var duplicates = 0
    if dedupe { (chosen, duplicates) = TransactionDeduplication.latestPerID(chosen) }
    if !filter.keepsEverything { chosen = chosen.filter(filter.matches) }
    let sorted = TransactionOrder.sorted(chosen)
    return TransactionQueryResult(
      transactions: Array(page.apply(sorted)), matched: sorted.count, duplicates: duplicates, latest: sorted.first)
  }
}

/// The list's order on its own: newest first, a total order, so a list prints
/// the same on every run, in memory or through a sort that spills to disk
/// (Documentation/Formats.md, "`txfold list`"):
///
/// 1. the absolute instant, later first (`…T10:00:00Z` and `…T12:00:00+02:00`
///    are the same instant and tie here);
/// 2. then `id` ascending, compared byte-wise as UTF-8 (not by Unicode
///    canonical equivalence, so the order never depends on normalisation);
/// 3. then what the row shows, so that records sharing an instant and an id
///    (a `PENDING` copy and its `COMPLETED` copy) come in one order whatever
///    the order of the input: the instant as written, the state, the
///    indicator (`CRDT` first), the amount (smaller first, then fewer
///    fraction digits), the currency, the fee (none first), the description,
///    the category and the counterparty (each absent first), texts byte-wise;
///    then the account (none first);
/// 4. then the position in the input (in an array, the index), earlier first:
///    only transactions equal in all of the above get there.
///
/// ```swift
/// let newestFirst = TransactionQuery.sorted(transactions)
/// let first = transactions.min { TransactionQuery.compare($0, $1) < 0 }
/// ```
extension TransactionQuery {
  /// Three-way comparison in list order by instant (later first), then id
  /// (byte-wise), then what the row shows and the account: negative when
  /// `lhs` comes first, 0 when only the input position can tell.
  public static func compare(_ lhs: Transaction, _ rhs: Transaction) -> Int {
    TransactionOrder.compare(lhs, rhs)
  }

  /// The transactions in list order, newest first; transactions equal in all the order
  /// compares keep their order in the array.
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sorted(_ transactions: [Transaction]) -> [Transaction] {
    TransactionOrder.sorted(transactions)
  }

  /// The array's indices in list order (transactions equal in all the order compares by index).
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sortedPositions(_ transactions: [Transaction]) -> [Int] {
    TransactionOrder.sortedPositions(transactions)
  }
}
