import ArgumentParser
import Foundation
import TxFold

/// `txfold merge`: combines partial states into the final report (Documentation/Guide.md, "Beyond one machine").
struct MergeCommand: ConfiguredCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merges partial states from 'txfold group --emit partial' into one report.",
    discussion: """
      Reads partial states (plain, gzip- or zstd-compressed, detected from the content) from the files \
      given, or from standard input when there are none or one is '-'. An input may hold several \
      partials one after another. The report is byte-identical to one 'txfold group' run over all \
      the shards' input; partials folded with different settings are refused (exit 65).

      Examples:
        txfold merge shard-*.partial                   # the report of all shards
        txfold merge --format json -o report.json shard-*.partial
        cat shard-*.partial | txfold merge --emit partial -o day.partial
        txfold merge --per-account --format jsonl shard-*.partial
        txfold merge --per-account --output-dir pages shard-*.partial
      """
  )

  @Argument(help: "Partial state files; none or '-' reads standard input.", completion: .file())
  var files: [String] = []

  @OptionGroup(title: "Report")
  var reportOptions: ReportArguments

  @Option(
    help: "What to write: report, or partial (the merged partial state, for further merges; ignores --format).",
    completion: .list(["report", "partial"]))
  var emit: String = "report"

  @Flag(
    help:
      "Merge per-account partials ('group --per-account --emit partial'), one per input, account by account: memory for one account at a time."
  )
  var perAccount = false

  @OptionGroup
  var pageOutput: OutputDirectoryArguments

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Fail (exit 65, no report) when the shards accepted fewer than this many records together (not with --emit partial).",
      valueName: "N"),
    transform: WholeNumber.reader())
  var minAccepted: Int?

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var report = ReportArguments.Report()
    var emitPartial = false
    /// `--output-dir`: one html page per account in this directory.
    var outputDirectory: String?
  }

  /// Checks every option.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    configuration.report = try reportOptions.report()
    configuration.emitPartial = try EmitChoice.isPartial(emit)
    if let minAccepted, minAccepted < 0 {
      throw ValidationError("--min-accepted must be at least 0, not \(minAccepted).")
    }
    configuration.outputDirectory = try pageOutput.check(
      perAccount: perAccount, report: reportOptions, format: &configuration.report.format,
      emitPartial: configuration.emitPartial)
    if perAccount && !configuration.emitPartial && !AccountReportWriter.formats.contains(configuration.report.format) {
      let names = AccountReportWriter.formats.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--per-account writes \(names), not --format \(configuration.report.format.rawValue).")
    }
    try ReadingArguments.checkInputs(files)
    return configuration
  }

  func run() throws {
    let configuration = try configuration()
    let paths = files.isEmpty ? ["-"] : files
    let started = ContinuousClock.now
    let summary = RunSummary(quiet: reportOptions.quiet)
    let outputs = try RunOutputs(
      command: "merge", report: reportOptions.output, rejects: nil, stats: reportOptions.stats, inputs: paths,
      directory: configuration.outputDirectory)
    if perAccount {
      if let directory = configuration.outputDirectory { try outputs.attach(directory: directory) }
      return try mergePerAccount(configuration: configuration, paths: paths, outputs: outputs, summary: summary)
    }

    let merger = PartialMerger()
    let merged: PartialState
    do throws(PartialStateError) {
      try merger.read(paths: paths)
      guard let state = merger.merged else { throw .malformed(file: "-", line: 1, detail: "no input was given") }
      merged = state
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
    }
    // The shards read records and none was accepted: a data error for the whole run, as for one
    // `group` run (a single shard with only bad records is normal, so only the merge judges).
    if !configuration.emitPartial, let failure = NothingAccepted(mergedStats: merged.stats) {
      ExitStatus.complainOfFailure(failure.description)
      throw outputs.fail(ExitCode(ExitStatus.dataError))
    }
    if !configuration.emitPartial, let failure = TooFewAccepted(stats: merged.stats, minimum: minAccepted) {
      throw outputs.fail(ExitStatus.fail(PipelineError.tooFewAccepted(failure)))
    }

    try outputs.writing { () throws(OutputError) in
      if configuration.emitPartial {
        try merged.write(flush: outputs.write)
      } else {
        let textOptions = reportOptions.textOptions(locale: configuration.report.locale, inputs: paths)
        try ReportRenderer.render(
          merged.report(members: configuration.report.format != .csv), format: configuration.report.format,
          options: textOptions, flush: outputs.write)
      }
    }
    try commit(merged.stats, partials: merger.partialCount, started: started, outputs: outputs, summary: summary)
  }

  /// `--per-account`: the partials are merged and written one account at a time.
  func mergePerAccount(configuration: Configuration, paths: [String], outputs: RunOutputs, summary: RunSummary) throws {
    let started = ContinuousClock.now
    let merger: AccountPartialMerger
    // More partials than may be open at once are merged in passes through a private directory in
    // $TMPDIR, removed by the interrupt cleanup too.
    defer { SignalGuard.protect(temporaryDirectory: nil) }
    do throws(PartialStateError) {
      merger = try AccountPartialMerger(paths: paths) { SignalGuard.protect(temporaryDirectory: $0) }
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
    }
    if configuration.emitPartial {
      do throws(AccountPartialWriteError<OutputError>) {
        try merger.writePartial(typedFlush: outputs.write)
      } catch {
        throw outputs.fail(ExitStatus.fail(error))
      }
      return try commit(merger.stats, partials: paths.count, started: started, outputs: outputs, summary: summary)
    }
    let textOptions = reportOptions.textOptions(locale: configuration.report.locale, inputs: paths)
    if let directory = outputs.directory {
      try writePages(merger, into: directory, options: textOptions, outputs: outputs)
    } else {
      // Safe because `configuration()` checked the format.
      guard var writer = AccountReportWriter(format: configuration.report.format, options: textOptions) else { return }
      try outputs.writing { () throws(OutputError) in try writer.begin(flush: outputs.write) }
      try forEachAccount(
        of: merger, members: configuration.report.format != .csv, outputs: outputs,
        write: { account throws(OutputError) in try writer.write(account, flush: outputs.write) },
        finish: { stats throws(OutputError) in try writer.finish(stats: stats, flush: outputs.write) })
    }
    try commit(merger.stats, partials: paths.count, started: started, outputs: outputs, summary: summary)
  }

  /// The end of every merge: the outputs put in place with the stats
  /// document, then the summary line.
  func commit(
    _ stats: RunStats, partials: Int, started: ContinuousClock.Instant, outputs: RunOutputs, summary: RunSummary
  ) throws {
    try outputs.commit {
      RunStatsDocument.render(command: "merge", stats: stats, elapsed: .now - started, partials: partials)
    }
    summary.finishMerge(stats: stats, partials: partials, elapsed: ContinuousClock.now - started)
  }
}

