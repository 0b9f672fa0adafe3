import ArgumentParser
import Foundation
import TxFold

/// `txfold merge`: combines partial states into the final report (SPEC §6).
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merges partial states from 'txfold group --emit partial' into one report.",
    discussion: """
      Reads partial states (plain or gzip-compressed, detected from the content) from the files \
      given, or from standard input when there are none or one is '-'. An input may hold several \
      partials one after another. The report is byte-identical to one 'txfold group' run over all \
      the shards' input; partials folded with different settings are refused (exit 65).
      """
  )

  @Argument(help: "Partial state files; none or '-' reads standard input.")
  var files: [String] = []

  @Option(help: "Output format: text, json, jsonl or csv.")
  var format: String = "text"

  @Option(name: [.short, .long], help: "Write the report to this file atomically instead of standard output.")
  var output: String?

  @Option(help: "Locale of the text report's numbers, dates and words: en, fr, de, nl or es.")
  var locale: String = "en"

  @Option(help: "Colour in the text report: auto (on a terminal without NO_COLOR), always or never.")
  var color: String = "auto"

  @Flag(name: [.short, .long], help: "Print no summary on standard error.")
  var quiet = false

  @Option(help: "What to write: report, or partial (the merged partial state, for further merges; ignores --format).")
  var emit: String = "report"

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var format = ReportFormat.text
    var locale = ReportLocale.english
    var emitPartial = false
  }

  func validate() throws {
    _ = try configuration()
  }

  /// Checks every option.
  func configuration() throws -> Configuration {
    var configuration = Configuration()
    guard let format = ReportFormat(rawValue: format) else {
      throw ValidationError("--format must be text, json, jsonl or csv, not '\(format)'.")
    }
    configuration.format = format
    guard let locale = ReportLocale(identifier: locale) else {
      throw ValidationError("--locale must be one of en, fr, de, nl, es, not '\(locale)'.")
    }
    configuration.locale = locale
    guard ["auto", "always", "never"].contains(color) else {
      throw ValidationError("--color must be auto, always or never, not '\(color)'.")
    }
    configuration.emitPartial = try EmitChoice.isPartial(emit)
    if files.filter({ $0 == "-" }).count > 1 {
      throw ValidationError("Standard input ('-') can be read only once.")
    }
    return configuration
  }

  func run() throws {
    SignalGuard.install()
    let configuration = try configuration()
    let paths = files.isEmpty ? ["-"] : files
    let started = ContinuousClock.now
    let summary = RunSummary(quiet: quiet)

    let report: OutputFile
    do throws(OutputError) {
      report = try output.map { path throws(OutputError) in try OutputFile.atomic(path: path) } ?? .standardOutput()
    } catch {
      throw ExitStatus.fail(error)
    }
    SignalGuard.protect(temporaryFile: report.temporaryPath)

    let merger = PartialMerger()
    let merged: PartialState
    do throws(PartialStateError) {
      try merger.read(paths: paths)
      guard let state = merger.merged else { throw .malformed(file: "-", line: 1, detail: "no input was given") }
      merged = state
    } catch {
      report.discard()
      throw ExitStatus.fail(error)
    }

    do throws(OutputError) {
      let write = { (buffer: inout [UInt8]) throws(OutputError) in
        try report.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
      if configuration.emitPartial {
        try PartialStateWriter.write(merged, flush: write)
      } else {
        let colored = color == "always" || (color == "auto" && output == nil && Terminal.wantsColor(fileDescriptor: 1))
        let textOptions = TextReportOptions(locale: configuration.locale, color: colored)
        try ReportRenderer.render(merged.report(), format: configuration.format, options: textOptions, flush: write)
      }
      try report.commit()
    } catch {
      report.discard()
      throw ExitStatus.fail(error)
    }
    SignalGuard.protect(temporaryFile: nil)
    summary.finishMerge(stats: merged.stats, partials: merger.partialCount, elapsed: ContinuousClock.now - started)
  }
}
