import ArgumentParser
import Foundation
import TxFold

/// `txfold summary`: per-key counts and income/expense totals, with a bar chart (Documentation/Guide.md, "`txfold summary`").
struct SummaryCommand: QueryCommand {
  static let configuration = CommandConfiguration(
    commandName: "summary",
    abstract: "Sums income and expense per category, day, month, counterparty or state, with a bar chart.",
    discussion: """
      Reads JSON lines, a JSON array of records, or a document wrapping arrays of records \
      (optionally gzip- or zstd-compressed; all detected from the content) from the files given, \
      or from standard input when there are none or one is '-'. Days, weeks, months and years are ordered by key (a timeline), \
      other keys by their absolute expense, largest first; --sort chooses. Memory grows with the number of distinct keys, not with the input.

      Examples:
        txfold summary dump.jsonl                      # per category, with bars
        txfold summary --by month --period 2024 dump.jsonl
        txfold summary --by counterparty --sort count --locale de dump.jsonl
        txfold summary --by week -o weeks.html dump.jsonl.gz
        txfold summary --per-account --by month --output-dir pages dump.jsonl.gz
      """
  )

  @Argument(help: "Input files; none or '-' reads standard input.", completion: .file())
  var files: [String] = []

  @Option(
    help: "What to sum per: category, day, week (ISO 8601), month, year, counterparty or state.",
    completion: .list(SummaryDimension.allCases.map(\.rawValue)))
  var by: String = "category"

  @Option(
    help:
      "Order of the keys: key, expense, income or count (default: key for day and month, so they read as a timeline; expense otherwise).",
    completion: .list(SummaryOrder.allCases.map(\.rawValue)))
  var sort: String?

  @OptionGroup
  var reporting: ReportArguments

  @OptionGroup(title: "Selection")
  var selection: SelectionArguments

  @OptionGroup(title: "Input")
  var reading: ReadingArguments

  @OptionGroup(title: "Nightly runs")
  var nightly: NightlyArguments

  @OptionGroup(title: "Per account")
  var accounts: PerAccountArguments

  @Option(
    parsing: .unconditional,
    help:
      "With --per-account or --dedupe: memory for sorting the transactions by account, as estimated bytes, and for the id table, before they spill to temporary files (default 512M, at least 1M; units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000)."
  )
  var memoryLimit: String?

  /// `--memory-limit` when not given.
  static let defaultMemoryLimit = "512M"

  @Option(help: "Directory for the temporary files of --per-account and --dedupe (default: $TMPDIR, else /tmp).")
  var tempDir: String?

  @Option(
    parsing: .unconditional,
    help: "Worker threads that decode and sum (default: all cores; --per-account reads on one).",
    transform: WholeNumber.reader())
  var threads: Int?

  /// The validated configuration, built by `validate()`.
  struct Configuration: QueryConfiguration {
    var options = SummaryOptions()
    var order = SummaryOrder.expense
    var selection = FilterArguments.Selection()
    var report = ReportArguments.Report()
    /// `--per-account`: each account's summary.
    var perAccount = false
    /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
    var outputDirectory: String?
  }