extension MergeCommand {
  /// `--output-dir`: each merged account's page as it comes, then the index
  /// pages (`AccountPageDirectory`, as `group --output-dir` writes them);
  /// `RunOutputs.commit` puts the directory in place. `merge` takes no
  /// `--memory-limit` or `--temp-dir`: the index keeps to its share of
  /// `group`'s default limit and spills to `$TMPDIR`, as the merge's passes do.
  func writePages(
    _ merger: AccountPartialMerger, into directory: OutputDirectory, options: TextReportOptions, outputs: RunOutputs
  ) throws {
    var pages = AccountPageDirectory(
      directory: directory, options: options, memoryLimit: GroupOptions().memoryLimit,
      onTemporaryDirectory: { SignalGuard.protect(temporaryDirectory: $0) })
    try forEachAccount(
      of: merger, members: true, outputs: outputs,
      write: { account throws(OutputError) in try pages.write(account) },
      finish: { stats throws(OutputError) in try pages.finish(stats: stats) })
  }

  /// The one loop of both per-account outputs: each merged account to
  /// `write`, then, once the merged stats pass `checkAccepted`, the stats to `finish`.
  func forEachAccount(
    of merger: AccountPartialMerger, members: Bool, outputs: RunOutputs,
    write: (AccountReport) throws(OutputError) -> Void, finish: (RunStats) throws(OutputError) -> Void
  ) throws {
    try outputs.forEachAccount(
      next: { () throws(PartialStateError) in try merger.next(members: members) }, failure: ExitStatus.fail,
      write: write)
    try checkAccepted(merger.stats, outputs: outputs)
    try outputs.writing { () throws(OutputError) in try finish(merger.stats) }
  }

  /// The merged shards accepted records, and at least `--min-accepted`: else the run fails (65).
  func checkAccepted(_ stats: RunStats, outputs: RunOutputs) throws {
    if let failure = NothingAccepted(mergedStats: stats) {
      ExitStatus.complainOfFailure(failure.description)
      throw outputs.fail(ExitCode(ExitStatus.dataError))
    }
    if let failure = TooFewAccepted(stats: stats, minimum: minAccepted) {
      throw outputs.fail(ExitStatus.fail(PipelineError.tooFewAccepted(failure)))
    }
  }
}
