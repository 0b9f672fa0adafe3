/// The streaming `list` job: read → place in the zone → filter → external
/// sort → page, in bounded memory.
///
/// The whole input is read first (a list starts with its newest transaction,
/// which may be the last line), then `ListCursor` hands out the page in
/// order while the sort's merge streams from its runs. Memory holds the
/// sort's run buffer (`memoryLimit`) and the merge's read buffers. With
/// `dedupe`, a first pass finds the records that lose to a later version
/// (`DuplicateFinder`) and this run leaves them out; the filter runs on
/// winners only: dedupe decides among all records first (see `TransactionQuery`).
///
/// ```swift
/// var options = ListOptions()
/// options.filter = TransactionFilter(categories: ["Groceries"])
/// options.page = PageRequest(offset: 0, limit: 20)
/// let list = try ListPipeline(options: options).run(paths: ["dump.jsonl.gz"])
/// while let transaction = try list.next() { print(transaction.id) }
/// ```
public final class ListPipeline {
  /// The options every run of this pipeline uses.
  public let options: ListOptions
  /// Called for every rejected record, in input order.
  public var onRejection: ((RecordRejection) throws -> Void)?
  /// Called after each chunk is read, for a progress line (and as a later read begins, `PipelineProgress.secondRead`).
  public var onProgress: ((PipelineProgress) -> Void)?
  /// Called with the spill directory's path when the sort creates one (with
  /// SIGINT and SIGTERM blocked), so a signal handler can remove it.
  public var onTemporaryDirectory: ((String) -> Void)?

  /// Creates a pipeline; nothing is read until a `run`.
  public init(options: ListOptions) {
    self.options = options.dedupingNightly()
  }

  /// Reads and sorts files (`-` is standard input), in order, as one stream.
  ///
  /// - Complexity: O(n log n) for n records kept; memory O(`memoryLimit`);
  ///   disk O(records kept) when they exceed the budget (and the id table's
  ///   entries past half the budget, with dedupe).
  public func run(paths: [String]) throws(PipelineError) -> ListCursor {
    try run(.paths(paths))
  }

  /// Reads and sorts already opened sources, in order.
  public func run(sources: [any ByteSource]) throws(PipelineError) -> ListCursor {
    try run(.sources(sources))
  }

  private func run(_ input: QueryInput) throws(PipelineError) -> ListCursor {
    let (pipeline, input) = try deduplicating(input)
    let cursor = try pipeline.run(pipeline.reading(input))
    cursor.inputs = input.names
    return cursor
  }

  func run(
    _ read: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(PipelineError) -> ListCursor {
    let filter = options.filter
    let sorter = ExternalSorter(
      memoryLimit: options.memoryLimit, temporaryParent: options.temporaryDirectory,
      keepFirst: options.page.end, maxFanIn: options.maxFanIn)
    sorter.onTemporaryDirectory = onTemporaryDirectory
    var kept = 0
    var days: DaySpan?
    let zone = filter.zone
    let keepsEverything = filter.keepsEverything
    var stats: RunStats
    do throws(TransactionReadError<SpillError>) {
      stats = try read { (transaction, position) throws(SpillError) in
        guard keepsEverything || filter.matches(transaction) else { return }
        kept += 1
        days.add(zone.day(of: transaction.instant))
        try sorter.add(transaction, position: position)
      }
    } catch {
      sorter.close()
      throw PipelineError(error)
    }
    let sorted: SortedEntries
    do throws(SpillError) {
      sorted = try sorter.finish()
    } catch {
      sorter.close()
      throw .spill(error)
    }
    return ListCursor(
      sorted: sorted, page: options.page, stats: stats, matched: kept, days: days,
      spilledRuns: sorter.spilledRuns, zone: zone)
  }
}
