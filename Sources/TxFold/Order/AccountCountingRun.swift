/// A sorted run of a per-account list, which carries each account's count:
/// the one implementation of *count entries*, for both sorts that list
/// accounts (the parallel list's `ListRunCursor`, the `Transaction` sort's
/// `SortRun`).
///
/// A list prints each account's count (its transactions that passed the
/// filter, before the page) before the account's transactions, so the count
/// must be known when the merge hands out the account's first entry, and so
/// must the first and last day of those transactions, which the account's
/// `--output-dir` page names in its head (`AccountTally`). Rather
/// than a table of every account in memory, every run holds a *count entry*
/// before each of its accounts' entries: the transactions of the account the
/// run stands for (the entries that follow it, and any a cut to the page's
/// end dropped) and, where the sort keeps them, their first and last day.
/// A count entry has the latest instant an entry can have, so
/// it sorts before every entry of its account, in a run and in any merge of
/// runs: when an account's first entry comes out of a merge, every run's
/// count entry of that account came out before it.
///
/// - A merge into a new run adds the count entries of an account into one
///   (`copyAddingCounts`): one entry per account and run on disk; counts
///   add, spans of days merge.
/// - A reader adds them up as it starts the account (`startAccount`).
///
/// Worked example: run A holds [count a1 2, a1 e1, a1 e2], run B
/// [count a1 1, a1 e3, count a2 1, a2 e4]; their merge hands out count a1 2,
/// count a1 1 (ties between count entries break by count), then e1… in list
/// order: a merge into a run writes [count a1 3, e1, e2, e3, count a2 1, e4],
/// and a reader starts a1 with 3.
protocol AccountCountingRun: MergeCursor {
  /// An account as a count is kept for it once the entry that named it is
  /// read past (its bytes copied, or a string held).
  associatedtype Account
  /// The count (and days) a count entry carries; `nil` for an entry of a transaction.
  static func tally(_ entry: Entry) -> AccountTally?
  /// Makes `account` the account of `entry`, reusing its storage.
  static func hold(accountOf entry: Entry, in account: inout Account)
  /// Whether `entry` is of `account`.
  static func isOf(_ entry: Entry, account: Account) -> Bool
}

extension AccountCountingRun {
  /// Hands `merge`'s entries to `write` in order, each account's count
  /// entries added into one, handed to `writeCount` before the account's
  /// first entry (or before the next account's, when a cut left it none);
  /// with `keepFirst`, stops after that many entries of transactions (a
  /// plain list's cut: its runs hold no count entries).
  static func copyAddingCounts(
    _ merge: KWayMerge<Self>, empty: Account, keepFirst: Int?, write: (Entry) throws(SpillError) -> Void,
    writeCount: (Account, AccountTally) throws(SpillError) -> Void
  ) throws(SpillError) where Failure == SpillError {
    // The account whose count entries are being added up: every run's come
    // out before any entry of it, so their sum is written before the first.
    // A count entry stands for at least one transaction: a count of 0 holds none.
    var account = empty
    var counted = AccountTally(count: 0)
    var kept = 0
    while let entry = try merge.next() {
      if let tally = tally(entry) {
        if counted.count > 0 && !isOf(entry, account: account) {
          try writeCount(account, counted)
          counted = AccountTally(count: 0)
        }
        if counted.count == 0 { hold(accountOf: entry, in: &account) }
        counted.add(tally)
        continue
      }
      if counted.count > 0 {
        try writeCount(account, counted)
        counted = AccountTally(count: 0)
      }
      if let keepFirst, kept >= keepFirst { return }
      kept += 1
      try write(entry)
    }
    if counted.count > 0 { try writeCount(account, counted) }
  }

  /// Starts the account of the next entry of a merge of such runs: `pending`
  /// (read from `next` when `nil`) is its first; its count entries (one per
  /// run that holds it) are read past and added up. Returns the account's
  /// count and days, with `account` held and `pending` at its first entry of
  /// a transaction (or the next account's first, or `nil`); `nil` after the
  /// last account. Runs without count entries start each account at 0, no days.
  static func startAccount<E: Error>(
    pending: inout Entry?, account: inout Account, next: () throws(E) -> Entry?
  ) throws(E) -> AccountTally? {
    if pending == nil { pending = try next() }
    guard let first = pending else { return nil }
    hold(accountOf: first, in: &account)
    var matched = AccountTally(count: 0)
    while let entry = pending, let tally = tally(entry), isOf(entry, account: account) {
      matched.add(tally)
      pending = try next()
    }
    return matched
  }
}
