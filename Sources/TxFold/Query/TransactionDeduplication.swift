/// Deduplication of in-memory transactions.
enum TransactionDeduplication {
  /// The latest transaction per id: the latest instant wins, and on a tie the
  /// later one in the array (how a `PENDING` record re-exported as `COMPLETED`
  /// counts once, in its final state). The winners keep their array order.
  ///
  /// - Complexity: O(n) expected; memory O(distinct ids).
  static func latestPerID(_ transactions: [Transaction]) -> (kept: [Transaction], duplicates: Int) {
    var table = LatestPerID<Void>()
    for (position, transaction) in transactions.enumerated() {
      table.offer(id: Array(transaction.id.utf8), instant: transaction.instant, position: position, payload: ())
    }
    let kept = table.winners.values.map(\.position).sorted().map { transactions[$0] }
    return (kept, table.duplicates)
  }
}
