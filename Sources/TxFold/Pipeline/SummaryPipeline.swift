/// The streaming `summary` job: read → place in the zone → (dedupe) → filter
/// → fold into per-key totals (`SummaryAccumulator`).
///
/// Without `dedupe` it runs on `options.threads` workers that decode, filter
/// and sum chunks straight from their bytes (`SummaryPipeline+Parallel.swift`);
/// every thread count gives the same report, rejections and errors. With
/// `dedupe` it reads one `Transaction` at a time on the calling thread.
///
/// Memory grows with the number of distinct keys — a few dozen categories,
/// or one entry per day — never with the number of records; except under
/// `dedupe`, which must hold each id's latest matching transaction until the
/// input ends (a later record with the same id may still replace it).
///
/// ```swift
/// var options = SummaryOptions()
/// options.dimension = .month
/// let report = try SummaryPipeline(options: options).run(paths: ["dump.jsonl.gz"])
/// ```
public final class SummaryPipeline {
  /// The options every run of this pipeline uses.
  public let options: SummaryOptions
  /// Called for every rejected record, in input order.
  public var onRejection: ((RecordRejection) throws -> Void)?
  /// Called after each chunk is read, for a progress line.
  public var onProgress: ((PipelineProgress) -> Void)?
  /// Called with the spill directory's path when a per-account run's sort
  /// creates one (with SIGINT and SIGTERM blocked), so a signal handler can remove it.
  public var onTemporaryDirectory: ((String) -> Void)?

  /// Creates a pipeline; nothing is read until a `run`.
  public init(options: SummaryOptions) {
    self.options = options
  }

  /// Summarises files (`-` is standard input), in order, as one stream.
  ///
  /// - Complexity: O(input bytes + k log k) for k keys; memory O(k), or
  ///   O(distinct ids) with dedupe.
  public func run(paths: [String]) throws(QueryPipelineError) -> SummaryReport {
    try run(.paths(paths))
  }

  /// Summarises already opened sources, in order.
  public func run(sources: [any ByteSource]) throws(QueryPipelineError) -> SummaryReport {
    try run(.sources(sources))
  }

  func run(_ input: QueryInput) throws(QueryPipelineError) -> SummaryReport {
    let (pipeline, input) = try deduplicating(input)
    guard pipeline.foldsInParallel else { return try pipeline.run(pipeline.reading(input)) }
    var inputs: RunInputs
    do throws(PipelineError) {
      inputs = try input.runInputs()
    } catch {
      throw .pipeline(error)
    }
    return try pipeline.runParallel(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  /// The run on one thread, one `Transaction` at a time: the path under
  /// `dedupe`, and the oracle the parallel path is tested against.
  func runOneByOne(paths: [String]) throws(QueryPipelineError) -> SummaryReport {
    let (pipeline, input) = try deduplicating(.paths(paths))
    return try pipeline.run(pipeline.reading(input))
  }

  /// `runOneByOne(paths:)` over already opened sources.
  func runOneByOne(sources: [any ByteSource]) throws(QueryPipelineError) -> SummaryReport {
    let (pipeline, input) = try deduplicating(.sources(sources))
    return try pipeline.run(pipeline.reading(input))
  }

  func run(
    _ read: ((Transaction, Int) throws(SumOverflow) -> Void) throws(TransactionReadError<SumOverflow>) -> RunStats
  ) throws(QueryPipelineError) -> SummaryReport {
    let filter = options.filter
    let zone = filter.zone
    let keepsEverything = filter.keepsEverything
    var accumulator = SummaryAccumulator(dimension: options.dimension, zone: zone)
    var winners: LatestPerID<Transaction?>? = options.dedupe ? LatestPerID() : nil
    var stats: RunStats
    do throws(TransactionReadError<SumOverflow>) {
      stats = try read { (transaction, position) throws(SumOverflow) in
        let matches = keepsEverything || filter.matches(transaction)
        if winners != nil {
          winners?.offer(
            id: Array(transaction.id.utf8), instant: transaction.instant, position: position,
            payload: matches ? transaction : nil)
        } else if matches {
          try accumulator.add(transaction)
        }
      }
    } catch {
      switch error {
      case .input(let error): throw .pipeline(error)
      case .body(let error): throw .sumOverflow(error)
      }
    }
    if let winners {
      stats.duplicates = winners.duplicates
      // In input order, so the work is the same on every run.
      for winner in winners.winners.values.sorted(by: { $0.position < $1.position }) {
        guard let transaction = winner.payload else { continue }
        do throws(SumOverflow) {
          try accumulator.add(transaction)
        } catch {
          throw .sumOverflow(error)
        }
      }
    }
    return accumulator.report(stats: stats)
  }
}
