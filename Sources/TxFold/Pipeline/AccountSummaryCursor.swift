/// The accounts of a per-account summary
/// (`SummaryPipeline.runPerAccount(paths:)`), one at a time in byte-wise
/// order of their ids, each summarised over its own transactions.
///
/// The transactions were sorted by account (in runs on disk past
/// `memoryLimit`); each `next()` folds one account's transactions from the
/// merge, so memory holds the merge's buffers and one account's keys. On
/// every core the workers sorted entries (`ListChunkFolder`, `EntryPayload.summaryKey`:
/// the record's key, currency and amount), read here through `ListRows`;
/// the one-by-one oracle sorts `Transaction`s (`AccountSort`). Both come in
/// the same order, so they sum alike.
/// Accounts without a transaction that passed the filter are not listed;
/// with `NightlyState.changedOnly`, nor are those that did not change tonight.
///
/// ```swift
/// let cursor = try SummaryPipeline(options: options).runPerAccount(paths: ["export.jsonl.gz"])
/// while let account = try cursor.next() { print(account.account, account.report.totals) }
/// ```
public final class AccountSummaryCursor {
  /// The run's accounting; `accounts` is set once `next()` returned `nil`.
  public private(set) var stats: RunStats
  /// Sorted runs the sort wrote to disk (0 when it fit in memory).
  public let spilledRuns: Int
  /// The first and last day (in the run's zone) of the transactions of
  /// the account `next()` handed out last: the period its `html` page names
  /// (`DatedSummary.days` of a summary over that account alone).
  package private(set) var days: DaySpan?
  /// The inputs read, which an overflowing sum names.
  package var inputs: [String]?
  private let source: Source
  private let dimension: SummaryDimension
  private let zone: ZoneResolver
  private var accounts = 0
  /// The summing thread's latest batch and the next of its accounts to hand out.
  private var batch = SummedAccounts()
  private var batchIndex = 0

  private enum Source {
    case transactions(AccountEntryStream)
    /// Accounts summed from the workers' entries on a thread of their own, a batch at a time.
    case entries(AccountPrefetcher<SummedAccounts>, AccountEntrySummer)
  }

  init(outcome: AccountSort.Outcome, dimension: SummaryDimension, zone: ZoneResolver, changed: ChangedAccounts? = nil) {
    stats = outcome.stats
    spilledRuns = outcome.spilledRuns
    source = .transactions(AccountEntryStream(sorted: outcome.sorted, changed: changed))
    self.dimension = dimension
    self.zone = zone
  }

  init(entries: ListRows, dimension: SummaryDimension, zone: ZoneResolver, changed: ChangedAccounts?) {
    stats = entries.stats
    spilledRuns = entries.spilledRuns
    inputs = entries.inputs
    let summer = AccountEntrySummer(entries: entries, changed: changed)
    // Only the summing thread reads the entries (`stop()` waits for it).
    let owned = HandOff(summer)
    let prefetcher = AccountPrefetcher<SummedAccounts>(depth: 4, budget: .max, weight: { _ in 1 }) {
      () throws(PipelineError) -> SummedAccounts? in try owned.value.nextBatch()
    }
    source = .entries(prefetcher, summer)
    self.dimension = dimension
    self.zone = zone
  }

  deinit {
    // A cursor dropped before its end stops the summing thread, which would wait for room forever.
    if case .entries(let prefetcher, let summer) = source {
      prefetcher.stop()
      summer.close()
    }
  }

  /// The next account's summary (entries in the default expense order, as
  /// `SummaryPipeline.run` returns them), or `nil` after the last.
  public func next() throws(PipelineError) -> AccountSummary? {
    do throws(PipelineError) {
      switch source {
      case .transactions(let stream): return try next(from: stream)
      case .entries(let prefetcher, let summer): return try next(from: prefetcher, summer)
      }
    } catch {
      throw error.found(after: inputs)
    }
  }

  /// The next account of the summing thread's batches, its report made here
  /// (sorting its keys and cells is as much work as summing them).
  private func next(from prefetcher: AccountPrefetcher<SummedAccounts>, _ summer: AccountEntrySummer)
    throws(PipelineError) -> AccountSummary?
  {
    if batchIndex == batch.accounts.count {
      let next: SummedAccounts?
      do throws(PipelineError) {
        next = try prefetcher.next()
      } catch {
        close()
        throw error
      }
      guard let next else {
        // The summing thread is done: its count of accounts passed over is final.
        stats.accounts = accounts + summer.skipped.withLock { $0 }
        if summer.changed != nil { stats.changedAccounts = accounts }
        close()
        return nil
      }
      batch = next
      batchIndex = 0
    }
    let summary = batch.summary(batchIndex, dimension: dimension, stats: stats)
    batchIndex += 1
    accounts += 1
    days = batch.accounts[batchIndex - 1].days
    return summary
  }

