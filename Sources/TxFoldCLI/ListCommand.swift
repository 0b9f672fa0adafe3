import ArgumentParser
import Foundation
import TxFold

/// `txfold list`: transactions newest first, filtered, paged and summed (Documentation/Guide.md, "`txfold list`").
struct ListCommand: QueryCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Lists transactions newest first, with filters, pages and the sum of what is shown.",
    discussion: """
      Reads JSON lines, a JSON array of records, or a document wrapping arrays of records \
      (optionally gzip- or zstd-compressed; all detected from the content) from the files given, \
      or from standard input when there are none or one is '-'. Order: newest first, then id, then the other values \
      shown, never the input order. Steps: \
      --dedupe over all records, then the filters, then the sort, then the page. Inputs larger \
      than --memory-limit are sorted in runs on disk and merged; the temporary files never \
      outlive the run.

      Examples:
        txfold list --limit 20 dump.jsonl              # the 20 newest
        txfold list --state PENDING --category Groceries --period 2024-05 d.jsonl
        txfold list --since 2024-Q1 --until 2024-Q2 -o q1-q2.csv dump.jsonl.gz
        txfold list --page-size 50 --page 3 --dedupe dump.jsonl
        txfold list --per-account --limit 10 --format jsonl dump.jsonl.gz
        txfold list --per-account --limit 50 --output-dir pages dump.jsonl.gz
      """
  )

  @Argument(help: "Input files; none or '-' reads standard input.", completion: .file())
  var files: [String] = []

  @OptionGroup
  var reporting: ReportArguments

  @OptionGroup(title: "Selection")
  var selection: SelectionArguments

  @Option(
    parsing: .unconditional, help: "Show at most this many transactions.", transform: WholeNumber.reader())
  var limit: Int?

  @Option(
    parsing: .unconditional, help: "Skip this many transactions first.", transform: WholeNumber.reader())
  var offset: Int?

  @Option(
    parsing: .unconditional, help: "Transactions per page, with --page.", transform: WholeNumber.reader())
  var pageSize: Int?

  @Option(
    parsing: .unconditional, help: "The page to show, from 1 (with --page-size).",
    transform: WholeNumber.reader())
  var page: Int?

  @Option(
    parsing: .unconditional,
    help:
      "Memory for sorting before sorted runs spill to temporary files: on every core, the rows held and the merge's buffers; on one thread, estimated bytes of the transactions held; at least 1M (units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000)."
  )
  var memoryLimit: String = "256M"

  @Option(
    parsing: .unconditional,
    help:
      "Worker threads that decode, filter, render and sort (default: all cores; csv, json and jsonl without --per-account; the others read on one).",
    transform: WholeNumber.reader())
  var threads: Int?

  @Option(help: "Directory for the sort's temporary files (default: $TMPDIR, else /tmp).", completion: .directory)
  var tempDir: String?

  @OptionGroup(title: "Input")
  var reading: ReadingArguments

  @OptionGroup(title: "Nightly runs")
  var nightly: NightlyArguments

  @OptionGroup(title: "Per account")
  var accounts: PerAccountArguments

  /// The validated configuration, built by `validate()`.
  struct Configuration: QueryConfiguration {
    var options = ListOptions()
    var selection = FilterArguments.Selection()
    var report = ReportArguments.Report()
    /// `--per-account`: each account's list.
    var perAccount = false
    /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
    var outputDirectory: String?
  }

  /// Checks every option and builds the library's options from them (the id
  /// files are read in `run()`, so a missing one exits 66, not 64).
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    try checkReading(&configuration)
    configuration.options.page = try pageRequest()
    try configuration.options.setSpill(memoryLimit: memoryLimit, temporaryDirectory: tempDir, floor: SortMemory.current)
    try configuration.options.setThreads(threads)
    try checkPerAccount(&configuration, formats: AccountListWriter.formats)
    try checkNightlyAndInputs(configuration)
    return configuration
  }

  /// `--limit/--offset` or `--page-size/--page`, never both.
  func pageRequest() throws -> PageRequest {
    if (limit != nil || offset != nil) && (pageSize != nil || page != nil) {
      throw ValidationError("--limit/--offset and --page-size/--page cannot be mixed; use one style.")
    }
    if let limit, limit < 0 { throw ValidationError("--limit must be at least 0, not \(limit).") }
    if let offset, offset < 0 { throw ValidationError("--offset must be at least 0, not \(offset).") }
    if page != nil && pageSize == nil { throw ValidationError("--page needs --page-size.") }
    if let pageSize {
      guard pageSize >= 1 else { throw ValidationError("--page-size must be at least 1, not \(pageSize).") }
      let number = page ?? 1
      guard number >= 1 else { throw ValidationError("--page must be at least 1, not \(number).") }
      guard let request = PageRequest.page(number, size: pageSize) else {
        // Its first transaction's position would not fit in an Int: no input holds that many.
        throw ValidationError("--page \(number) with --page-size \(pageSize) starts past any input's end.")
      }
      return request
    }
    return PageRequest(offset: offset ?? 0, limit: limit)
  }

  func run() throws {
    var configuration = try configuration()
    let run = try startRun(&configuration, command: "list", job: NightlyState.Job.list)
    let (paths, started, summary, outputs) = (run.paths, run.started, run.summary, run.outputs)
    let pipeline = ListPipeline(options: configuration.options)
    run.attach(pipeline)
    defer { SignalGuard.protect(temporaryDirectory: nil) }
    if configuration.perAccount {
      if let directory = configuration.outputDirectory { try outputs.attach(directory: directory) }
      return try runPerAccount(
        pipeline, configuration: configuration, paths: paths, outputs: outputs, summary: summary, started: started)
    }

    if try runRendered(
      pipeline, configuration: configuration, paths: paths, outputs: outputs, summary: summary, started: started)
    {
      return
    }

    let list = try outputs.start(summary) { () throws(PipelineError) in try pipeline.run(paths: paths) }
    let context = ListContext(
      stats: list.stats, matched: list.matched, page: list.page, zone: configuration.selection.zone, days: list.days)
    let options = reporting.textOptions(locale: configuration.report.locale, inputs: paths, nightly: outputs.nightly)
    try write(list, outputs: outputs, summary: summary, started: started) {
      () throws(ListRenderer.Failure<PipelineError, OutputError>) in
      try ListRenderer.render(
        context: context, format: configuration.report.format, options: options, next: list.next,
        flush: outputs.write)
    }
  }

  /// csv, json and jsonl: decoded, rendered and sorted on
  /// every core (`ListPipeline.runRendered`), the same bytes as the one-thread path.
  /// Returns `false` when the options need that path instead.
  func runRendered(
    _ pipeline: ListPipeline, configuration: Configuration, paths: [String], outputs: RunOutputs,
    summary: RunSummary, started: ContinuousClock.Instant
  ) throws -> Bool {
    let format = configuration.report.format
    let rows: ListRows
    do throws(PipelineError) {
      guard let made = try pipeline.runRendered(paths: paths, format: format, zone: configuration.selection.zone)
      else { return false }
      rows = made
    } catch {
      summary.clearProgress()
      throw outputs.fail(ExitStatus.fail(error))
    }
    summary.clearProgress()
    let context = ListContext(
      stats: rows.stats, matched: rows.matched, page: rows.page, zone: configuration.selection.zone)
    try write(rows, outputs: outputs, summary: summary, started: started) {
      () throws(ListRenderer.Failure<PipelineError, OutputError>) in
      try rows.render(context: context, format: format, flush: outputs.write)
    }
    return true
  }

  /// `--per-account`: the accounts are written as the cursor hands them out;
  /// csv, json and jsonl decoded, rendered and sorted on every core
  /// (`ListPipeline.runPerAccountRendered`), the same bytes as the one-thread path.
  func runPerAccount(
    _ pipeline: ListPipeline, configuration: Configuration, paths: [String], outputs: RunOutputs,
    summary: RunSummary, started: ContinuousClock.Instant
  ) throws {
    let format = configuration.report.format
    if outputs.directory == nil, pipeline.rendersPerAccountInParallel(format) {
      let rows = try outputs.start(summary) { () throws(PipelineError) in
        // Not `nil`: the format and options were just checked.
        guard
          let rows = try pipeline.runPerAccountRendered(
            paths: paths, format: format, zone: configuration.selection.zone)
        else { throw .invalidOptions("The per-account list cannot be rendered in parallel.") }
        return rows
      }
      try write(rows, outputs: outputs, summary: summary, started: started) {
        () throws(ListRenderer.Failure<PipelineError, OutputError>) in
        let options = reporting.textOptions(
          locale: configuration.report.locale, inputs: paths, nightly: outputs.nightly)
        guard var writer = AccountListWriter(format: format, options: options, zone: configuration.selection.zone)
        else { return }
        try writer.writeEntries(
          stats: { rows.stats }, page: rows.page, nextAccount: rows.nextAccount, next: rows.next,
          flush: outputs.write)
      }
      return
    }
    let cursor = try outputs.start(summary) { () throws(PipelineError) in
      try pipeline.runPerAccount(paths: paths)
    }
    let options = reporting.textOptions(locale: configuration.report.locale, inputs: paths, nightly: outputs.nightly)
    try write(cursor, outputs: outputs, summary: summary, started: started) {
      () throws(ListRenderer.Failure<PipelineError, OutputError>) in
      if let directory = outputs.directory {
        try writePages(
          cursor, into: directory, options: options, settings: configuration.options,
          zone: configuration.selection.zone)
      } else {
        // The format was checked against `AccountListWriter.formats`.
        guard
          var writer = AccountListWriter(
            format: configuration.report.format, options: options, zone: configuration.selection.zone)
        else { return }
        try writer.write(
          stats: { cursor.stats }, page: cursor.page, nextAccount: cursor.nextAccount, next: cursor.next,
          flush: outputs.write)
      }
    }
  }

  /// The end that all three ways of listing share: `body` writes the rows,
  /// then `rows` is closed — before a failed run exits too, so that the
  /// sort's temporary files go with it — and the run finished.
  func write(
    _ rows: some SortedList, outputs: RunOutputs, summary: RunSummary, started: ContinuousClock.Instant,
    _ body: () throws(ListRenderer.Failure<PipelineError, OutputError>) -> Void
  ) throws {
    defer { rows.close() }
    do throws(ListRenderer.Failure<PipelineError, OutputError>) {
      try body()
    } catch {
      rows.close()
      throw outputs.fail(ExitStatus.fail(error.found(after: rows.inputs)))
    }
    rows.close()
    try outputs.finish(stats: rows.stats, summary: summary, started: started)
    summary.noteSpill("sorted", runs: rows.spilledRuns, memoryLimit: memoryLimit)
  }
}

