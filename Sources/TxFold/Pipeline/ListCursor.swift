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
  /// The page being read.
  public let page: PageRequest
  /// Sorted runs the sort wrote to disk (0 when it fit in memory).
  public let spilledRuns: Int
  /// The zone of each row's `date` when the list is rendered (the filter's zone).
  package let zone: ZoneResolver
  private let sorted: SortedEntries
  private var skipped = 0
  private var shown = 0

  init(
    sorted: SortedEntries, page: PageRequest, stats: RunStats, matched: Int, spilledRuns: Int,
    zone: ZoneResolver = .asWritten
  ) {
    self.zone = zone
    self.sorted = sorted
    self.page = page
    self.stats = stats
    self.matched = matched
    self.spilledRuns = spilledRuns
  }

  /// The next transaction of the page, or `nil` after its last.
  ///
  /// - Complexity: O(log runs) per transaction read from the merge, and the
  ///   merge reads `offset` transactions before the first one shown.
  public func next() throws(PipelineError) -> Transaction? {
    if let limit = page.limit, shown >= limit {
      close()
      return nil
    }
    while true {
      let entry: SortEntry?
      do throws(SpillError) {
        entry = try sorted.next()
      } catch {
        throw .spill(error)
      }
      guard let entry else {
        close()
        return nil
      }
      if skipped < page.offset {
        skipped += 1
        continue
      }
      shown += 1
      return entry.transaction
    }
  }

  /// Releases the temporary files now.
  public func close() {
    sorted.close()
  }
}
