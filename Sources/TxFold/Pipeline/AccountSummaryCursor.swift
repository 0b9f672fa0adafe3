/// The accounts of a per-account summary
/// (`SummaryPipeline.runPerAccount(paths:)`), one at a time in byte-wise
/// order of their ids, each summarised over its own transactions.
///
/// The transactions were sorted by account (in runs on disk past
/// `memoryLimit`); each `next()` folds one account's transactions from the
/// merge, so memory holds the merge's buffers and one account's keys.
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
  private let stream: AccountEntryStream
  private let dimension: SummaryDimension
  private let zone: ZoneResolver
  private var accounts = 0

  init(outcome: AccountSort.Outcome, dimension: SummaryDimension, zone: ZoneResolver, changed: ChangedAccounts? = nil) {
    stats = outcome.stats
    spilledRuns = outcome.spilledRuns
    stream = AccountEntryStream(sorted: outcome.sorted, changed: changed)
    self.dimension = dimension
    self.zone = zone
  }

  /// The next account's summary (entries in the default expense order, as
  /// `SummaryPipeline.run` returns them), or `nil` after the last.
  public func next() throws(PipelineError) -> AccountSummary? {
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
    return AccountSummary(account: account, count: count, report: accumulator.report(stats: stats))
  }

  /// Releases the temporary files now.
  public func close() {
    stream.close()
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
    let (pipeline, input) = try deduplicating(.paths(paths))
    return try pipeline.runPerAccount(pipeline.reading(input))
  }

  /// Summarises each account of already opened sources, in order.
  public func runPerAccount(sources: [any ByteSource]) throws(PipelineError) -> AccountSummaryCursor {
    let (pipeline, input) = try deduplicating(.sources(sources))
    return try pipeline.runPerAccount(pipeline.reading(input))
  }

  func runPerAccount(
    _ read: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(PipelineError) -> AccountSummaryCursor {
    var sort = AccountSort(
      read: options.read, filter: options.filter, dedupe: options.dedupe, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, maxFanIn: options.maxFanIn, counting: false)
    sort.kept = .summary(options.dimension)
    let outcome = try sort.run(onTemporaryDirectory: onTemporaryDirectory, read)
    return AccountSummaryCursor(
      outcome: outcome, dimension: options.dimension, zone: options.filter.zone,
      changed: options.read.nightly?.changedAccounts)
  }
}
