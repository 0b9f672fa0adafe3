import ArgumentParser
import Foundation
import TxFold

/// `txfold list`: transactions newest first, filtered, paged and summed (Documentation/Guide.md, "`txfold list`").
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "Lists transactions newest first, with filters, pages and the sum of what is shown.",
    discussion: """
      Reads JSON lines (optionally gzip-compressed) from the files given, or from standard input \
      when there are none or one is '-'. Order: newest first, then id, then input order. Steps: \
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
      "Memory for sorting before sorted runs spill to temporary files: on every core, the rows held and the merge's buffers; on one thread, estimated bytes of the transactions held (units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000)."
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

  @OptionGroup(title: "Per account")
  var pageOutput: OutputDirectoryArguments

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var options = ListOptions()
    var selection = FilterArguments.Selection()
    var report = ReportArguments.Report()
    /// `--per-account`: each account's list.
    var perAccount = false
    /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
    var outputDirectory: String?
  }

  func validate() throws {
    _ = try configuration()
  }

  /// Checks every option and builds the library's options from them (the id
  /// files are read in `run()`, so a missing one exits 66, not 64).
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    configuration.report = try reporting.report()
    configuration.selection = try selection.selection()
    configuration.options.dedupe = selection.dedupe || nightly.isNightly
    configuration.options.read = try reading.readOptions()
    configuration.options.page = try pageRequest()
    configuration.options.memoryLimit = try ByteCount.parse(
      memoryLimit, option: "--memory-limit", range: 1...Int.max, wanted: "a size of at least 1 byte")
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
    configuration.outputDirectory = try pageOutput.check(
      perAccount: accounts.perAccount, report: reporting, format: &configuration.report.format,
      dryRun: reading.dryRun)
    configuration.perAccount = try accounts.apply(
      to: &configuration.options.read, files: files, dedupe: selection.dedupe || nightly.isNightly,
      format: configuration.report.format, formats: AccountListWriter.formats)
    try nightly.check(
      accountFromFile: accounts.accountFromFile, perAccount: configuration.perAccount,
      selects: selection.filters.selects)
    try ReadingArguments.checkInputs(files)
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
      guard let request = PageRequest.page(page ?? 1, size: pageSize) else {
        throw ValidationError("--page must be at least 1 (and the page must start within range).")
      }
      return request
    }
    return PageRequest(offset: offset ?? 0, limit: limit)
  }

  func run() throws {
    var configuration = try configuration()
    let run = try ReadingRun(
      command: "list", files: files, report: reporting, reading: reading, idFiles: selection.idFiles, nightly: nightly)
    let (paths, started, summary, outputs) = (run.paths, run.started, run.summary, run.outputs)
    do {
      configuration.options.filter = try selection.resolvedFilter(configuration.selection)
    } catch let code as ExitCode {
      throw outputs.fail(code)
    }
    try nightly.open(into: &configuration.options.read, job: .list(configuration.options), outputs: outputs)

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
    defer { list.close() }

    let context = ListContext(
      stats: list.stats, matched: list.matched, page: list.page, zone: configuration.selection.zone)
    do throws(ListRenderer.Failure<PipelineError, OutputError>) {
      try ListRenderer.render(
        context: context, format: configuration.report.format,
        options: reporting.textOptions(locale: configuration.report.locale, inputs: files.isEmpty ? ["-"] : files),
        next: list.next,
        flush: outputs.write)
    } catch {
      list.close()
      throw outputs.fail(ExitStatus.fail(error))
    }
    list.close()
    try outputs.finish(stats: list.stats, summary: summary, started: started)
    summary.noteSpill("sorted", runs: list.spilledRuns, memoryLimit: memoryLimit)
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
    defer { rows.close() }
    let context = ListContext(
      stats: rows.stats, matched: rows.matched, page: rows.page, zone: configuration.selection.zone)
    do throws(ListRenderer.Failure<PipelineError, OutputError>) {
      try rows.render(context: context, format: format, flush: outputs.write)
    } catch {
      rows.close()
      throw outputs.fail(ExitStatus.fail(error))
    }
    rows.close()
    try outputs.finish(stats: rows.stats, summary: summary, started: started)
    summary.noteSpill("sorted", runs: rows.spilledRuns, memoryLimit: memoryLimit)
    return true
  }

  /// `--per-account`: the accounts are written as the cursor hands them out.
  func runPerAccount(
    _ pipeline: ListPipeline, configuration: Configuration, paths: [String], outputs: RunOutputs,
    summary: RunSummary, started: ContinuousClock.Instant
  ) throws {
    let cursor = try outputs.start(summary) { () throws(PipelineError) in
      try pipeline.runPerAccount(paths: paths)
    }
    defer { cursor.close() }
    let options = reporting.textOptions(locale: configuration.report.locale, inputs: files.isEmpty ? ["-"] : files)
    do throws(ListRenderer.Failure<PipelineError, OutputError>) {
      if let directory = outputs.directory {
        try writePages(cursor, into: directory, options: options, zone: configuration.selection.zone)
      } else {
        // The format was checked against `AccountListWriter.formats`.
        guard
          var writer = AccountListWriter(
            format: configuration.report.format, options: options, zone: configuration.selection.zone)
        else { return }
        try writer.write(
          typedStats: cursor.stats, page: cursor.page, nextAccount: cursor.nextAccount, next: cursor.next,
          flush: outputs.write)
      }
    } catch {
      cursor.close()
      throw outputs.fail(ExitStatus.fail(error))
    }
    cursor.close()
    try outputs.finish(stats: cursor.stats, summary: summary, started: started)
    summary.noteSpill("sorted", runs: cursor.spilledRuns, memoryLimit: memoryLimit)
  }
}

extension ListCommand {
  /// `--output-dir`: each account's page as the cursor hands out its rows,
  /// then the index pages (`AccountPageDirectory`, as `group --output-dir`
  /// writes them); `RunOutputs.commit` puts the directory in place.
  func writePages(
    _ cursor: AccountListCursor, into directory: OutputDirectory, options: TextReportOptions, zone: ZoneResolver
  ) throws(ListRenderer.Failure<PipelineError, OutputError>) {
    var pages = AccountPageDirectory(directory: directory, options: options)
    while true {
      let account: (account: String, matched: Int)?
      do throws(PipelineError) {
        account = try cursor.nextAccount()
      } catch {
        throw .source(error)
      }
      guard let account else { break }
      let context = ListContext(stats: cursor.stats, matched: account.matched, page: cursor.page, zone: zone)
      try pages.writeList(account: account.account, context: context, next: cursor.next)
    }
    do throws(OutputError) {
      try pages.finish(stats: cursor.stats)
    } catch {
      throw .output(error)
    }
  }
}
