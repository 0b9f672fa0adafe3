/// How `TransactionReader` reads records: the input options `list` and
/// `summary` share with `group`.
public struct ReadOptions: Sendable {
  /// How records are read; `nil` (`--schema auto`) chooses per input.
  public var schema: RecordSchema?
  /// The currency of records whose schema has no currency field (`--currency`).
  public var defaultCurrency = RecordSchema.standardCurrency
  /// Read the array at this key path (`--items`), split at dots.
  public var itemsPath: [String]?
  /// The zone days are taken in (`--timezone`).
  public var zone: ZoneResolver = .asWritten
  /// Accept `,}` and `,]`.
  public var allowTrailingCommas = false
  /// Longer records are rejected as `record-too-large`.
  public var maxRecordBytes = 1 << 20
  /// Bytes read at a time.
  public var chunkSize = 1 << 20
  /// Stop at the first rejected record.
  public var strict = false
  /// Fail once more than this many records were rejected.
  public var maxRejects: Int?
  /// Fail with `PipelineError.nothingAccepted` when the input held records
  /// and none was accepted (see `GroupOptions.requireAcceptedRecords`).
  public var requireAcceptedRecords = false

  /// Creates the defaults: `--schema auto`, dates as written, 1 MiB records, no reject limit.
  public init() {}

  /// The reading half of `group`'s options.
  public init(_ options: GroupOptions) {
    schema = options.schema
    defaultCurrency = options.defaultCurrency
    itemsPath = options.itemsPath
    zone = options.zone
    allowTrailingCommas = options.allowTrailingCommas
    maxRecordBytes = options.maxRecordBytes
    chunkSize = options.chunkSize
    strict = options.strict
    maxRejects = options.maxRejects
    requireAcceptedRecords = options.requireAcceptedRecords
  }

  /// The same settings as `GroupOptions`, which the framing and schema choice take.
  var groupOptions: GroupOptions {
    var options = GroupOptions()
    options.schema = schema
    options.defaultCurrency = defaultCurrency
    options.itemsPath = itemsPath
    options.zone = zone
    options.allowTrailingCommas = allowTrailingCommas
    options.maxRecordBytes = maxRecordBytes
    options.chunkSize = chunkSize
    options.strict = strict
    options.maxRejects = maxRejects
    options.requireAcceptedRecords = requireAcceptedRecords
    // Records without an id take their position, which the reader needs for every schema.
    options.countPositions = true
    options.threads = 1
    return options
  }
}

extension ReadOptions {
  /// These options reading in `zone` when it is set (`list` and `summary`
  /// take their `--timezone` from the filter): the decoder then places
  /// offset-less times in it once, and rejects a record whose day it moves
  /// outside years 0001–9999, as `group` does.
  func placing(in zone: ZoneResolver) -> ReadOptions {
    guard zone.zone != nil else { return self }
    var options = self
    options.zone = zone
    return options
  }
}
