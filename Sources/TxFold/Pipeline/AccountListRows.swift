/// A per-account list's rows on every core (`ListPipeline.runPerAccountRendered`):
/// the workers' entries (`ListChunkFolder`, rows rendered and an account
/// each), merged in account order and then in list order, handed out an
/// account at a time with the page applied to each, as `AccountListCursor`
/// hands out `Transaction`s — and written by the same writer
/// (`AccountListWriter.writeEntries`), so the bytes are that path's.
///
/// Each account's count comes from the runs' count entries
/// (`ListEntryLayout.writeCount`), which the merge hands out before the
/// account's first entry; the accounts are counted as they are read. Memory
/// holds no table of accounts: the counts are bounded by the memory limit
/// with the entries.
///
/// Holds the workers' sorted buffers and the runs on disk until it is read
/// to the end, closed or released; the spill directory goes with them.
package final class AccountListRows {
  /// The run's accounting; `accounts` is the number of accounts with a kept
  /// transaction (and, with `--changed-only`, `changedAccounts` those of them
  /// that changed), counted as they are read: complete once `nextAccount()`
  /// has returned `nil`.
  package private(set) var stats: RunStats
  /// The page each account shows.
  package let page: PageRequest
  private let rows: ListRows
  /// The accounts to write (`NightlyState.changedOnly`); `nil`: every one.
  private let changed: ChangedAccounts?
  /// The account being read, and whether its entries have ended.
  private var account: [UInt8] = []
  private var accountEnded = true
  /// The next entry, read as the account before ended or not yet handed out:
  /// valid until the entries are read on.
  private var pending: UnsafeRawPointer?
  private var window: PageWindow

  /// Sorted runs written to disk, intermediate merges included.
  package var spilledRuns: Int { rows.spilledRuns }
  /// The inputs read, which an overflowing sum names.
  package var inputs: [String]? { rows.inputs }

  init(rows: ListRows, changed: ChangedAccounts?, page: PageRequest) {
    var stats = rows.stats
    stats.accounts = 0
    if changed != nil { stats.changedAccounts = 0 }
    self.stats = stats
    self.rows = rows
    self.changed = changed
    self.page = page
    window = PageWindow(page)
  }

  /// The next account and how many of its transactions passed the filter
  /// (before paging), skipping what was left of the one before; `nil` after the last.
  package func nextAccount() throws(PipelineError) -> (account: [UInt8], matched: Int)? {
    while true {
      while try nextOfAccount() != nil {}
      // The account's count entries (one per run that holds it), added up.
      guard
        let matched = try ListRunCursor.startAccount(
          pending: &pending, account: &account, next: { () throws(PipelineError) in try rows.next() })
      else { return nil }
      accountEnded = false
      window = PageWindow(page)
      stats.accounts = (stats.accounts ?? 0) + 1
      if let changed {
        guard changed.contains(account) else { continue }
        stats.changedAccounts = (stats.changedAccounts ?? 0) + 1
      }
      return (account, matched.count)
    }
  }

  /// The current account's next entry on its page, valid until the next
  /// call; `nil` after the page's last (or before the first `nextAccount()`).
  package func next() throws(PipelineError) -> UnsafeRawPointer? {
    try window.next { () throws(PipelineError) in try nextOfAccount() }
  }

  /// The current account's next entry, page or not; `nil` after its last.
  private func nextOfAccount() throws(PipelineError) -> UnsafeRawPointer? {
    guard !accountEnded else { return nil }
    if pending == nil { pending = try rows.next() }
    guard let entry = pending, ListEntryLayout.account(entry).elementsEqual(account) else {
      accountEnded = true
      return nil
    }
    pending = nil
    return entry
  }

  /// Releases the buffers, the runs and the spill directory now.
  package func close() {
    pending = nil
    accountEnded = true
    rows.close()
  }
}

extension ListPipeline {
  /// Whether `runPerAccountRendered` can serve `format` with these options.
  package func rendersPerAccountInParallel(_ format: ReportFormat) -> Bool {
    return (format == .csv || format == .json || format == .jsonl) && options.read.accounts != .none
  }

  /// `runPerAccount(paths:)` for `csv`, `json` and `jsonl` on
  /// `options.threads` workers, which decode, filter and render each record
  /// into an entry with its account, sorted by account and then in list
  /// order (spilled past their share of `memoryLimit`); `nil` when the format
  /// or options need the `Transaction` path.
  ///
  /// - Complexity: O(input bytes) over the workers, O(n log n) for n rows kept;
  ///   memory O(`memoryLimit`); disk O(rows kept + accounts) when they exceed it.
  package func runPerAccountRendered(paths: [String], format: ReportFormat, zone: ZoneResolver)
    throws(PipelineError) -> AccountListRows?
  {
    guard rendersPerAccountInParallel(format) else { return nil }
    // The second pass's options: `--dedupe`'s first pass (and a night's) is done by then.
    let (pipeline, input) = try deduplicating(.paths(paths))
    let second = pipeline.options
    try AccountSort(
      read: second.read, filter: second.filter, dedupe: second.dedupe, memoryLimit: second.memoryLimit,
      temporaryDirectory: second.temporaryDirectory, maxFanIn: second.maxFanIn, counting: true
    ).check()
    var inputs = try input.runInputs()
    // No cut to the page's end: the page is each account's, not the list's.
    let job = ListRows.Job(
      read: pipeline.parallelReadOptions, names: inputs.names, filter: second.filter, keepFirst: nil,
      payload: .row(format == .csv ? .csv : .json), dayZone: zone, threads: second.threads,
      memoryLimit: second.memoryLimit, temporaryDirectory: second.temporaryDirectory, maxFanIn: second.maxFanIn,
      page: .all, onRejection: pipeline.onRejection, onProgress: pipeline.onProgress,
      onTemporaryDirectory: pipeline.onTemporaryDirectory)
    let rows = try ListRows.run(job) { () throws(PipelineError) in try inputs.next() }
    return AccountListRows(rows: rows, changed: second.read.nightly?.changedAccounts, page: second.page)
  }
}
