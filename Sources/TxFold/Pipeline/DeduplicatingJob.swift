/// The options every job that dedupes has.
protocol DeduplicatingOptions {
  var read: ReadOptions { get set }
  var dedupe: Bool { get set }
  var threads: Int { get }
  var memoryLimit: Int { get }
  var temporaryDirectory: String? { get }
}

extension DeduplicatingOptions {
  /// The options a pipeline keeps: an incremental run always dedupes (its
  /// second pass, which reads with the losers known, is the one that does not).
  func dedupingNightly() -> Self {
    var options = self
    if options.read.nightly != nil && options.read.deduplicated == nil { options.dedupe = true }
    return options
  }
}

extension GroupOptions: DeduplicatingOptions {}
extension ListOptions: DeduplicatingOptions {}
extension SummaryOptions: DeduplicatingOptions {}

/// A job that dedupes: its first pass's settings, and the pipeline of its second pass.
protocol DeduplicatingJob: AnyObject {
  associatedtype Options: DeduplicatingOptions
  var options: Options { get }
  var onRejection: ((RecordRejection) throws -> Void)? { get }
  var onProgress: ((PipelineProgress) -> Void)? { get set }
  var onTemporaryDirectory: ((String) -> Void)? { get set }
  /// How the first pass reads.
  var firstPassRead: ReadOptions { get }
  init(options: Options)
}

extension DeduplicatingJob {
  /// What the first pass of `dedupe` takes from the job.
  var dedupeSettings: DuplicateFinder.Settings {
    DuplicateFinder.Settings(
      read: firstPassRead, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, onTemporaryDirectory: onTemporaryDirectory,
      onRejection: onRejection, onProgress: onProgress)
  }

  /// The pipeline of `dedupe`'s second pass, reading with `read` (which
  /// leaves out the losers); it reports no rejection (the first pass did).
  func secondPass(_ read: ReadOptions) -> Self {
    var second = options
    second.dedupe = false
    second.read = read
    let pipeline = Self(options: second)
    pipeline.onProgress = onProgress
    pipeline.onTemporaryDirectory = onTemporaryDirectory
    return pipeline
  }
}
