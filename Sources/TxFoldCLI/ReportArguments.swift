import ArgumentParser
import TxFold

/// Where and how `list` and `summary` write their report: format, output
/// file, locale, colour, and the run summary on standard error.
struct ReportArguments: ParsableArguments {
  @Option(help: "Output format: text, json, jsonl, csv or html (one self-contained page with charts).")
  var format: String = "text"

  @Option(
    name: [.short, .long],
    help: "Write the report to this file (a regular file is replaced atomically; '-' is standard output).")
  var output: String?

  @Option(help: "Locale of the text and html reports' numbers, dates and words: en, fr, de, nl or es.")
  var locale: String = "en"

  @Option(help: "Colour in the text report: auto (on a terminal without NO_COLOR), always or never.")
  var color: String = "auto"

  @Flag(name: [.short, .long], help: "Print no run summary or progress line on standard error.")
  var quiet = false

  /// The validated format and locale.
  struct Report {
    var format = ReportFormat.text
    var locale = ReportLocale.english
  }

  /// Checks the options, or throws a usage error naming the option.
  func report() throws -> Report {
    guard let format = ReportFormat(rawValue: format) else {
      throw ValidationError("--format must be text, json, jsonl, csv or html, not '\(format)'.")
    }
    guard let locale = ReportLocale(identifier: locale) else {
      throw ValidationError("--locale must be one of en, fr, de, nl, es, not '\(locale)'.")
    }
    guard ["auto", "always", "never"].contains(color) else {
      throw ValidationError("--color must be auto, always or never, not '\(color)'.")
    }
    return Report(format: format, locale: locale)
  }

  /// Whether the text report is coloured: `always`, or `auto` on a terminal
  /// without `NO_COLOR` (never for `--output`).
  var colored: Bool {
    color == "always" || (color == "auto" && writesStandardOutput && Terminal.wantsColor(fileDescriptor: 1))
  }

  /// Whether the report goes to standard output (no `--output`, or `-`).
  var writesStandardOutput: Bool { output == nil || output == "-" }
}
