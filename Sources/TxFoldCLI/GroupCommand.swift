import ArgumentParser
import Foundation
import TxFold

/// `txfold group`: the main job (Documentation/Guide.md, "`txfold group`").
struct GroupCommand: ConfiguredCommand {
  static let configuration = CommandConfiguration(
    commandName: "group",
    abstract: "Groups transactions by state, day and credit/debit indicator.",
    discussion: """
      Reads JSON lines, a JSON array of records, or a document wrapping arrays of records \
      (optionally gzip- or zstd-compressed; all detected from the content) from the files given, or from \
      standard input when there are none or one is '-'. Several files are one stream of records.

      Examples:
        txfold group dump.jsonl.gz
        txfold group dump.jsonl.gz -o report.html     # format from the extension
        txfold group --format csv --rejects bad.jsonl --stats run.json dump.jsonl
        zcat part-*.gz | txfold group --format jsonl   # standard input
        txfold group --timezone Europe/Amsterdam --locale fr --members 5 d.jsonl
        txfold group --per-account --format jsonl -o accounts.jsonl dump.jsonl
        txfold group --per-account --output-dir pages dump.jsonl
        txfold group --emit partial -o shard-1.partial shard-1.jsonl.gz
      """
  )

  @Argument(help: "Input files; none or '-' reads standard input.", completion: .file())
  var files: [String] = []

  @OptionGroup(title: "Report")
  var reportOptions: ReportArguments

  @OptionGroup(title: "Input")
  var reading: ReadingArguments

  @OptionGroup(title: "Selection")
  var filters: FilterArguments

  @Option(
    parsing: .unconditional,
    help: "Members kept per group, the most recent: a number, or 'all' (memory then grows with input).",
    completion: .list(["all"]))
  var members: String = "20"

  @Flag(
    help:
      "Count each transaction once: of the records that share an id (with --per-account, an account and an id), the one with the latest creationTime, on a tie the later in the input. Reads each input twice; standard input and pipes are copied to --temp-dir for that."
  )
  var dedupe = false

  @OptionGroup(title: "Nightly runs")
  var nightly: NightlyArguments

  @Option(help: "Take days in this IANA time zone (e.g. Europe/Amsterdam or UTC).")
  var timezone: String?

  @Option(
    parsing: .unconditional, help: "Worker threads that decode and fold (default: all cores).",
    transform: WholeNumber.reader())
  var threads: Int?

  @Option(
    help: "What to write: report, or partial (a mergeable state for 'txfold merge'; ignores --format).",
    completion: .list(["report", "partial"]))
  var emit: String = "report"

  @Flag(
    help:
      "One report per account, accounts in byte-wise order of their ids (the account field: backbase's arrangementId, or --field account=PATH)."
  )
  var perAccount = false

  @Flag(help: "With --per-account: each record's account is its input file's name up to the first '.'.")
  var accountFromFile = false

  @Option(
    parsing: .unconditional,
    help:
      "With --per-account or --dedupe: memory for the fold's tables and the id table before they spill to temporary files (default 512M; units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000)."
  )
  var memoryLimit: String?

  @OptionGroup
  var pageOutput: OutputDirectoryArguments

  /// `--memory-limit` when not given.
  static let defaultMemoryLimit = "512M"

  @Option(
    help: "Directory for the temporary files of --per-account and --dedupe (default: $TMPDIR, else /tmp).",
    completion: .directory)
  var tempDir: String?