  /// The next account summed from the sorted transactions.
  private func next(from stream: AccountEntryStream) throws(PipelineError) -> AccountSummary? {
    var accumulator = SummaryAccumulator(dimension: dimension, zone: zone)
    var count = 0
    var overflow: SumOverflow?
    let account: String
    do throws(SpillError) {
      guard let next = try stream.nextAccount() else {
        // `--changed-only`: the accounts `AccountEntryStream` passed over are the run's too.
        stats.accounts = accounts + stream.skipped
        if stream.changed != nil { stats.changedAccounts = accounts }
        return nil
      }
      account = next
      while overflow == nil, let entry = try stream.next() {
        do throws(SumOverflow) {
          try accumulator.add(entry.transaction)
        } catch {
          overflow = error
        }
        count += 1
      }
    } catch {
      close()
      throw .spill(error)
    }
    if let overflow {
      close()
      throw .totalOverflow(overflow)
    }
    accounts += 1
    let dated = accumulator.dated(stats: stats)
    days = dated.days
    return AccountSummary(account: account, count: count, report: dated.report)
  }

  /// Releases the temporary files now.
  public func close() {
    batch = SummedAccounts()
    batchIndex = 0
    switch source {
    case .transactions(let stream): stream.close()
    case .entries(let prefetcher, let summer):
      prefetcher.stop()
      summer.close()
    }
  }
}

/// The summing half of a per-account summary on every core: the workers'
/// entries, sorted by account and then in list order (`ListRows`), summed
/// account by account (`AccountKeySums`, which adds as `SummaryAccumulator`
/// does) in the order a `Transaction` sort hands them out, so the sums, the
/// currencies' names and an overflow's key are that path's. Runs on one
/// thread (the cursor's prefetcher), a batch of accounts at a time; the
/// cursor's thread makes each account's report.
final class AccountEntrySummer {
  private let entries: ListRows
  /// The account being summed: its id and its sums.
  private var account: [UInt8] = []
  private let sums = AccountKeySums()
  /// The accounts to sum (`NightlyState.changedOnly`); `nil`: every one.
  let changed: ChangedAccounts?
  /// Accounts passed over (not in `changed`), read by the cursor once the last batch is taken.
  let skipped = LockedValue(0)
  /// The next account's first entry, read as the account before ended: valid
  /// until the entries are read on, which only this thread does.
  private var pending: UnsafeRawPointer?

  /// Accounts per batch handed to the cursor: one hand-over per account cost
  /// a lock and a wake-up each, about what summing a small account costs.
  static let batchSize = 256

  init(entries: ListRows, changed: ChangedAccounts?) {
    self.entries = entries
    self.changed = changed
  }

  /// The error that ended the accounts after a batch's last, thrown with the next batch.
  private var failure: PipelineError?

  /// The next accounts (at most `batchSize`), or `nil` after the last. The
  /// accounts before one that fails come first, as one by one they would.
  func nextBatch() throws(PipelineError) -> SummedAccounts? {
    if let failure { throw failure }
    var batch = SummedAccounts()
    do throws(PipelineError) {
      while batch.accounts.count < Self.batchSize, try next(into: &batch) {}
    } catch {
      guard !batch.accounts.isEmpty else { throw error }
      failure = error
    }
    return batch.accounts.isEmpty ? nil : batch
  }

  /// Sums the next account into `batch`; `false` after the last.
  private func next(into batch: inout SummedAccounts) throws(PipelineError) -> Bool {
    while true {
      var first = pending
      if first == nil { first = try entries.next() }
      guard let first else {
        pending = nil
        return false
      }
      pending = nil
      // Copied: the entry's bytes are valid only until the entries are read on.
      account.removeAll(keepingCapacity: true)
      account.append(contentsOf: ListEntryLayout.account(first))
      guard changed?.contains(account) ?? true else {
        skipped.withLock { $0 += 1 }
        while let entry = try entries.next() {
          if !isAccount(entry) {
            pending = entry
            break
          }
        }
        continue
      }
      sums.startAccount()
      var entry: UnsafeRawPointer? = first
      while let current = entry {
        do throws(SumOverflow) {
          try sums.add(
            ListEntryLayout.amount(current), currency: ListEntryLayout.currency(current),
            payload: ListEntryLayout.row(current))
        } catch {
          throw .totalOverflow(error)
        }
        entry = try entries.next()
        if let next = entry, !isAccount(next) {
          pending = next
          break
        }
      }
      account.withUnsafeBytes { sums.finishAccount($0, to: &batch) }
      return true
    }
  }

