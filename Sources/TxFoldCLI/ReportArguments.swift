import ArgumentParser
import Foundation
import TxFold

/// Where and how `list` and `summary` write their report: format, output
/// file, locale, colour, and the run summary on standard error.
struct ReportArguments: ParsableArguments {
  @Option(
    help:
      "Output format: text, json, jsonl, csv or html (default: from --output's extension, .json, .jsonl, .csv, .html or .txt; else text).",
    completion: .list(ReportFormat.allCases.map(\.rawValue)))
  var format: String?

  @Option(
    name: [.short, .long],
    help: "Write the report to this file (a regular file is replaced atomically; '-' is standard output).",
    completion: .file())
  var output: String?

  @Option(
    help:
      "Locale of the text and html reports' numbers, amounts, dates and words: en, fr, de, nl or es (default: from LC_ALL, LC_MESSAGES or LANG, else en).",
    completion: .list(ReportLocale.supportedIdentifiers))
  var locale: String?

  @Option(
    help:
      "Colour in the text report: auto (on a terminal whose TERM is not dumb, without NO_COLOR or CLICOLOR=0; into a pipe too with CLICOLOR_FORCE), always or never.",
    completion: .list(["auto", "always", "never"]))
  var color: String = "auto"

  @Option(
    help: """
      Colours of income and expense when colour is on: standard (green and red), blue-orange (told apart \
      without red/green vision and in greyscale) or mono (bold and underlined, no hue).
      """,
    completion: .list(ColorTheme.allCases.map(\.rawValue)))
  var theme: String = ColorTheme.standard.rawValue

  @Flag(
    help: "Never cut long descriptions in the text report (by default they are cut with an ellipsis at the line width)."
  )
  var wide = false

  @Flag(name: [.short, .long], help: "Print no run summary or progress line on standard error.")
  var quiet = false

  @Option(
    help: ArgumentHelp(
      """
      Write the run's accounting as one JSON document to this file (lines, accepted, rejected by reason, schema, \
      bytes read and inflated, elapsed seconds, throughput; replaced atomically; '-' is standard output).
      """, valueName: "FILE"), completion: .file())
  var stats: String?

  /// The validated format and locale.
  struct Report {
    var format = ReportFormat.text
    var locale = ReportLocale.english
  }

  /// Checks the options, or throws a usage error naming the option.
  func report() throws -> Report {
    let chosenFormat =
      try format.map {
        try optionValue($0, of: "--format", wanted: "text, json, jsonl, csv or html", ReportFormat.init(rawValue:))
      }
      ?? Self.inferredFormat(output: output)
    let chosen =
      try locale.map {
        try optionValue($0, of: "--locale", wanted: "one of en, fr, de, nl, es", ReportLocale.init(identifier:))
      }
      ?? Self.environmentLocale(ProcessInfo.processInfo.environment)
    guard ["auto", "always", "never"].contains(color) else {
      throw ValidationError("--color must be auto, always or never, not '\(color)'.")
    }
    guard ColorTheme(rawValue: theme) != nil else {
      throw ValidationError("--theme must be standard, blue-orange or mono, not '\(theme)'.")
    }
    return Report(format: chosenFormat, locale: chosen)
  }

  /// Whether the text report is coloured: `always`, or `auto` as
  /// `Terminal.wantsColor` has it for standard output (never for `--output`).
  var colored: Bool {
    color == "always" || (color == "auto" && writesStandardOutput && Terminal.wantsColor(fileDescriptor: 1))
  }

  /// The format `--output`'s extension names, case-insensitively (`.json`,
  /// `.jsonl`, `.csv`, `.txt` for text, and every other format by its own
  /// name); text for any other extension, no extension and standard output.
  static func inferredFormat(output: String?) -> ReportFormat {
    guard let output, output != "-" else { return .text }
    let name = output.split(separator: "/").last.map(String.init) ?? output
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .text }
    let fileExtension = name[name.index(after: dot)...].lowercased()
    if fileExtension == "txt" { return .text }
    return ReportFormat(rawValue: fileExtension) ?? .text
  }

  /// The locale the environment asks for, as POSIX reads it: the first
  /// non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG`; English when that is
  /// unset or names a language without a built-in locale (`C`, `POSIX`, `ja_JP`).
  static func environmentLocale(_ environment: [String: String]) -> ReportLocale {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty { return ReportLocale(identifier: value) ?? .english }
    }
    return .english
  }

  /// The text report's options: locale, colour, and the width descriptions
  /// are cut to (`COLUMNS`, else the terminal's width, else 80; none with `--wide`);
  /// `inputs` (the paths read, after every earlier night's of `nightly`) become
  /// the `source` an html page names.
  func textOptions(locale: ReportLocale, inputs: [String] = [], nightly: NightlyState? = nil) -> TextReportOptions {
    TextReportOptions(
      locale: locale, color: colored,
      width: wide ? nil : Terminal.width(fileDescriptor: writesStandardOutput ? 1 : nil), theme: colorTheme,
      source: inputs.isEmpty ? nil : Self.sourceName(inputs, after: nightly))
  }

  /// How an html page names its inputs: a file's name without its directory,
  /// `standard input` for `-`, and past three files the first three and how many more
  /// (`a.jsonl, b.jsonl, c.jsonl + 9 more`). A state run (`nightly`) names every
  /// night's inputs, as `--dedupe` over all of them in order would: its state
  /// keeps the first names and how many there were.
  static func sourceName(_ paths: [String], after nightly: NightlyState? = nil) -> String {
    let inputs = nightly?.inputs(tonight: paths) ?? (paths, paths.count)
    let names = inputs.first.prefix(NightlyState.namedInputs).map { path -> String in
      path == "-" ? "standard input" : NightlyState.inputName(path)
    }
    let more = inputs.count - names.count
    return names.joined(separator: ", ") + (more > 0 ? " + \(more) more" : "")
  }

  /// The validated `--theme` (standard before validation).
  var colorTheme: ColorTheme { ColorTheme(rawValue: theme) ?? .standard }

  /// Whether the report goes to standard output (no `--output`, or `-`).
  var writesStandardOutput: Bool { output == nil || output == "-" }
}