  @Flag(
    help:
      "With --per-account: the input's account ids come in byte-wise ascending order across all inputs, so each account is written as it ends and nothing spills (an account out of order fails the run, exit 65)."
  )
  var sortedByAccount = false

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var options = GroupOptions()
    var report = ReportArguments.Report()
    /// `--emit partial`: write a mergeable partial state instead of a report.
    var emitPartial = false
    /// `--per-account`: one report per account.
    var perAccount = false
    /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
    var outputDirectory: String?
    /// The selection flags, checked; the id files are read in `run()`.
    var selection = FilterArguments.Selection()
  }

  /// Checks every option and builds the library's options from them.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    configuration.report = try reportOptions.report()
    configuration.options.read = try reading.readOptions()
    if members == "all" {
      configuration.options.memberLimit = Int.max
    } else if let limit = Int(members), limit >= 0 {
      configuration.options.memberLimit = limit
    } else {
      throw ValidationError("--members must be a whole number of at least 0 or 'all', not '\(members)'.")
    }
    configuration.options.dedupe = dedupe
    if let timezone {
      do throws(ZoneError) {
        configuration.options.read.zone = try ZoneResolver.named(timezone)
      } catch {
        throw ValidationError("--timezone: \(error)")
      }
    }
    try configuration.options.setThreads(threads)
    configuration.emitPartial = try EmitChoice.isPartial(emit, dedupe: dedupe)
    if configuration.report.format == .csv && !configuration.emitPartial {
      // CSV lists no members, and counts, totals and `latest` do not depend on them: keeping
      // none skips the member work of every record (a partial keeps them, for any later format).
      configuration.options.memberLimit = 0
      configuration.options.reportMembers = false
    }
    try perAccountConfiguration(&configuration)
    try nightly.check(
      accountFromFile: accountFromFile, emitsPartial: configuration.emitPartial, sortedByAccount: sortedByAccount,
      perAccount: perAccount, selects: filters.selects)
    if nightly.isNightly { configuration.options.dedupe = true }
    configuration.selection = try filters.selection()
    if configuration.emitPartial && filters.selects {
      throw ValidationError(
        "--emit partial folds every accepted record: give the selection flags to the run that reads "
          + "the whole dump, not to a shard (a partial does not record a selection, so merge could not check it).")
    }
    try ReadingArguments.checkInputs(files)
    return configuration
  }

  /// `--per-account` and the options that go with it.
  func perAccountConfiguration(_ configuration: inout Configuration) throws {
    configuration.outputDirectory = try pageOutput.check(
      perAccount: perAccount, report: reportOptions, format: &configuration.report.format,
      emitPartial: configuration.emitPartial, dryRun: reading.dryRun)
    guard perAccount else {
      if accountFromFile { throw ValidationError("--account-from-file needs --per-account.") }
      if sortedByAccount { throw ValidationError("--sorted-by-account needs --per-account.") }
      if dedupe || nightly.isNightly { return try spillConfiguration(&configuration) }
      // A whole report's fold never spills: these would be silently ignored.
      if memoryLimit != nil {
        throw ValidationError("--memory-limit needs --per-account or --dedupe (a whole report never spills).")
      }
      if tempDir != nil {
        throw ValidationError("--temp-dir needs --per-account or --dedupe (a whole report never spills).")
      }
      return
    }
    if sortedByAccount && configuration.emitPartial {
      throw ValidationError(
        "--sorted-by-account cannot write --emit partial: a per-account partial's header names its inputs' "
          + "fingerprints, known only at the end; drop one of them.")
    }
    configuration.options.sortedByAccount = sortedByAccount
    configuration.perAccount = true
    guard configuration.emitPartial || AccountReportWriter.formats.contains(configuration.report.format) else {
      let names = AccountReportWriter.formats.map(\.rawValue).joined(separator: ", ")
      throw ValidationError("--per-account writes \(names), not --format \(configuration.report.format.rawValue).")
    }
    if accountFromFile {
      if files.isEmpty || files.contains("-") {
        throw ValidationError(
          "--account-from-file needs input files: standard input has no name to take the account from.")
      }
      configuration.options.read.accounts = .fileName
    } else {
      configuration.options.read.accounts = .field
      if configuration.options.read.lacksAccountMapping {
        let schema = configuration.options.read.schema?.name ?? "auto"
        throw ValidationError(
          "--per-account needs each record's account, and schema '\(schema)' has no account field: "
            + "map one with --field account=PATH (or use --account-from-file).")
      }
    }
    try spillConfiguration(&configuration)
  }

  /// `--memory-limit` and `--temp-dir`, for the runs that spill.
  func spillConfiguration(_ configuration: inout Configuration) throws {
    try configuration.options.setSpill(
      memoryLimit: memoryLimit ?? Self.defaultMemoryLimit, temporaryDirectory: tempDir)
  }

  func run() throws {
    let configuration = try configuration()
    let run = try ReadingRun(
      command: "group", files: files, report: reportOptions, reading: reading, idFiles: filters.idFiles,
      nightly: nightly, directory: configuration.outputDirectory)
    let (paths, started, summary, outputs) = (run.paths, run.started, run.summary, run.outputs)
    var options = configuration.options
    options.filter = try filters.resolvedFilter(configuration.selection)
    // The state pins --members as given (csv keeps none, but the state does not depend on it).
    var pinned = options
    pinned.memberLimit = members == "all" ? Int.max : Int(members) ?? options.memberLimit
    pinned.reportMembers = true
    try nightly.open(into: &options.read, job: .group(pinned), outputs: outputs)
    let pipeline = GroupPipeline(options: options)
    run.attach(pipeline)
    defer { SignalGuard.protect(temporaryDirectory: nil) }
    if configuration.perAccount {
      if let directory = configuration.outputDirectory {
        try outputs.attach(directory: directory)
      }
      return try runPerAccount(pipeline, configuration: configuration, paths: paths, outputs: outputs, summary: summary)
    }

    let stats: RunStats
    var partial: PartialState?
    var folded: FoldedGroups?
    do throws(PipelineError) {
      if configuration.emitPartial {
        let state = try pipeline.runPartial(paths: paths)
        partial = state
        stats = state.stats
      } else {
        let fold = try pipeline.fold(paths: paths)
        folded = fold
        stats = fold.stats
      }
    } catch {
      summary.clearProgress()
      throw outputs.fail(ExitStatus.fail(error))
    }
    summary.clearProgress()

    try outputs.writing { () throws(OutputError) in
      let textOptions = reportOptions.textOptions(
        locale: configuration.report.locale, inputs: paths, nightly: outputs.nightly)
      if let partial {
        try partial.write(flush: outputs.write)
      } else if let folded {
        // The report is written on a thread of its own, so that rendering never waits for it.
        outputs.writeInBackground()
        try folded.render(format: configuration.report.format, options: textOptions, flush: outputs.write)
      }
    }
    try outputs.finish(stats: stats, summary: summary, started: started)
  }

  /// `--per-account`: the accounts are written as the cursor hands them out.
  func runPerAccount(
    _ pipeline: GroupPipeline, configuration: Configuration, paths: [String], outputs: RunOutputs, summary: RunSummary
  ) throws {
    let started = ContinuousClock.now
    // The cursor lives only inside `write`: dropping it stops a sorted fold
    // still reading, so that no rejection is written while the outputs fail.
    let written: (stats: RunStats, spilledRuns: Int)
    do {
      written = try write(pipeline, configuration: configuration, paths: paths, outputs: outputs, summary: summary)
    } catch let failure as AccountWriteFailure {
      throw outputs.fail(failure.code)
    }
    try outputs.finish(stats: written.stats, summary: summary, started: started)
    summary.noteSpill("folded", runs: written.spilledRuns, memoryLimit: memoryLimit ?? Self.defaultMemoryLimit)
  }

  /// Why `write` stopped: its message is printed; the outputs are still to fail.
  struct AccountWriteFailure: Error {
    let code: ExitCode
  }

  /// Runs the per-account fold and writes every account (or the partial);
  /// returns the run's stats once the last account is written.
  func write(
    _ pipeline: GroupPipeline, configuration: Configuration, paths: [String], outputs: RunOutputs, summary: RunSummary
  ) throws -> (stats: RunStats, spilledRuns: Int) {
    let sorted = configuration.options.sortedByAccount
    let cursor: AccountReportCursor
    do throws(PipelineError) {
      cursor =
        configuration.emitPartial
        ? try pipeline.runPerAccountPartial(paths: paths) : try pipeline.runPerAccount(paths: paths)
    } catch {
      summary.clearProgress()
      throw AccountWriteFailure(code: ExitStatus.fail(error))
    }
    // A sorted fold is still reading (and drawing progress) until the last account.
    if !sorted { summary.clearProgress() }
    if configuration.emitPartial {
      do throws(AccountPartialWriteError<OutputError>) {
        try cursor.writePartial(typedFlush: outputs.write)
      } catch {
        throw AccountWriteFailure(code: ExitStatus.fail(error))
      }
      return (cursor.stats, cursor.spilledRuns)
    }
    let textOptions = reportOptions.textOptions(
      locale: configuration.report.locale, inputs: paths, nightly: outputs.nightly)
    if let directory = outputs.directory {
      try writePages(
        cursor, into: directory, options: textOptions, settings: configuration.options, sorted: sorted,
        summary: summary)
      return (cursor.stats, cursor.spilledRuns)
    }
    // Safe because `configuration()` checked the format.
    guard var writer = AccountReportWriter(format: configuration.report.format, options: textOptions) else {
      return (cursor.stats, cursor.spilledRuns)
    }
    do throws(OutputError) {
      try writer.begin(flush: outputs.write)
    } catch {
      throw AccountWriteFailure(code: ExitStatus.fail(error))
    }
    // The main thread renders the accounts a second thread merges; the
    // writing goes to a third, so that rendering never waits for it.
    outputs.writeInBackground()
    do throws(AccountReportWriteError<OutputError>) {
      try cursor.write(typedWith: &writer, flush: outputs.write)
    } catch {
      if sorted { summary.clearProgress() }
      switch error {
      case .pipeline(let error): throw AccountWriteFailure(code: ExitStatus.fail(error))
      case .output(let error): throw AccountWriteFailure(code: ExitStatus.fail(error))
      }
    }
    if sorted { summary.clearProgress() }
    do throws(OutputError) {
      try writer.finish(stats: cursor.stats, flush: outputs.write)
    } catch {
      throw AccountWriteFailure(code: ExitStatus.fail(error))
    }
    return (cursor.stats, cursor.spilledRuns)
  }
}

extension GroupCommand {
  /// `--output-dir`: each account's page as the cursor hands it out, then the
  /// index pages (`AccountPageDirectory`, its index spilling as `settings`
  /// say); `RunOutputs.commit` puts the directory in place.
  func writePages(
    _ cursor: AccountReportCursor, into directory: OutputDirectory, options: TextReportOptions,
    settings: RunSettings, sorted: Bool, summary: RunSummary
  ) throws {
    var pages = AccountPageDirectory(directory: directory, options: options, spilling: settings)
    func failure(_ code: ExitCode) -> AccountWriteFailure {
      if sorted { summary.clearProgress() }
      return AccountWriteFailure(code: code)
    }
    for result in cursor {
      let account: AccountReport
      switch result {
      case .success(let next): account = next
      case .failure(let error): throw failure(ExitStatus.fail(error))
      }
      do throws(OutputError) {
        try pages.write(account)
      } catch {
        throw failure(ExitStatus.fail(error))
      }
    }
    if sorted { summary.clearProgress() }
    do throws(OutputError) {
      try pages.finish(stats: cursor.stats)
    } catch {
      throw AccountWriteFailure(code: ExitStatus.fail(error))
    }
  }
}
