/// The accounts of a per-account list (`ListPipeline.runPerAccount(paths:)`),
/// in byte-wise order of their ids, and each account's page of transactions,
/// newest first.
///
/// `nextAccount()` starts an account (skipping what was left of the one
/// before); `next()` then hands out its page: `page.offset` of its
/// transactions skipped, at most `page.limit` shown — the page applies to
/// each account. Only accounts with at least one transaction that passed the
/// filter are listed; with `NightlyState.changedOnly`, only those of them
/// that changed tonight (`stats.changedAccounts` of `stats.accounts`).
/// Each account's count travels in the sort's runs (a count entry before its
/// transactions in every run), so memory holds no table of accounts, and the
/// accounts are counted as they are read. Holds the sort's temporary files
/// until it is read to the end, closed or released.
///
/// ```swift
/// let cursor = try ListPipeline(options: options).runPerAccount(paths: ["export.jsonl.gz"])
/// while let account = try cursor.nextAccount() {
///   print(account.account, account.matched)
///   while let transaction = try cursor.next() { print(transaction.id) }
/// }
/// ```
public final class AccountListCursor {
  /// The run's accounting; `accounts` is the number of accounts with a
  /// transaction that passed the filter (with `NightlyState.changedOnly`,
  /// `changedAccounts` those of them listed), counted as they are read:
  /// complete once `nextAccount()` has returned `nil`.
  public private(set) var stats: RunStats
  /// The page each account shows.
  public let page: PageRequest
  /// Sorted runs the sort wrote to disk (0 when it fit in memory).
  public let spilledRuns: Int
  /// The first and last day (in the run's zone) of the matching
  /// transactions of the account `nextAccount()` started, all pages: the
  /// period its `html` page names (`ListContext.days`), known before its first row.
  package var days: DaySpan? { stream.days }
  /// The inputs read, which an overflowing sum names.
  package var inputs: [String]?
  /// The zone the transactions are dated in (`Transaction.date`).
  private let zone: ZoneResolver
  private let stream: AccountEntryStream
  /// The accounts listed so far.
  private var listed = 0
  /// The current account's place in its page.
  private var window: PageWindow

  init(outcome: AccountSort.Outcome, page: PageRequest, zone: ZoneResolver, changed: ChangedAccounts? = nil) {
    var stats = outcome.stats
    stats.accounts = 0
    if changed != nil { stats.changedAccounts = 0 }
    self.stats = stats
    self.page = page
    self.zone = zone
    window = PageWindow(page)
    spilledRuns = outcome.spilledRuns
    stream = AccountEntryStream(sorted: outcome.sorted, changed: changed)
  }

  /// The next account and how many of its transactions passed the filter
  /// (before paging), or `nil` after the last.
  public func nextAccount() throws(PipelineError) -> (account: String, matched: Int)? {
    do throws(SpillError) {
      let account = try stream.nextAccount()
      if account != nil { listed += 1 }
      // `--changed-only`: the stream passed over the accounts that did not change.
      stats.accounts = listed + stream.skipped
      if stream.changed != nil { stats.changedAccounts = listed }
      guard let account else { return nil }
      window = PageWindow(page)
      return (account, stream.matched)
    } catch {
      close()
      throw .spill(error)
    }
  }

  /// The current account's next transaction on the page, dated in the list's zone
  /// (`Transaction.date`), or `nil` after the page's last (or before the first `nextAccount()`).
  public func next() throws(PipelineError) -> Transaction? {
    do throws(SpillError) {
      return try window.next(from: { () throws(SpillError) in try stream.next() }).map { zone.dating($0.transaction) }
    } catch {
      close()
      throw .spill(error)
    }
  }

  /// Releases the temporary files now.
  public func close() {
    stream.close()
  }
}

extension ListPipeline {
  /// Lists each account's transactions (`options.read.accounts` must not be
  /// `.none`; `options.dedupe` must be off): reads, filters and sorts every
  /// input by (account, newest first), then hands the accounts out in order
  /// with the page applied to each.
  ///
  /// - Complexity: O(n log n) for n records kept; memory O(`memoryLimit`);
  ///   disk O(records kept + accounts) when they exceed the budget — with a
  ///   `limit`, the sort cuts each account to its page end before spilling.
  public func runPerAccount(paths: [String]) throws(PipelineError) -> AccountListCursor {
    try runPerAccount(.paths(paths))
  }

  /// Lists each account's transactions from already opened sources, in order.
  public func runPerAccount(sources: [any ByteSource]) throws(PipelineError) -> AccountListCursor {
    try runPerAccount(.sources(sources))
  }

  private func runPerAccount(_ input: QueryInput) throws(PipelineError) -> AccountListCursor {
    let (pipeline, input) = try deduplicating(input)
    let cursor = try pipeline.runPerAccount(pipeline.reading(input))
    cursor.inputs = input.names
    return cursor
  }

  func runPerAccount(
    _ read: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(PipelineError) -> AccountListCursor {
    let sort = AccountSort(
      read: options.read, filter: options.filter, dedupe: options.dedupe, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, maxFanIn: options.maxFanIn, counting: true,
      // The cursor meets an account through its entries: one is kept even for a page that
      // shows none (`limit` 0), so every matching account is still listed, with `Shown 0 of N`.
      keepFirstPerAccount: options.page.end.map { max($0, 1) })
    let outcome = try sort.run(onTemporaryDirectory: onTemporaryDirectory, read)
    return AccountListCursor(
      outcome: outcome, page: options.page, zone: options.read.zone, changed: options.read.nightly?.changedAccounts)
  }
}
