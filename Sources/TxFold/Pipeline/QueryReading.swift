/// What a `list` or `summary` run reads: files by path (`-` is standard
/// input), or sources already opened.
enum QueryInput {
  case paths([String])
  case sources([any ByteSource])
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
      }
    }
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
