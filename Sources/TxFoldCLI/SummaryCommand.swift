import ArgumentParser
import Foundation
import TxFold

/// `txfold summary`: per-key counts and income/expense totals, with a bar chart (Documentation/Guide.md, "`txfold summary`").
struct SummaryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "summary",
    abstract: "Sums income and expense per category, day, month, counterparty or state, with a bar chart.",
    discussion: """
      Reads JSON lines (optionally gzip-compressed) from the files given, or from standard input \
      when there are none or one is '-'. Days, weeks, months and years are ordered by key (a timeline), \
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

  @OptionGroup(title: "Per account")
  var pageOutput: OutputDirectoryArguments

  @Option(
    parsing: .unconditional,
    help:
      "With --per-account or --dedupe: memory for sorting the transactions by account, as estimated bytes, and for the id table, before they spill to temporary files (default 512M; units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000)."
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
  struct Configuration {
    var options = SummaryOptions()
    var order = SummaryOrder.expense
    var selection = FilterArguments.Selection()
    var report = ReportArguments.Report()
    /// `--per-account`: each account's summary.
    var perAccount = false
    /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
    var outputDirectory: String?
  }

  func validate() throws {
    _ = try configuration()
  }

  /// Checks every option and builds the library's options from them.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    guard let dimension = SummaryDimension(rawValue: by) else {
      throw ValidationError("--by must be category, day, week, month, year, counterparty or state, not '\(by)'.")
    }
    configuration.options.dimension = dimension
    if let sort {
      guard let order = SummaryOrder(rawValue: sort) else {
        throw ValidationError("--sort must be key, expense, income or count, not '\(sort)'.")
      }
      configuration.order = order
    } else {
      configuration.order = SummaryOrder.defaultOrder(for: dimension)
    }
    configuration.report = try reporting.report()
    configuration.selection = try selection.selection()
    configuration.options.dedupe = selection.dedupe || nightly.isNightly
    configuration.options.read = try reading.readOptions()
    configuration.outputDirectory = try pageOutput.check(
      perAccount: accounts.perAccount, report: reporting, format: &configuration.report.format,
      dryRun: reading.dryRun)
    configuration.perAccount = try accounts.apply(
      to: &configuration.options.read, files: files, dedupe: selection.dedupe || nightly.isNightly,
      format: configuration.report.format, formats: AccountSummaryWriter.formats)
    if !configuration.perAccount && !selection.dedupe && !nightly.isNightly {
      // Only the per-account sort and the id table spill: these would be silently ignored.
      if memoryLimit != nil {
        throw ValidationError("--memory-limit needs --per-account or --dedupe (only they spill).")
      }
      if tempDir != nil { throw ValidationError("--temp-dir needs --per-account or --dedupe (only they spill).") }
    }
    configuration.options.memoryLimit = try ByteCount.parse(
      memoryLimit ?? Self.defaultMemoryLimit, option: "--memory-limit", range: 1...Int.max,
      wanted: "a size of at least 1 byte")
    if tempDir?.isEmpty == true {
      // An empty path would put the spill files in the root directory.
      throw ValidationError("--temp-dir is an empty path; name a directory.")
    }
    configuration.options.temporaryDirectory = tempDir
    if let threads {
      guard threads >= 1, threads <= 256 else {
        throw ValidationError("--threads must be from 1 to 256, not \(threads).")
      }
      configuration.options.threads = threads
    }
    try nightly.check(
      accountFromFile: accounts.accountFromFile, perAccount: configuration.perAccount,
      selects: selection.filters.selects)
    try ReadingArguments.checkInputs(files)
    return configuration
  }

  func run() throws {
    var configuration = try configuration()
    let run = try ReadingRun(
      command: "summary", files: files, report: reporting, reading: reading, idFiles: selection.idFiles,
      nightly: nightly)
    let (paths, started, summary, outputs) = (run.paths, run.started, run.summary, run.outputs)
    do {
      configuration.options.filter = try selection.resolvedFilter(configuration.selection)
    } catch let code as ExitCode {
      throw outputs.fail(code)
    }
    try nightly.open(into: &configuration.options.read, job: .summary(configuration.options), outputs: outputs)

    let pipeline = SummaryPipeline(options: configuration.options)
    run.attach(pipeline)
    defer { SignalGuard.protect(temporaryDirectory: nil) }
    let options = SummaryTextOptions(
      locale: configuration.report.locale, color: reporting.colored,
      width: Terminal.width(fileDescriptor: reporting.writesStandardOutput ? 1 : nil), theme: reporting.colorTheme,
      source: ReportArguments.sourceName(paths))
    if configuration.perAccount {
      if let directory = configuration.outputDirectory { try outputs.attach(directory: directory) }
      return try runPerAccount(
        pipeline, configuration: configuration, options: options, paths: paths, outputs: outputs, summary: summary,
        started: started)
    }
    let report = try outputs.start(summary) { () throws(PipelineError) in
      try pipeline.run(paths: paths).sorted(by: configuration.order)
    }

    do throws(OutputError) {
      try SummaryRenderer.render(report, format: configuration.report.format, options: options, flush: outputs.write)
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
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
        cursor, into: directory, options: reporting.textOptions(locale: options.locale, inputs: paths),
        order: configuration.order, outputs: outputs)
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
    do throws(OutputError) {
      try writer.begin(flush: outputs.write)
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
    }
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
    while true {
      let account: AccountSummary?
      do throws(PipelineError) {
        account = try cursor.next()
      } catch {
        cursor.close()
        throw outputs.fail(ExitStatus.fail(error))
      }
      guard let account else { break }
      do throws(OutputError) {
        try write(account.sorted(by: order))
      } catch {
        throw outputs.fail(ExitStatus.fail(error))
      }
    }
    do throws(OutputError) {
      try finish(cursor.stats)
    } catch {
      throw outputs.fail(ExitStatus.fail(error))
    }
  }
}

extension SummaryCommand {
  /// `--output-dir`: each account's page as the cursor hands it out, then
  /// the index pages (`AccountPageDirectory`, as `group --output-dir` writes
  /// them; no period column: a summary knows no days); `RunOutputs.commit`
  /// puts the directory in place.
  func writePages(
    _ cursor: AccountSummaryCursor, into directory: OutputDirectory, options: TextReportOptions,
    order: SummaryOrder, outputs: RunOutputs
  ) throws {
    var pages = AccountPageDirectory(directory: directory, options: options, periods: false)
    try forEachAccount(
      of: cursor, order: order, outputs: outputs,
      write: { account throws(OutputError) in try pages.write(account) },
      finish: { stats throws(OutputError) in try pages.finish(stats: stats) })
  }
}