  /// Checks every option and builds the library's options from them.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    let dimension = try optionValue(
      by, of: "--by", wanted: "category, day, week, month, year, counterparty or state",
      SummaryDimension.init(rawValue:))
    configuration.options.dimension = dimension
    configuration.order =
      try sort.map {
        try optionValue($0, of: "--sort", wanted: "key, expense, income or count", SummaryOrder.init(rawValue:))
      }
      ?? SummaryOrder.defaultOrder(for: dimension)
    try checkReading(&configuration)
    try checkPerAccount(&configuration, formats: AccountSummaryWriter.formats)
    if !configuration.perAccount && !dedupes {
      // Only the per-account sort and the id table spill: these would be silently ignored.
      if memoryLimit != nil {
        throw ValidationError("--memory-limit needs --per-account or --dedupe (only they spill).")
      }
      if tempDir != nil { throw ValidationError("--temp-dir needs --per-account or --dedupe (only they spill).") }
    }
    try configuration.options.setSpill(
      memoryLimit: memoryLimit ?? Self.defaultMemoryLimit, temporaryDirectory: tempDir, floor: SortMemory.current)
    try configuration.options.setThreads(threads)
    configuration.options.datesDeduplicated = configuration.report.format == .html
    try checkNightlyAndInputs(configuration)
    return configuration
  }

  func run() throws {
    var configuration = try configuration()
    let run = try startRun(&configuration, command: "summary", job: NightlyState.Job.summary)
    let (paths, started, summary, outputs) = (run.paths, run.started, run.summary, run.outputs)
    let pipeline = SummaryPipeline(options: configuration.options)
    run.attach(pipeline)
    defer { SignalGuard.protect(temporaryDirectory: nil) }
    var options = SummaryTextOptions(
      locale: configuration.report.locale, color: reporting.colored,
      width: Terminal.width(fileDescriptor: reporting.writesStandardOutput ? 1 : nil), theme: reporting.colorTheme,
      source: ReportArguments.sourceName(paths, after: outputs.nightly))
    if configuration.perAccount {
      if let directory = configuration.outputDirectory { try outputs.attach(directory: directory) }
      return try runPerAccount(
        pipeline, configuration: configuration, options: options, paths: paths, outputs: outputs, summary: summary,
        started: started)
    }
    let dated = try outputs.start(summary) { () throws(PipelineError) in try pipeline.runDated(paths: paths) }
    let report = dated.report.sorted(by: configuration.order)
    options.days = dated.days

    try outputs.writing { () throws(OutputError) in
      try SummaryRenderer.render(report, format: configuration.report.format, options: options, flush: outputs.write)
    }
    try outputs.finish(stats: report.stats, summary: summary, started: started)
  }

  /// `--per-account`: each account is folded and written as the cursor hands it out.
  func runPerAccount(
    _ pipeline: SummaryPipeline, configuration: Configuration, options: SummaryTextOptions, paths: [String],
    outputs: RunOutputs, summary: RunSummary, started: ContinuousClock.Instant
  ) throws {
    let cursor = try outputs.start(summary) { () throws(PipelineError) in
      try pipeline.runPerAccount(paths: paths)
    }
    defer { cursor.close() }
    if let directory = outputs.directory {
      try writePages(
        cursor, into: directory,
        options: reporting.textOptions(locale: options.locale, inputs: paths, nightly: outputs.nightly),
        settings: configuration.options, order: configuration.order, outputs: outputs)
    } else {
      try writeSummaries(cursor, configuration: configuration, options: options, outputs: outputs)
    }
    try outputs.finish(stats: cursor.stats, summary: summary, started: started)
    summary.noteSpill("sorted", runs: cursor.spilledRuns, memoryLimit: memoryLimit ?? Self.defaultMemoryLimit)
  }

  /// Every account into the one report, as `AccountSummaryWriter` writes `--format`.
  func writeSummaries(
    _ cursor: AccountSummaryCursor, configuration: Configuration, options: SummaryTextOptions, outputs: RunOutputs
  ) throws {
    // The format was checked against `AccountSummaryWriter.formats`.
    guard
      var writer = AccountSummaryWriter(
        format: configuration.report.format, summaryOptions: options, dimension: configuration.options.dimension)
    else { return }
    try outputs.writing { () throws(OutputError) in try writer.begin(flush: outputs.write) }
    try forEachAccount(
      of: cursor, order: configuration.order, outputs: outputs,
      write: { account throws(OutputError) in try writer.write(account, flush: outputs.write) },
      finish: { stats throws(OutputError) in try writer.finish(stats: stats, flush: outputs.write) })
  }

  /// The one loop of both per-account outputs: each account sorted by
  /// `order` to `write`, then the run's stats to `finish`. A failed read
  /// closes the cursor before the exit so its spill files go with it.
  func forEachAccount(
    of cursor: AccountSummaryCursor, order: SummaryOrder, outputs: RunOutputs,
    write: (AccountSummary) throws(OutputError) -> Void, finish: (RunStats) throws(OutputError) -> Void
  ) throws {
    try outputs.forEachAccount(
      next: cursor.next,
      failure: { error in
        cursor.close()
        return ExitStatus.fail(error)
      },
      // The cursor hands out each account in the expense order already.
      write: { account throws(OutputError) in try write(order == .expense ? account : account.sorted(by: order)) })
    try outputs.writing { () throws(OutputError) in try finish(cursor.stats) }
  }
}

extension SummaryCommand {
  /// `--output-dir`: each account's page as the cursor hands it out, then
  /// the index pages (`AccountPageDirectory`, as `group --output-dir` writes
  /// them; no period column, but the run's period in its title; its index
  /// spilling as `settings` say); `RunOutputs.commit` puts the directory in place.
  func writePages(
    _ cursor: AccountSummaryCursor, into directory: OutputDirectory, options: TextReportOptions,
    settings: RunSettings, order: SummaryOrder, outputs: RunOutputs
  ) throws {
    var pages = AccountPageDirectory(directory: directory, options: options, periods: false, spilling: settings)
    try forEachAccount(
      of: cursor, order: order, outputs: outputs,
      write: { account throws(OutputError) in try pages.write(account, days: cursor.days) },
      finish: { stats throws(OutputError) in try pages.finish(stats: stats) })
  }
}
