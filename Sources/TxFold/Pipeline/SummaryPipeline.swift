/// The streaming `summary` job: read → place in the zone → filter → fold
/// into per-key totals (`SummaryAccumulator`).
///
/// It runs on `options.threads` workers that decode, filter and sum chunks
/// straight from their bytes (`SummaryPipeline+Parallel.swift`); every
/// thread count gives the same report, rejections and errors. With `dedupe`,
/// a first pass finds the records that lose to a later version
/// (`DuplicateFinder`) and this run leaves them out.
///
/// Memory grows with the number of distinct keys — a few dozen categories,
/// or one entry per day — never with the number of records; under `dedupe`
/// the first pass's id table is held within `memoryLimit` and spills past it.
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
  /// Called after each chunk is read, for a progress line (and as a later read begins, `PipelineProgress.secondRead`).
  public var onProgress: ((PipelineProgress) -> Void)?
  /// Called with the spill directory's path when a per-account run's sort
  /// creates one (with SIGINT and SIGTERM blocked), so a signal handler can remove it.
  public var onTemporaryDirectory: ((String) -> Void)?

  /// Creates a pipeline; nothing is read until a `run`.
  public init(options: SummaryOptions) {
    self.options = options.dedupingNightly()
  }

  /// Summarises files (`-` is standard input), in order, as one stream.
  ///
  /// - Complexity: O(input bytes + k log k) for k keys; memory O(k), or
  ///   `memoryLimit` for the id table with dedupe.
  public func run(paths: [String]) throws(PipelineError) -> SummaryReport {
    try run(.paths(paths)).report
  }

  /// `run(paths:)` with the first and last day of the transactions summed,
  /// which an `html` summary names as its period.
  package func runDated(paths: [String]) throws(PipelineError) -> DatedSummary {
    try run(.paths(paths))
  }

  /// Summarises already opened sources, in order.
  public func run(sources: [any ByteSource]) throws(PipelineError) -> SummaryReport {
    try run(.sources(sources)).report
  }

  func run(_ input: QueryInput) throws(PipelineError) -> DatedSummary {
    if options.dedupe && options.read.nightly == nil { return try runDeduplicating(input) }
    let (pipeline, input) = try deduplicating(input)
    var inputs: RunInputs
    do throws(PipelineError) {
      inputs = try input.runInputs()
    } catch {
      throw error
    }
    return try pipeline.runParallel(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  /// The run on one thread, one `Transaction` at a time: the oracle the parallel path is tested against.
  func runOneByOne(paths: [String]) throws(PipelineError) -> SummaryReport {
    let (pipeline, input) = try deduplicating(.paths(paths))
    return try pipeline.run(pipeline.reading(input)).report
  }

  /// `runOneByOne(paths:)` over already opened sources.
  func runOneByOne(sources: [any ByteSource]) throws(PipelineError) -> SummaryReport {
    let (pipeline, input) = try deduplicating(.sources(sources))
    return try pipeline.run(pipeline.reading(input)).report
  }

  func run(
    _ read: ((Transaction, Int) throws(SumOverflow) -> Void) throws(TransactionReadError<SumOverflow>) -> RunStats
  ) throws(PipelineError) -> DatedSummary {
    let filter = options.filter
    let zone = filter.zone
    let keepsEverything = filter.keepsEverything
    var accumulator = SummaryAccumulator(dimension: options.dimension, zone: zone)
    var stats: RunStats
    do throws(TransactionReadError<SumOverflow>) {
      stats = try read { (transaction, position) throws(SumOverflow) in
        if keepsEverything || filter.matches(transaction) { try accumulator.add(transaction) }
      }
    } catch {
      switch error {
      case .input(let error): throw error
      case .body(let error, let file): throw .totalOverflow(error.found(in: .reading(file)))
      }
    }
    return accumulator.dated(stats: stats)
  }
}
