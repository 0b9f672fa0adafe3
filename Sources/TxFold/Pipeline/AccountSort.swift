/// The reading half of `list --per-account` and `summary --per-account`:
/// read → place in the zone → filter → external sort by (account, newest
/// first), in bounded memory.
///
/// Every transaction carries its account (`ReadOptions.accounts`), and
/// `ExternalSorter` orders by it first, so the merge hands out one account
/// after another; `AccountEntryStream` cuts the merge at account boundaries.
/// Memory holds the sort's run buffer (`memoryLimit`) and the merge's read
/// buffers; when `counting` (a list prints each account's count before its
/// transactions, and its `--output-dir` page the first and last day of
/// them, in the run's zone), the counts and days travel in the runs as
/// count entries (`AccountCountingRun`), added up as `AccountEntryStream`
/// starts each account — no table of accounts.
struct AccountSort {
  var read: ReadOptions
  var filter: TransactionFilter
  var dedupe: Bool
  var memoryLimit: Int
  var temporaryDirectory: String?
  var maxFanIn: Int
  /// Lead each account with its count and days (`AccountEntryStream.matched`, `days`).
  var counting: Bool
  /// Only this many transactions from the front of each account will be read (a list's page end).
  var keepFirstPerAccount: Int? = nil
  /// What of a transaction its reader uses, once it passed the filter: the
  /// rest is dropped before the sort holds, spills and merges it back.
  var kept: KeptText = .all

  /// The texts a reader of the sorted transactions uses.
  enum KeptText {
    /// Every field (a list prints them).
    case all
    /// A summary's: no description, and the category or counterparty only as its dimension.
    /// The id stays (the order's tie-break before the position).
    case summary(SummaryDimension)

    func trim(_ transaction: inout Transaction) {
      guard case .summary(let dimension) = self else { return }
      transaction.description = nil
      if dimension != .category { transaction.category = nil }
      if dimension != .counterparty { transaction.counterparty = nil }
    }
  }

  /// What the sort produced.
  struct Outcome {
    var sorted: SortedEntries
    var stats: RunStats
    var spilledRuns: Int
  }

  /// The options a per-account run needs, or the reason they do not do.
  func check() throws(PipelineError) {
    guard read.accounts != .none else {
      throw .invalidOptions("A per-account run needs read.accounts set to .field or .fileName.")
    }
    guard !dedupe else {
      throw .invalidOptions("dedupe cannot be combined with a per-account run.")
    }
    if read.lacksAccountMapping {
      throw .invalidOptions("The schema maps no account field; map one (CanonicalField.account).")
    }
  }

  func run(
    onTemporaryDirectory: ((String) -> Void)?,
    _ readAll: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(PipelineError) -> Outcome {
    try check()
    let sorter = ExternalSorter(
      memoryLimit: memoryLimit, temporaryParent: temporaryDirectory, keepFirst: nil, maxFanIn: maxFanIn,
      keepFirstPerAccount: keepFirstPerAccount, countsAccounts: counting, accountDayZone: filter.zone)
    sorter.onTemporaryDirectory = onTemporaryDirectory
    let keepsEverything = filter.keepsEverything
    let stats: RunStats
    do throws(TransactionReadError<SpillError>) {
      let kept = kept
      stats = try readAll { (transaction, position) throws(SpillError) in
        guard keepsEverything || filter.matches(transaction) else { return }
        guard case .all = kept else {
          var trimmed = transaction
          kept.trim(&trimmed)
          try sorter.add(trimmed, position: position)
          return
        }
        try sorter.add(transaction, position: position)
      }
    } catch {
      sorter.close()
      throw PipelineError(error)
    }
    do throws(SpillError) {
      let sorted = try sorter.finish()
      return Outcome(sorted: sorted, stats: stats, spilledRuns: sorter.spilledRuns)
    } catch {
      sorter.close()
      throw .spill(error)
    }
  }
}

/// The sorted entries of a per-account sort, one account at a time: a
/// one-entry look-ahead over the merge tells where an account ends.
///
/// With `changed` (`--changed-only`) it starts only the accounts that
/// changed tonight, passing over the others' entries: the one place where
/// the list and summary cursors skip them.
final class AccountEntryStream {
  private let sorted: SortedEntries
  private var pending: SortEntry?
  /// The account being read; `nil` before the first and after the last.
  private(set) var account: String?
  /// The account's count, from its count entries (`AccountSort.counting`; else 0).
  private(set) var matched = 0
  /// The first and last day of the account's counted transactions (`AccountSort.counting`; else `nil`).
  private(set) var days: DaySpan?
  /// The accounts to start (`NightlyState.changedAccounts`); `nil`: every one.
  let changed: ChangedAccounts?
  /// How many accounts were passed over (not in `changed`).
  private(set) var skipped = 0

  init(sorted: SortedEntries, changed: ChangedAccounts? = nil) {
    self.sorted = sorted
    self.changed = changed
  }

  /// Skips what is left of the current account and starts the next one
  /// (the next in `changed`, with it); `nil` after the last.
  func nextAccount() throws(SpillError) -> String? {
    while let account = try nextAnyAccount() {
      if changed?.contains(account) ?? true { return account }
      skipped += 1
    }
    return nil
  }

  /// `nextAccount()` whether the account changed or not.
  private func nextAnyAccount() throws(SpillError) -> String? {
    while try next() != nil {}
    var started = ""
    guard
      let matched = try SortRun.startAccount(
        pending: &pending, account: &started, next: { () throws(SpillError) in try sorted.next() })
    else {
      account = nil
      close()
      return nil
    }
    account = started
    self.matched = matched.count
    days = matched.days
    return account
  }

  /// The current account's next entry, or `nil` after its last.
  func next() throws(SpillError) -> SortEntry? {
    guard let entry = pending, let account, SortRun.isOf(entry, account: account) else { return nil }
    pending = try sorted.next()
    return entry
  }

  /// Releases the sort's temporary files.
  func close() {
    pending = nil
    sorted.close()
  }
}
