import ArgumentParser
import TxFold

/// `list` and `summary`: the option groups both take, checked and opened in
/// the same steps, between which each command checks its own options.
protocol QueryCommand: ConfiguredCommand where Configuration: QueryConfiguration {
  var files: [String] { get }
  var reporting: ReportArguments { get }
  var selection: SelectionArguments { get }
  var reading: ReadingArguments { get }
  var nightly: NightlyArguments { get }
  var accounts: PerAccountArguments { get }
}

/// What a `QueryCommand`'s option groups set in its configuration.
protocol QueryConfiguration {
  associatedtype Options: QueryOptions
  init()
  var options: Options { get set }
  var selection: FilterArguments.Selection { get set }
  var report: ReportArguments.Report { get set }
  /// `--per-account`: one result per account.
  var perAccount: Bool { get set }
  /// `--output-dir`: one html page per account in this directory (nil with `--dry-run`).
  var outputDirectory: String? { get set }
}

/// The library's options of a `QueryCommand`.
protocol QueryOptions: RunSettings {
  var read: ReadOptions { get set }
  var dedupe: Bool { get set }
  var filter: TransactionFilter { get set }
}

extension ListOptions: QueryOptions {}
extension SummaryOptions: QueryOptions {}

extension QueryCommand {
  /// Whether the run dedupes: `--dedupe`, or a nightly run, which always does.
  var dedupes: Bool { selection.dedupe || nightly.isNightly }

  /// The report, the selection and the reading options.
  func checkReading(_ configuration: inout Configuration) throws {
    configuration.report = try reporting.report()
    configuration.selection = try selection.selection()
    configuration.options.dedupe = dedupes
    configuration.options.read = try reading.readOptions()
  }

  /// `--per-account` and `--output-dir`, for a report in one of `formats`.
  func checkPerAccount(_ configuration: inout Configuration, formats: [ReportFormat]) throws {
    configuration.outputDirectory = try accounts.pageOutput.check(
      perAccount: accounts.perAccount, report: reporting, format: &configuration.report.format,
      dryRun: reading.dryRun)
    configuration.perAccount = try accounts.apply(
      to: &configuration.options.read, files: files, dedupe: dedupes, format: configuration.report.format,
      formats: formats)
  }

  /// The last checks, against all the rest: the nightly flags and the inputs.
  func checkNightlyAndInputs(_ configuration: Configuration) throws {
    try nightly.check(
      accountFromFile: accounts.accountFromFile, perAccount: configuration.perAccount,
      selects: selection.filters.selects)
    try ReadingArguments.checkInputs(files)
  }

  /// Opens the run's outputs (`ReadingRun`), then reads the id files into the
  /// filter and last night's state, for the nightly `job`, into the options.
  func startRun(
    _ configuration: inout Configuration, command: String, job: (Configuration.Options) -> NightlyState.Job
  ) throws -> ReadingRun {
    let run = try ReadingRun(
      command: command, files: files, report: reporting, reading: reading, idFiles: selection.idFiles,
      nightly: nightly, directory: configuration.outputDirectory)
    configuration.options.filter = try run.filter(selection, configuration.selection)
    try nightly.open(into: &configuration.options.read, job: job(configuration.options), outputs: run.outputs)
    return run
  }
}
