import ArgumentParser
import TxFold

/// `--output-dir DIR` as `group`, `merge`, `list` and `summary` take it:
/// with `--per-account`, html, one page per account and an index, in a new
/// (or empty) directory (Documentation/Formats.md, "One page per account";
/// `AccountPageDirectory` writes it, `RunOutputs.attach(directory:)` opens
/// and commits it).
struct OutputDirectoryArguments: ParsableArguments {
  @Option(
    help:
      "With --per-account: write html, one page per account and index.html, into this new (or empty) directory.",
    completion: .directory)
  var outputDir: String?

  /// Checks `--output-dir` against the rest of the command line: it needs
  /// `--per-account`, writes html (the format when `--format` was not
  /// given: `report.format` is then set to it), and is neither `--output`
  /// nor `--emit partial`. Returns the directory to write, or `nil` without
  /// `--output-dir` or with `--dry-run` (which writes no report).
  func check(
    perAccount: Bool, report: ReportArguments, format: inout ReportFormat, emitPartial: Bool = false,
    dryRun: Bool = false
  ) throws -> String? {
    guard let outputDir else { return nil }
    guard perAccount else {
      throw ValidationError("--output-dir needs --per-account: it writes one html page per account.")
    }
    if outputDir.isEmpty { throw ValidationError("--output-dir is an empty path; name a directory.") }
    if report.output != nil {
      throw ValidationError("--output-dir writes a directory of pages and --output one file: give one of them.")
    }
    if emitPartial { throw ValidationError("--output-dir writes html pages, not --emit partial.") }
    if report.format == nil {
      format = .html
    } else if format != .html {
      throw ValidationError(
        "--output-dir writes html pages, not --format \(format.rawValue); drop --output-dir, or use --format html.")
    }
    return dryRun ? nil : outputDir
  }
}

extension AccountPageDirectory {
  /// `--output-dir`'s pages, whose index keeps to its share of `settings`'
  /// `--memory-limit` and spills past it into `--temp-dir`, in a directory
  /// removed on an interrupt as every spill's is.
  init(directory: OutputDirectory, options: TextReportOptions, periods: Bool = true, spilling settings: RunSettings) {
    self.init(
      directory: directory, options: options, periods: periods, memoryLimit: settings.memoryLimit,
      temporaryDirectory: settings.temporaryDirectory,
      onTemporaryDirectory: { SignalGuard.protect(temporaryDirectory: $0) })
  }
}
