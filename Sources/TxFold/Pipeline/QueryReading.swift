/// What a `list` or `summary` run reads: files by path (`-` is standard
/// input), sources already opened, or the inputs of a second pass (`--dedupe`).
enum QueryInput {
  case paths([String])
  case sources([any ByteSource])
  case inputs(RunInputs)

  /// The inputs' names, for messages.
  var names: [String] {
    switch self {
    case .paths(let paths): paths
    case .sources(let sources): sources.map(\.name)
    case .inputs(let inputs): inputs.names
    }
  }

  /// The inputs, opened lazily.
  func runInputs() throws(PipelineError) -> RunInputs {
    switch self {
    case .paths(let paths): return try RunInputs(paths: paths)
    case .sources(let sources): return RunInputs(sources: sources)
    case .inputs(let inputs): return inputs
    }
  }
}

/// The reading half `ListPipeline` and `SummaryPipeline` share, for their
/// plain and per-account runs alike: a `TransactionReader` over the job's
/// `ReadOptions`, in their zone, reporting to the job's callbacks.
protocol TransactionReadingJob: AnyObject {
  var readOptions: ReadOptions { get }
  var onRejection: ((RecordRejection) throws -> Void)? { get }
  var onProgress: ((PipelineProgress) -> Void)? { get }
}

extension TransactionReadingJob {
  /// A function that reads `input` whole, handing each accepted transaction
  /// and its position to the body it is given; what a job's `run` consumes.
  func reading<E: Error>(_ input: QueryInput)
    -> ((Transaction, Int) throws(E) -> Void) throws(TransactionReadError<E>) -> RunStats
  {
    let reader = TransactionReader(
      options: readOptions, onRejection: onRejection, onProgress: onProgress)
    return { (body: (Transaction, Int) throws(E) -> Void) throws(TransactionReadError<E>) -> RunStats in
      switch input {
      case .paths(let paths): return try reader.read(typedPaths: paths, body)
      case .sources(let sources): return try reader.read(typedSources: sources, body)
      case .inputs(let inputs):
        var inputs = inputs
        return try reader.read(names: inputs.names, body) { () throws(PipelineError) in try inputs.next() }
      }
    }
  }
}

extension DeduplicatingJob where Self: TransactionReadingJob {
  /// The first pass reads as the job's own reader does.
  var firstPassRead: ReadOptions { readOptions }

  /// With `dedupe`, the first pass over `input` (`DuplicateFinder`), and the
  /// pipeline and input of the second, which leaves out the losers; without, `self` and `input`.
  func deduplicating(_ input: QueryInput) throws(PipelineError) -> (Self, QueryInput) {
    guard options.dedupe else { return (self, input) }
    do throws(PipelineError) {
      let first = try DuplicateFinder.firstPass(try input.runInputs(), settings: dedupeSettings)
      return (secondPass(first.read), .inputs(first.inputs))
    } catch {
      throw error
    }
  }
}

extension ListPipeline: DeduplicatingJob {}
extension SummaryPipeline: DeduplicatingJob {}

extension ListPipeline: TransactionReadingJob {
  var readOptions: ReadOptions { options.read }
}

extension SummaryPipeline: TransactionReadingJob {
  var readOptions: ReadOptions { options.read }
}
