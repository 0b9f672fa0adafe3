/// The order of a transaction list: newest first (Documentation/Formats.md, "`txfold list`"; the PAYBACK seed's
/// "sorted by bookingDate from newest to oldest", the ledger seed's "latest first").
///
/// A total order, so a list prints the same on every run, in memory or
/// through `ExternalSorter`:
///
/// 1. the absolute instant, later first (`…T10:00:00Z` and `…T12:00:00+02:00`
///    are the same instant and tie here);
/// 2. then `id` ascending, compared byte-wise as UTF-8 (not by Unicode
///    canonical equivalence, so the order never depends on normalisation);
/// 3. then the position in the input, earlier first.
///
/// Callers outside the package use it through `TransactionQuery.compare(_:_:)`,
/// `TransactionQuery.sorted(_:)` and `TransactionQuery.sortedPositions(_:)`.
@usableFromInline package enum TransactionOrder {
  /// Three-way comparison by instant (later first), then id (byte-wise):
  /// negative when `lhs` comes first, 0 when only the input position can tell.
  @inlinable
  public static func compare(_ lhs: Transaction, _ rhs: Transaction) -> Int {
    let byInstant = lhs.instant.compareInstant(rhs.instant)
    if byInstant != 0 { return -byInstant }
    return compareUTF8(lhs.id, rhs.id)
  }

  /// The total order: `compare(_:_:)`, then the input position (earlier first).
  @inlinable
  public static func precedes(
    _ lhs: Transaction, position lhsPosition: Int, _ rhs: Transaction, position rhsPosition: Int
  )
    -> Bool
  {
    let order = compare(lhs, rhs)
    return order != 0 ? order < 0 : lhsPosition < rhsPosition
  }

  /// The transactions newest first; ties keep their order in the array.
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sorted(_ transactions: [Transaction]) -> [Transaction] {
    sortedPositions(transactions).map { transactions[$0] }
  }

  /// The array's indices in newest-first order (ties by index).
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sortedPositions(_ transactions: [Transaction]) -> [Int] {
    transactions.indices.sorted { precedes(transactions[$0], position: $0, transactions[$1], position: $1) }
  }

  /// Three-way byte-wise comparison of two strings' UTF-8 (which is also
  /// Unicode scalar order).
  @inlinable
  public static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
    var left = lhs.utf8.makeIterator()
    var right = rhs.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
      }
    }
  }
}
