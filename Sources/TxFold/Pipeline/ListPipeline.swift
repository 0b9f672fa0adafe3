/// The streaming `list` job: read → place in the zone → dedupe table →
/// filter → external sort → page, in bounded memory.
///
/// The whole input is read first (a list starts with its newest transaction,
/// which may be the last line), then `ListCursor` hands out the page in
/// order while the sort's merge streams from its runs. Memory holds the
/// sort's run buffer (`memoryLimit`), the merge's read buffers, and, with
/// `dedupe`, one small entry per distinct id (`LatestPerID`): the winner's
/// instant and position. Records that lose to a later one with the same id
/// are sorted anyway and dropped as the merge meets them, so dedupe needs no
/// second pass over the input. The filter runs on winners only: dedupe
/// decides among all records first (see `TransactionQuery`).
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
  /// Called after each chunk is read, for a progress line.
  public var onProgress: ((PipelineProgress) -> Void)?
  /// Called with the spill directory's path when the sort creates one (with
  /// SIGINT and SIGTERM blocked), so a signal handler can remove it.
  public var onTemporaryDirectory: ((String) -> Void)?

  /// Creates a pipeline; nothing is read until a `run`.
  public init(options: ListOptions) {
    self.options = options
  }

  /// Reads and sorts files (`-` is standard input), in order, as one stream.
  ///
  /// - Complexity: O(n log n) for n records kept; memory O(`memoryLimit` +
  ///   distinct ids with dedupe); disk O(records kept) when they exceed the budget.
  public func run(paths: [String]) throws(QueryPipelineError) -> ListCursor {
    let (pipeline, input) = try deduplicating(.paths(paths))
    return try pipeline.run(pipeline.reading(input))
  }

  /// Reads and sorts already opened sources, in order.
  public func run(sources: [any ByteSource]) throws(QueryPipelineError) -> ListCursor {
    let (pipeline, input) = try deduplicating(.sources(sources))
    return try pipeline.run(pipeline.reading(input))
  }

  func run(
    _ read: ((Transaction, Int) throws(SpillError) -> Void) throws(TransactionReadError<SpillError>) -> RunStats
  ) throws(QueryPipelineError) -> ListCursor {
    let filter = options.filter
    let sorter = ExternalSorter(
      memoryLimit: options.memoryLimit, temporaryParent: options.temporaryDirectory,
      keepFirst: options.dedupe ? nil : options.page.end, maxFanIn: options.maxFanIn)
    sorter.onTemporaryDirectory = onTemporaryDirectory
    var winners: LatestPerID<Bool>? = options.dedupe ? LatestPerID() : nil
    var kept = 0
    let keepsEverything = filter.keepsEverything
    var stats: RunStats
    do throws(TransactionReadError<SpillError>) {
      stats = try read { (transaction, position) throws(SpillError) in
        let matches = keepsEverything || filter.matches(transaction)
        winners?.offer(
          id: Array(transaction.id.utf8), instant: transaction.instant, position: position, payload: matches)
        guard matches else { return }
        kept += 1
        try sorter.add(transaction, position: position)
      }
    } catch {
      sorter.close()
      switch error {
      case .input(let error): throw .pipeline(error)
      case .body(let error): throw .spill(error)
      }
    }
    let matched: Int
    if let winners {
      stats.duplicates = winners.duplicates
      matched = winners.winners.values.reduce(0) { $0 + ($1.payload ? 1 : 0) }
    } else {
      matched = kept
    }
    let sorted: SortedEntries
    do throws(SpillError) {
      sorted = try sorter.finish()
    } catch {
      sorter.close()
      throw .spill(error)
    }
    return ListCursor(
      sorted: sorted, winners: winners, page: options.page, stats: stats, matched: matched,
      spilledRuns: sorter.spilledRuns)
  }
}
