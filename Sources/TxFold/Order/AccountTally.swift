/// What an account's count entries say of it (`AccountCountingRun`): how
/// many of its transactions passed the filter, and the first and last day
/// of them, which its `list --output-dir` page names as its period — both
/// known before the account's first transaction comes out of the merge.
package struct AccountTally: Sendable, Equatable {
  /// The account's transactions.
  package var count: Int
  /// Their first and last day in the list's zone; `nil` where the runs
  /// carry no days (the parallel list's, whose csv, json and jsonl name no period).
  package var days: DaySpan?

  /// The tally of `count` transactions on `days`.
  package init(count: Int, days: DaySpan? = nil) {
    self.count = count
    self.days = days
  }

  /// Adds another count entry's transactions and days.
  @inline(__always)
  package mutating func add(_ other: AccountTally) {
    count += other.count
    days.merge(other.days)
  }
}
