import ArgumentParser
import TxFold

/// The input options `list` and `summary` share with `group`: schema, limits,
/// rejects and the stop rules.
struct ReadingArguments: ParsableArguments {
  @Option(
    help: """
      Input schema: auto (chosen per input from its first valid record or its wrapper), backbase, payback, ledger, \
      swile, psd2 or custom.
      """, completion: .list(["auto", "backbase", "payback", "ledger", "swile", "psd2", "custom"]))
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

  @Option(help: "Write one JSON line per rejected record to this file.", completion: .file())
  var rejects: String?

  @Flag(help: "Stop at the first rejected record (exit 65).")
  var strict = false

  @Option(
    parsing: .unconditional, help: "Fail (exit 65) once more than this many records are rejected.",
    transform: WholeNumber.reader())
  var maxRejects: Int?

  @Option(
    parsing: .unconditional,
    help:
      "Fail (exit 65, no report) when more than this share of the lines is rejected, judged at the end: 0.01 is 1 %."
  )
  var maxRejectRate: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Fail (exit 65, no report) when fewer than this many records are accepted: an empty export is a broken one.",
      valueName: "N"),
    transform: WholeNumber.reader())
  var minAccepted: Int?

  @Option(
    parsing: .unconditional,
    help: "Reject records longer than this many bytes (units K/KiB, M/MiB, G/GiB of 1024 or KB, MB, GB of 1000).")
  var maxRecordBytes: String = "1M"

  @Flag(help: "Accept trailing commas before '}' and ']', as some bank exports write them.")
  var allowTrailingCommas = false

  @Flag(
    help: """
      Read and judge every record as a run would, with the same exit status; write only --rejects and --stats \
      (no report: --output is left untouched, nothing goes to standard output; no state: --state-out is left \
      untouched too).
      """)
  var dryRun = false

  @Flag(
    help: """
      Show progress also when standard error is not a terminal (a log under cron or systemd): one plain line \
      every 10 seconds with bytes, records, rate and ETA.
      """)
  var progress = false

  /// Where the report goes: `--output`, or nowhere for `--dry-run` (a device
  /// is written to, never replaced, so no file is created or touched).
  func reportPath(_ output: String?) -> String? {
    dryRun ? Self.nowhere : output
  }

  static let nowhere = "/dev/null"

  /// The nightly flags as the outputs see them: for `--dry-run`, without
  /// `--state-out`, which it leaves untouched as it does the report — a state
  /// written from a run that publishes nothing would be the next night's
  /// `--state-in` with tonight folded in, and tonight then never reported.
  /// `--state-in` is still read: the run judges what a real one would.
  func writtenNightly(_ nightly: NightlyArguments) -> NightlyArguments {
    guard dryRun else { return nightly }
    var written = nightly
    written.stateOut = nil
    return written
  }

  /// Checks the input list: standard input can be read only once.
  static func checkInputs(_ files: [String]) throws {
    if files.filter({ $0 == "-" }).count > 1 {
      throw ValidationError("Standard input ('-') can be read only once.")
    }
  }

  /// The library's reading options, or a usage error naming the option.
  func readOptions() throws -> ReadOptions {
    var options = ReadOptions()
    options.schema = try SchemaSelection.schema(named: schema, fields: fields, currency: currency)
    options.defaultCurrency = currency
    options.itemsPath = try SchemaSelection.itemsPath(items)
    if let maxRejects, maxRejects < 0 { throw ValidationError("--max-rejects must be at least 0, not \(maxRejects).") }
    options.maxRejects = maxRejects
    if let maxRejectRate {
      guard let rate = ExactDecimal(maxRejectRate), !rate.isNegative,
        rate <= ExactDecimal(significandHigh: 0, significandLow: 1, scale: 0),
        rate.scale <= 18
      else {
        throw ValidationError("--max-reject-rate must be a share from 0 to 1 (0.01 is 1 %), not '\(maxRejectRate)'.")
      }
      options.maxRejectRate = rate
    }
    if let minAccepted, minAccepted < 0 {
      throw ValidationError("--min-accepted must be at least 0, not \(minAccepted).")
    }
    options.minAccepted = minAccepted
    options.strict = strict
    options.limits.maxRecordBytes = try ByteCount.parse(
      maxRecordBytes, option: "--max-record-bytes", range: 1...(1 << 30), wanted: "a size from 1 byte to 1GiB")
    options.allowTrailingCommas = allowTrailingCommas
    // Records read and none accepted is a data error (exit 65), never an empty report.
    options.requireAcceptedRecords = true
    return options
  }
}
