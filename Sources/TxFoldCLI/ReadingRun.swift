import ArgumentParser
import TxFold

/// What `group`, `list` and `summary` set up before they read, in the order
/// that matters: the clock, the summary line, then the outputs — opened
/// first, so that a report that cannot be written fails before hours of
/// reading.
struct ReadingRun {
  /// The inputs as read: `-` (standard input) when none is named.
  let paths: [String]
  let started = ContinuousClock.now
  let summary: RunSummary
  let outputs: RunOutputs

  init(
    command: String, files: [String], report: ReportArguments, reading: ReadingArguments, idFiles: [String],
    nightly: NightlyArguments, directory: String?
  ) throws {
    paths = files.isEmpty ? ["-"] : files
    summary = RunSummary(quiet: report.quiet, forceProgress: reading.progress, dryRun: reading.dryRun)
    outputs = try RunOutputs(
      command: command, report: reading.reportPath(report.output), rejects: reading.rejects, stats: report.stats,
      inputs: paths + idFiles, nightly: reading.writtenNightly(nightly), directory: directory)
  }

  /// The selection's filter, reading the id files; one that cannot be read
  /// fails the outputs (`FilterArguments.resolvedFilter`).
  func filter(_ arguments: SelectionArguments, _ selection: FilterArguments.Selection) throws -> TransactionFilter {
    do {
      return try arguments.resolvedFilter(selection)
    } catch let code as ExitCode {
      throw outputs.fail(code)
    }
  }

  /// Sends the pipeline's rejections to the rejects file and standard error,
  /// its progress to the summary line (and starts `--progress`'s ticker), and each temporary directory it makes
  /// (`--dedupe`'s id table and input copies, a per-account run's spill) to
  /// the signal guard, which removes it on SIGINT or SIGTERM. The caller
  /// clears the guard's directory when the run ends.
  func attach(_ pipeline: some ReadingPipeline) {
    pipeline.onRejection = outputs.onRejection
    pipeline.onProgress = summary.progress
    summary.startLogging()
    pipeline.onTemporaryDirectory = { SignalGuard.protect(temporaryDirectory: $0) }
  }
}

/// The library's pipelines as `ReadingRun.attach` sees them: their callbacks.
protocol ReadingPipeline: AnyObject {
  var onRejection: ((RecordRejection) throws -> Void)? { get set }
  var onProgress: ((PipelineProgress) -> Void)? { get set }
  var onTemporaryDirectory: ((String) -> Void)? { get set }
}

extension GroupPipeline: ReadingPipeline {}
extension ListPipeline: ReadingPipeline {}
extension SummaryPipeline: ReadingPipeline {}
