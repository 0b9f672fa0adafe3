import ArgumentParser
import Foundation
import TxFold

/// `txfold summary`: per-key counts and income/expense totals, with a bar chart (SPEC §4).
struct SummaryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "summary",
    abstract: "Sums income and expense per category, day, month, counterparty or state, with a bar chart.",
    discussion: """
      Reads JSON lines (optionally gzip-compressed) from the files given, or from standard input \
      when there are none or one is '-'. Keys are ordered by their absolute expense, largest \
      first. Memory grows with the number of distinct keys, not with the input.
      """
  )

  @Argument(help: "Input files; none or '-' reads standard input.")
  var files: [String] = []

  @Option(help: "What to sum per: category, day, month, counterparty or state.")
  var by: String = "category"

  @Option(help: "Output format: text, json, jsonl or csv.")
  var format: String = "text"

  @Option(name: [.short, .long], help: "Write the summary to this file atomically instead of standard output.")
  var output: String?

  @Option(help: "Locale of the text summary's numbers, dates and words: en, fr, de, nl or es.")
  var locale: String = "en"

  @OptionGroup(title: "Selection")
  var selection: SelectionArguments

  @OptionGroup(title: "Input")
  var reading: ReadingArguments

  @Option(help: "Colour in the text summary: auto (on a terminal without NO_COLOR), always or never.")
  var color: String = "auto"

  @Flag(name: [.short, .long], help: "Print no run summary on standard error.")
  var quiet = false

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var options = SummaryOptions()
    var selection = SelectionArguments.Selection()
    var format = ReportFormat.text
    var locale = ReportLocale.english
  }

  func validate() throws {
    _ = try configuration()
  }

  /// Checks every option and builds the library's options from them.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    guard let dimension = SummaryDimension(rawValue: by) else {
      throw ValidationError("--by must be category, day, month, counterparty or state, not '\(by)'.")
    }
    configuration.options.dimension = dimension
    guard let format = ReportFormat(rawValue: format) else {
      throw ValidationError("--format must be text, json, jsonl or csv, not '\(format)'.")
    }
    configuration.format = format
    guard let locale = ReportLocale(identifier: locale) else {
      throw ValidationError("--locale must be one of en, fr, de, nl, es, not '\(locale)'.")
    }
    configuration.locale = locale
    configuration.selection = try selection.selection()
    configuration.options.dedupe = selection.dedupe
    configuration.options.read = try reading.readOptions()
    guard ["auto", "always", "never"].contains(color) else {
      throw ValidationError("--color must be auto, always or never, not '\(color)'.")
    }
    if files.filter({ $0 == "-" }).count > 1 {
      throw ValidationError("Standard input ('-') can be read only once.")
    }
    return configuration
  }

  func run() throws {
    SignalGuard.install()
    var configuration = try configuration()
    let paths = files.isEmpty ? ["-"] : files
    let started = ContinuousClock.now
    let summary = RunSummary(quiet: quiet)
    do throws(InputError) {
      configuration.options.filter = try selection.filter(configuration.selection)
    } catch {
      throw ExitStatus.fail(PipelineError.input(error))
    }

    let outputs = try QueryOutputs(output: output, rejects: reading.rejects)
    let pipeline = SummaryPipeline(options: configuration.options)
    pipeline.onRejection = outputs.onRejection
    let report: SummaryReport
    do throws(QueryPipelineError) {
      report = try pipeline.run(paths: paths)
    } catch {
      outputs.abandon()
      throw ExitStatus.fail(error)
    }

    let toTerminal = output == nil
    let colored = color == "always" || (color == "auto" && toTerminal && Terminal.wantsColor(fileDescriptor: 1))
    let options = SummaryTextOptions(
      locale: configuration.locale, color: colored, width: Terminal.width(fileDescriptor: toTerminal ? 1 : nil))
    do throws(OutputError) {
      try outputs.commitRejects()
      try SummaryRenderer.render(report, format: configuration.format, options: options) {
        (buffer: inout [UInt8]) throws(OutputError) in try outputs.write(&buffer)
      }
      try outputs.commitReport()
    } catch {
      outputs.abandon()
      throw ExitStatus.fail(error)
    }
    summary.finish(stats: report.stats, elapsed: ContinuousClock.now - started)
  }
}