  /// Whether `entry` is of the account being summed.
  @inline(__always)
  private func isAccount(_ entry: UnsafeRawPointer) -> Bool {
    let bytes = ListEntryLayout.account(entry)
    return bytes.count == account.count
      && account.withUnsafeBytes { ListEntryLayout.compareBytes(bytes, $0) == 0 }
  }

  /// Releases the entries' buffers and temporary files (once the summing thread stopped).
  func close() {
    pending = nil
    entries.close()
  }
}

extension SummaryPipeline {
  /// Summarises each account (`options.read.accounts` must not be `.none`;
  /// `options.dedupe` must be off): reads, filters and sorts every input by
  /// account in bounded memory, then folds one account at a time.
  ///
  /// - Complexity: O(n log n) for n records kept; memory O(`memoryLimit` +
  ///   one account's keys); disk O(records kept) when they exceed the budget.
  public func runPerAccount(paths: [String]) throws(PipelineError) -> AccountSummaryCursor {
    try runPerAccount(.paths(paths))
  }

  /// Summarises each account of already opened sources, in order.
  public func runPerAccount(sources: [any ByteSource]) throws(PipelineError) -> AccountSummaryCursor {
    try runPerAccount(.sources(sources))
  }

  /// `runPerAccount(sources:)` one `Transaction` at a time, sorted by
  /// `AccountSort`: the oracle the parallel path is tested against.
  func runPerAccountOneByOne(sources: [any ByteSource]) throws(PipelineError) -> AccountSummaryCursor {
    let (pipeline, input) = try deduplicating(.sources(sources))
    return try pipeline.runPerAccountOneByOne(input)
  }

  func runPerAccount(_ input: QueryInput) throws(PipelineError) -> AccountSummaryCursor {
    let (pipeline, input) = try deduplicating(input)
    try pipeline.perAccountSort.check()
    var inputs = try input.runInputs()
    return try pipeline.runPerAccountParallel(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  private func runPerAccountOneByOne(_ input: QueryInput) throws(PipelineError) -> AccountSummaryCursor {
    let cursor = try runPerAccount(reading(input))
    cursor.inputs = input.names
    return cursor
  }

  /// The per-account sort's settings.
  private var perAccountSort: AccountSort {
    var sort = AccountSort(
      read: options.read, filter: options.filter, dedupe: options.dedupe, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, maxFanIn: options.maxFanIn, counting: false)
    sort.kept = .summary(options.dimension)
    return sort
  }

  /// `runPerAccount` on `options.threads` workers, which decode, filter and
  /// key each record straight from its bytes into entries sorted by account
  /// (spilled past their share of `memoryLimit`), as the parallel list does.
  func runPerAccountParallel(names: [String], next: () throws(PipelineError) -> (any ByteSource)?)
    throws(PipelineError) -> AccountSummaryCursor
  {
    var read = options.read
    // As `TransactionReader`: records without an id take their position (the order's tie-break).
    read.countPositions = true
    let job = ListRows.Job(
      read: read, names: names, filter: options.filter, keepFirst: nil, payload: .summaryKey(options.dimension),
      dayZone: options.read.zone, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, maxFanIn: options.maxFanIn, page: .all,
      onRejection: onRejection, onProgress: onProgress, onTemporaryDirectory: onTemporaryDirectory)
    return AccountSummaryCursor(
      entries: try ListRows.run(job, next: next), dimension: options.dimension, zone: options.read.zone,
      changed: options.read.nightly?.changedAccounts)
  }

  func runPerAccount(
    _ read: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(PipelineError) -> AccountSummaryCursor {
    let outcome = try perAccountSort.run(onTemporaryDirectory: onTemporaryDirectory, read)
    return AccountSummaryCursor(
      outcome: outcome, dimension: options.dimension, zone: options.read.zone,
      changed: options.read.nightly?.changedAccounts)
  }
}
