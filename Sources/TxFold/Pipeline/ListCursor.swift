/// A sorted list being read out: the page's transactions, newest first, one
/// at a time, and what the run counted.
///
/// Holds the sort's temporary files until it is read to the end of the
/// page, closed, or released.
public final class ListCursor {
  /// The reading's accounting (with `duplicates` under dedupe).
  public let stats: RunStats
  /// Transactions that passed dedupe and the filter, before paging.
  public let matched: Int
  /// The first and last day of the matching transactions (in `zone`), before
  /// paging: the period an `html` list names (`nil` when none matched).
  package let days: DaySpan?
  /// The page being read.
  public let page: PageRequest
  /// Sorted runs the sort wrote to disk (0 when it fit in memory).
  public let spilledRuns: Int
  /// The zone of each row's `date` when the list is rendered (the run's zone, `ReadOptions.zone`).
  package let zone: ZoneResolver
  /// The inputs read, which an overflowing sum names (`nil`: transactions handed in).
  package var inputs: [String]?
  private let sorted: SortedEntries
  private var window: PageWindow

  init(
    sorted: SortedEntries, page: PageRequest, stats: RunStats, matched: Int, days: DaySpan?, spilledRuns: Int,
    zone: ZoneResolver = .asWritten
  ) {
    self.days = days
    self.zone = zone
    self.sorted = sorted
    self.page = page
    window = PageWindow(page)
    self.stats = stats
    self.matched = matched
    self.spilledRuns = spilledRuns
  }

  /// The next transaction of the page, dated in the list's zone (`Transaction.date`), or `nil`
  /// after its last.
  ///
  /// - Complexity: O(log runs) per transaction read from the merge, and the
  ///   merge reads `offset` transactions before the first one shown.
  public func next() throws(PipelineError) -> Transaction? {
    do throws(SpillError) {
      if let entry = try window.next(from: { () throws(SpillError) in try sorted.next() }) {
        return zone.dating(entry.transaction)
      }
    } catch {
      throw .spill(error)
    }
    close()
    return nil
  }

  /// Releases the temporary files now.
  public func close() {
    sorted.close()
  }
}

extension ListCursor {
  /// Sorts `transactions` in list order — newest first, as
  /// `TransactionQuery.compare(_:_:)` orders them, ties by their order in the
  /// sequence — in bounded memory, and hands out `page` of them: what
  /// `ListPipeline` does with a dump's records, for transactions from
  /// anywhere. Past `memoryLimit` bytes of transactions, sorted runs spill to
  /// a private directory under `temporaryDirectory` (`nil`: `$TMPDIR`, else
  /// `/tmp`) and are merged as the cursor is read; the files go when it is
  /// read to the end, closed, or released.
  ///
  /// ```swift
  /// let cursor = try ListCursor(sorting: transactions, page: PageRequest(limit: 50))
  /// while let transaction = try cursor.next() { print(transaction.id) }
  /// ```
  ///
  /// `stats` counts the transactions sorted (`lines` and `accepted`), as does `matched`.
  ///
  /// - Throws: `PipelineError.spill` when the temporary files cannot be written.
  /// - Complexity: O(n log n) comparisons; memory O(`memoryLimit`).
  public convenience init<Transactions: Sequence>(
    sorting transactions: Transactions, page: PageRequest = .all, memoryLimit: Int = 256 << 20,
    temporaryDirectory: String? = nil
  ) throws(PipelineError) where Transactions.Element == Transaction {
    let sorter = ExternalSorter(memoryLimit: memoryLimit, temporaryParent: temporaryDirectory, keepFirst: page.end)
    var count = 0
    var days: DaySpan?
    do throws(SpillError) {
      for transaction in transactions {
        try sorter.add(transaction, position: count)
        count += 1
        days.add(ZoneResolver.asWritten.day(of: transaction))
      }
      let sorted = try sorter.finish()
      var stats = RunStats()
      stats.lines = count
      stats.accepted = count
      self.init(sorted: sorted, page: page, stats: stats, matched: count, days: days, spilledRuns: sorter.spilledRuns)
    } catch {
      sorter.close()
      throw .spill(error)
    }
  }
}
