/// What a `list` or `summary` run reads: files by path (`-` is standard
/// input), sources already opened, or the inputs of a second pass (`--dedupe`).
enum QueryInput {
  case paths([String])
  case sources([any ByteSource])
  case inputs(RunInputs)

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
/// `ReadOptions`, placed in the filter's zone, reporting to the job's callbacks.
protocol TransactionReadingJob: AnyObject {
  var readOptions: ReadOptions { get }
  var filterZone: ZoneResolver { get }
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
      options: readOptions.placing(in: filterZone), onRejection: onRejection, onProgress: onProgress)
    return { (body: (Transaction, Int) throws(E) -> Void) throws(TransactionReadError<E>) -> RunStats in
      switch input {
      case .paths(let paths): return try reader.read(paths: paths, body)
      case .sources(let sources): return try reader.read(sources: sources, body)
      case .inputs(let inputs):
        var inputs = inputs
        return try reader.read(names: inputs.names, body) { () throws(PipelineError) in try inputs.next() }
      }
    }
  }
}

extension TransactionReadingJob {
  /// The first pass of `--dedupe` over `input` (`DuplicateFinder`): the
  /// inputs and read options of the second pass, which leaves out the losers.
  func firstPass(
    _ input: QueryInput, threads: Int, memoryLimit: Int, temporaryDirectory: String?,
    onTemporaryDirectory: ((String) -> Void)?
  ) throws(QueryPipelineError) -> (input: QueryInput, read: ReadOptions) {
    do throws(PipelineError) {
      let settings = DuplicateFinder.Settings(
        read: readOptions.placing(in: filterZone), threads: threads, memoryLimit: memoryLimit,
        temporaryDirectory: temporaryDirectory, onTemporaryDirectory: onTemporaryDirectory,
        onRejection: onRejection, onProgress: onProgress)
      let (inputs, read) = try DuplicateFinder.firstPass(try input.runInputs(), settings: settings)
      return (.inputs(inputs), read)
    } catch {
      throw .pipeline(error)
    }
  }
}

extension ListPipeline {
  /// With `dedupe`, the first pass over `input`, and the pipeline and input
  /// of the second; without, `self` and `input`.
  func deduplicating(_ input: QueryInput) throws(QueryPipelineError) -> (ListPipeline, QueryInput) {
    guard options.dedupe else { return (self, input) }
    let (again, read) = try firstPass(
      input, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, onTemporaryDirectory: onTemporaryDirectory)
    var second = options
    second.dedupe = false
    second.read = read
    let pipeline = ListPipeline(options: second)
    pipeline.onProgress = onProgress
    pipeline.onTemporaryDirectory = onTemporaryDirectory
    return (pipeline, again)
  }
}

extension SummaryPipeline {
  /// With `dedupe`, the first pass over `input`, and the pipeline and input
  /// of the second; without, `self` and `input`.
  func deduplicating(_ input: QueryInput) throws(QueryPipelineError) -> (SummaryPipeline, QueryInput) {
    guard options.dedupe else { return (self, input) }
    let (again, read) = try firstPass(
      input, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, onTemporaryDirectory: onTemporaryDirectory)
    var second = options
    second.dedupe = false
    second.read = read
    let pipeline = SummaryPipeline(options: second)
    pipeline.onProgress = onProgress
    pipeline.onTemporaryDirectory = onTemporaryDirectory
    return (pipeline, again)
  }
}

extension ListPipeline: TransactionReadingJob {
  var readOptions: ReadOptions { options.read }
  var filterZone: ZoneResolver { options.filter.zone }
}

extension SummaryPipeline: TransactionReadingJob {
  var readOptions: ReadOptions { options.read }
  var filterZone: ZoneResolver { options.filter.zone }
}
