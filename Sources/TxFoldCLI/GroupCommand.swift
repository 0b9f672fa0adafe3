import ArgumentParser
import Foundation
import TxFold

/// `txfold group`: the main job (SPEC §2).
struct GroupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "group",
    abstract: "Groups transactions by state, day and credit/debit indicator.",
    discussion: """
      Reads JSON lines, a JSON array of records, or a document wrapping arrays of records \
      (optionally gzip-compressed; all detected from the content) from the files given, or from \
      standard input when there are none or one is '-'. Several files are one stream of records.
      """
  )

  @Argument(help: "Input files; none or '-' reads standard input.")
  var files: [String] = []

  @Option(help: "Output format: text, json, jsonl or csv.")
  var format: String = "text"

  @Option(name: [.short, .long], help: "Write the report to this file atomically instead of standard output.")
  var output: String?

  @Option(help: "Locale of the text report's numbers, dates and words: en, fr, de, nl or es.")
  var locale: String = "en"

  @Option(help: "Members kept per group, the most recent: a number, or 'all' (memory then grows with input).")
  var members: String = "20"

  @Flag(help: "Count records that share an id once, the latest (needs memory per distinct id).")
  var dedupe = false

  @Option(help: "Take days in this IANA time zone (e.g. Europe/Amsterdam or UTC).")
  var timezone: String?

  @Option(
    help: """
      Input schema: auto (chosen per input from its first valid record or its wrapper), backbase, payback, ledger, \
      swile, psd2 or custom.
      """)
  var schema: String = "auto"

  @Option(
    name: .customLong("field"),
    help: ArgumentHelp(
      """
      Map a transaction field to a dotted input path (repeatable; a field given twice tries its paths in order): \
      id, instant, amount, currency, indicator, state, description, category, counterparty or fee.
      """, valueName: "NAME=PATH"))
  var fields: [String] = []

  @Option(help: "Currency of records whose schema has no currency field (e.g. ledger).")
  var currency: String = RecordSchema.standardCurrency

  @Option(help: ArgumentHelp("Read the array of records at this dotted key path in the document.", valueName: "PATH"))
  var items: String?

  @Option(help: "Write one JSON line per rejected record to this file.")
  var rejects: String?

  @Flag(help: "Stop at the first rejected record (exit 65).")
  var strict = false

  @Option(help: "Fail (exit 65) once more than this many records are rejected.")
  var maxRejects: Int?

  @Option(help: "Reject records longer than this many bytes (suffixes K, M, G allowed).")
  var maxRecordBytes: String = "1M"

  @Flag(help: "Accept trailing commas before '}' and ']', as some bank exports write them.")
  var allowTrailingCommas = false

  @Option(help: "Worker threads that decode and fold (default: all cores).")
  var threads: Int?

  @Option(help: "Colour in the text report: auto (on a terminal without NO_COLOR), always or never.")
  var color: String = "auto"

  @Flag(name: [.short, .long], help: "Print no run summary or progress on standard error.")
  var quiet = false

  @Option(help: "What to write: report, or partial (a mergeable state for 'txfold merge'; ignores --format).")
  var emit: String = "report"

  /// The validated configuration, built by `validate()`.
  struct Configuration {
    var options = GroupOptions()
    var format = ReportFormat.text
    var locale = ReportLocale.english
    /// `--emit partial`: write a mergeable partial state instead of a report.
    var emitPartial = false
  }

  func validate() throws {
    _ = try configuration()
  }

  /// Checks every option and builds the library's options from them.
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
    if members == "all" {
      configuration.options.memberLimit = Int.max
    } else if let limit = Int(members), limit >= 0 {
      configuration.options.memberLimit = limit
    } else {
      throw ValidationError("--members must be a number of at least 0 or 'all', not '\(members)'.")
    }
    configuration.options.dedupe = dedupe
    if let timezone {
      guard let zone = ZoneResolver(identifier: timezone) else {
        throw ValidationError("--timezone: unknown time zone '\(timezone)'.")
      }
      configuration.options.zone = zone
    }
    configuration.options.schema = try chosenSchema()
    configuration.options.defaultCurrency = currency
    configuration.options.itemsPath = try SchemaSelection.itemsPath(items)
    if let maxRejects, maxRejects < 0 { throw ValidationError("--max-rejects must be at least 0.") }
    configuration.options.maxRejects = maxRejects
    configuration.options.strict = strict
    guard let limit = ByteCount.parse(maxRecordBytes), limit > 0, limit <= 1 << 30 else {
      throw ValidationError("--max-record-bytes must be a size from 1 to 1G, not '\(maxRecordBytes)'.")
    }
    configuration.options.maxRecordBytes = limit
    configuration.options.allowTrailingCommas = allowTrailingCommas
    if let threads {
      guard threads >= 1, threads <= 256 else { throw ValidationError("--threads must be from 1 to 256.") }
      configuration.options.threads = threads
    }
    guard ["auto", "always", "never"].contains(color) else {
      throw ValidationError("--color must be auto, always or never, not '\(color)'.")
    }
    configuration.emitPartial = try EmitChoice.isPartial(emit, dedupe: dedupe)
    if files.filter({ $0 == "-" }).count > 1 {
      throw ValidationError("Standard input ('-') can be read only once.")
    }
    return configuration
  }

  /// The schema `--schema`, `--field` and `--currency` describe; `nil` for auto.
  func chosenSchema() throws -> RecordSchema? {
    try SchemaSelection.schema(named: schema, fields: fields, currency: currency)
  }

  func run() throws {
    SignalGuard.install()
    let configuration = try configuration()
    let paths = files.isEmpty ? ["-"] : files
    let started = ContinuousClock.now
    let summary = RunSummary(quiet: quiet)

    // Open the outputs first: a report that cannot be written should fail before hours of reading.
    // An interrupt is held back until the temporary report is protected, so it cannot be left behind.
    let (report, rejectsFile) = try SignalGuard.deferringSignals { () throws -> (OutputFile, OutputFile?) in
      do throws(OutputError) {
        let report =
          try output.map { path throws(OutputError) in try OutputFile.atomic(path: path) } ?? .standardOutput()
        let rejectsFile = try rejects.map { path throws(OutputError) in try OutputFile.atomic(path: path) }
        SignalGuard.protect(temporaryFile: report.temporaryPath)
        return (report, rejectsFile)
      } catch {
        throw ExitStatus.fail(error)
      }
    }

    let pipeline = GroupPipeline(options: configuration.options)
    var rejectsBuffer: [UInt8] = []
    if let rejectsFile {
      pipeline.onRejection = { rejection in
        RejectsFileWriter.append(rejection, to: &rejectsBuffer)
        if rejectsBuffer.count >= 1 << 16 {
          try rejectsFile.write(rejectsBuffer)
          rejectsBuffer.removeAll(keepingCapacity: true)
        }
      }
    }
    pipeline.onProgress = summary.progress

    let result: GroupReport
    var partial: PartialState?
    do throws(PipelineError) {
      if configuration.emitPartial {
        let state = try pipeline.runPartial(paths: paths)
        partial = state
        result = GroupReport(sections: [], stats: state.stats)
      } else {
        result = try pipeline.run(paths: paths)
      }
    } catch {
      summary.clearProgress()
      report.discard()
      // Keep what was rejected so far: it explains a --strict or --max-rejects stop.
      try? rejectsFile?.write(rejectsBuffer)
      try? rejectsFile?.commit()
      throw ExitStatus.fail(error)
    }
    summary.clearProgress()

    do throws(OutputError) {
      if let rejectsFile {
        try rejectsFile.write(rejectsBuffer)
        try rejectsFile.commit()
      }
      let colored = color == "always" || (color == "auto" && output == nil && Terminal.wantsColor(fileDescriptor: 1))
      let textOptions = TextReportOptions(locale: configuration.locale, color: colored)
      let write = { (buffer: inout [UInt8]) throws(OutputError) in
        try report.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
      if let partial {
        try PartialStateWriter.write(partial, flush: write)
      } else {
        try ReportRenderer.render(result, format: configuration.format, options: textOptions, flush: write)
      }
      try report.commit()
    } catch {
      report.discard()
      throw ExitStatus.fail(error)
    }
    SignalGuard.protect(temporaryFile: nil)
    summary.finish(stats: result.stats, elapsed: ContinuousClock.now - started)
  }
}

/// Parses sizes such as `1048576`, `512K`, `1M` or `2G`.
enum ByteCount {
  static func parse(_ text: String) -> Int? {
    guard let last = text.last else { return nil }
    let multipliers: [Character: Int] = [
      "K": 1 << 10, "k": 1 << 10, "M": 1 << 20, "m": 1 << 20, "G": 1 << 30, "g": 1 << 30,
    ]
    if let multiplier = multipliers[last] {
      guard let value = Int(text.dropLast()), value >= 0, value <= Int.max / multiplier else { return nil }
      return value * multiplier
    }
    return Int(text)
  }
}