/// What `ListCommand.write` ends: a list sorted in runs that may have spilled.
protocol SortedList {
  var stats: RunStats { get }
  var spilledRuns: Int { get }
  /// The inputs read, which an overflowing sum names.
  var inputs: [String]? { get }
  func close()
}

extension ListCursor: SortedList {}
extension ListRows: SortedList {}
extension AccountListCursor: SortedList {}
extension AccountListRows: SortedList {}

extension ListCommand {
  /// `--output-dir`: each account's page as the cursor hands out its rows,
  /// then the index pages (`AccountPageDirectory`, as `group --output-dir`
  /// writes them, its index spilling as `settings` say); `RunOutputs.commit`
  /// puts the directory in place.
  func writePages(
    _ cursor: AccountListCursor, into directory: OutputDirectory, options: TextReportOptions,
    settings: RunSettings, zone: ZoneResolver
  ) throws(ListRenderer.Failure<PipelineError, OutputError>) {
    var pages = AccountPageDirectory(directory: directory, options: options, spilling: settings)
    while true {
      let account: (account: String, matched: Int)?
      do throws(PipelineError) {
        account = try cursor.nextAccount()
      } catch {
        throw .source(error)
      }
      guard let account else { break }
      let context = ListContext(
        stats: cursor.stats, matched: account.matched, page: cursor.page, zone: zone, days: cursor.days)
      try pages.writeList(account: account.account, context: context, next: cursor.next)
    }
    do throws(OutputError) {
      try pages.finish(stats: cursor.stats)
    } catch {
      throw .output(error)
    }
  }
}
