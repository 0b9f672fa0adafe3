import Foundation

/// Everything `txfold group` can be told, as a validated value for the library.
public struct GroupOptions: Sendable {
  /// How records are read; `nil` (`--schema auto`) chooses per input from its
  /// first valid record's keys, or its wrapper (`SchemaDetector`).
  public var schema: RecordSchema?
  /// The currency of records whose schema has no currency field (`--currency`).
  public var defaultCurrency = RecordSchema.standardCurrency
  /// Read the array at this key path in each top-level object (`--items
  /// items`, `--items a.b.booked`), split at dots; `nil` reads JSON lines, a
  /// top-level array or a recognised wrapper.
  public var itemsPath: [String]?
  /// Count the position of every record of JSON lines input, also when its
  /// schema does not need them as ids (positions cost the reader a pass over each chunk).
  public var countPositions = false
  /// The most members a group keeps (`Int.max` keeps all: memory then grows with input).
  public var memberLimit: Int = 20
  /// Count records that share an id once (the latest; on a tie, the later in the input).
  /// Needs memory per distinct id.
  public var dedupe = false
  /// The zone days are taken in (`--timezone`).
  public var zone: ZoneResolver = .asWritten
  /// Accept `,}` and `,]`.
  public var allowTrailingCommas = false
  /// Longer records are rejected as `record-too-large`.
  public var maxRecordBytes = 1 << 20
  /// Worker threads that decode and fold; 1 runs everything on the calling thread.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Bytes read at a time (the chunk size handed to a worker).
  public var chunkSize = 1 << 20
  /// Stop at the first rejected record.
  public var strict = false
  /// Fail once more than this many records were rejected.
  public var maxRejects: Int?
  /// Whether the report lists each group's kept members (`transactions`).
  /// `false` leaves them empty — counts, totals and `latest` are unchanged —
  /// for outputs that show none, such as CSV: turning 20 members of every
  /// group into strings is serial work at the end of a run.
  public var reportMembers = true
  /// Fail with `PipelineError.nothingAccepted` when the input held records
  /// and none was accepted (a wrong file, schema or `--items` path), instead
  /// of returning an empty report. An input without records (an empty file,
  /// `[]`) is not a failure. `runPartial` never applies it: a shard whose few
  /// records were all bad is normal; `txfold merge` applies it over all shards.
  public var requireAcceptedRecords = false

  /// Creates the defaults of `txfold group`.
  public init() {}

  /// The schemas a run reads with: the one chosen, or every built-in one for
  /// `auto`, with `defaultCurrency` where they have no currency field.
  public var schemaCandidates: [RecordSchema] {
    (schema.map { [$0] } ?? RecordSchema.builtIn).map { candidate in
      var adjusted = candidate
      if adjusted.paths[.currency] == nil { adjusted.defaultCurrency = defaultCurrency }
      return adjusted
    }
  }
}

/// Why a pipeline run stopped without a report.
///
/// Its `description` (also its `errorDescription`) names options as the
/// library spells them (`maxRejects`), never command-line flags.
public enum PipelineError: Error, Sendable, CustomStringConvertible {
  /// An input could not be opened or read, or its gzip stream is damaged.
  case input(InputError)
  /// `strict` is set and a record was rejected.
  case strictRejection(RecordRejection)
  /// More records were rejected than `maxRejects` allows; the last one is attached.
  case tooManyRejects(limit: Int, last: RecordRejection)
  /// An exact total no longer fits in 128 bits: in the group named, while
  /// reading `file`; `nil` when the overflow appeared only when the workers'
  /// tables were added up, so no one input is to blame.
  case sumOverflow(state: String, date: String, currency: String, file: String?)
  /// Writing the rejects failed.
  case rejectOutput(String)
  /// The input held records and none was accepted (`requireAcceptedRecords`).
  case nothingAccepted(NothingAccepted)

  /// The sentence the CLI prints for the failure.
  public var description: String {
    switch self {
    case .input(let error): return error.description
    case .strictRejection(let rejection): return "Rejected record in strict mode: \(rejection.message)"
    case .tooManyRejects(let limit, let last):
      return "More than \(limit) records rejected (maxRejects); the last: \(last.message)"
    case .sumOverflow(let state, let date, let currency, let file):
      let source = file.map { "while reading '\($0)'" } ?? "over all the inputs together"
      return
        "The \(currency) total of the \(state) group of \(date) overflows 128 bits \(source); no report is written."
    case .rejectOutput(let reason):
      // `reason` is often an error's own sentence, full stop included.
      return "Cannot write rejects: \(reason)" + (reason.hasSuffix(".") ? "" : ".")
    case .nothingAccepted(let failure): return failure.description
    }
  }
}
