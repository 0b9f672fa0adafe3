/// How records are read — framing, schema, limits, zone and what a rejection does: the
/// settings every job shares. `GroupOptions`, `ListOptions` and `SummaryOptions` each hold
/// one as `read`, and the reading stages (framers, schema choice, rejection accounting,
/// `TransactionReader`) take nothing else.
public struct ReadOptions: Sendable {
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
  /// The zone days are taken in (`--timezone`): the one zone of every command. A run places
  /// offset-less times in it, and its report's days, its filter's `since`/`until` and a list's
  /// `date` are this zone's (`GroupOptions`, `ListOptions` and `SummaryOptions` give their
  /// `filter` this zone).
  public var zone: ZoneResolver = .asWritten
  /// Accept `,}` and `,]`.
  public var allowTrailingCommas = false
  /// The longest record kept and the bytes read at a time (`--max-record-bytes`, `--chunk-size`).
  package var limits = RecordLimits()
  /// The longest record accepted, in bytes (at least 1; by default 1 MiB): a longer one is
  /// rejected as `record-too-large`, and its first 4 KiB go to the rejection's `raw`.
  public var maxRecordBytes: Int {
    get { limits.maxRecordBytes }
    set { limits.maxRecordBytes = newValue }
  }
  /// The bytes read from an input at a time, the most a worker is handed at once (at least 1; by
  /// default 1 MiB). A chunk holds one read after an unfinished record, so memory per chunk is
  /// about `chunkSize + maxRecordBytes`.
  public var chunkSize: Int {
    get { limits.chunkSize }
    set { limits.chunkSize = newValue }
  }
  /// Stop at the first rejected record.
  public var strict = false
  /// Fail once more than this many records were rejected.
  public var maxRejects: Int?
  /// Fail with `PipelineError.nothingAccepted` when the input held records
  /// and none was accepted (a wrong file, schema or `--items` path), instead
  /// of returning an empty result. An input without records (an empty file,
  /// `[]`) is not a failure. `runPartial` never applies it: a shard whose few
  /// records were all bad is normal; `txfold merge` applies it over all shards.
  public var requireAcceptedRecords = false
  /// Fail with `PipelineError.tooManyRejected` when more than this share of
  /// the lines was rejected (`0.01`: 1 %), judged at the end of the input;
  /// `nil` allows any share. An operator's threshold for a nightly job.
  public var maxRejectRate: ExactDecimal?
  /// Fail with `PipelineError.tooFewAccepted` when fewer records than this
  /// were accepted, judged at the end of the input (after `maxRejectRate`);
  /// `nil` sets no minimum. Like `maxRejectRate`, `runPartial` never applies it.
  public var minAccepted: Int?
  /// Where a record's account comes from, for per-account runs; `.none` reads no account.
  public var accounts = AccountSource.none
  /// An input that ends inside a record or a document never closed fails the
  /// run with `InputError.truncatedInput` (Documentation/Formats.md, "An input
  /// cut off"). Off only in tests of how framing rejects what a cut leaves.
  var cutShortInputFails = true
  /// The inputs are state records, length-prefixed (`StateSource`), not
  /// JSON: a nightly run's second pass, reading the state it folds.
  var readsStatePayloads = false
  /// The second pass of `--dedupe`: the first pass's losers, left out, and its
  /// accounting, which the run reports (its rejections were reported then).
  var deduplicated: Deduplicated?
  /// An incremental run (`--state-in`, `--state-out`): last night's state,
  /// read as the first input, and tonight's, collected as the run reads. A
  /// run with one always dedupes.
  public var nightly: NightlyState?

  /// Creates the defaults: `--schema auto`, dates as written, 1 MiB records, no reject limit.
  public init() {}

  /// The schemas a run reads with: the one chosen, or every built-in one for
  /// `auto`, with `defaultCurrency` where they have no currency field.
  /// With `accounts` `.field`, only the schemas that map an account, each
  /// requiring it (`RecordSchema.requiringAccount()`).
  public var schemaCandidates: [RecordSchema] {
    let candidates = inputSchemaCandidates
    // The previous state's records are read with the state's own schema, the last one.
    guard nightly?.previous != nil, !candidates.isEmpty else { return candidates }
    let state = NightlyState.stateSchema
    return candidates + [accounts == .field ? state.requiringAccount() ?? state : state]
  }

  /// `schemaCandidates` without the previous state's schema: the ones the
  /// user chose for the inputs, which a message about the inputs names (the
  /// state's field names are its own, never in the user's records).
  private var inputSchemaCandidates: [RecordSchema] {
    (schema.map { [$0] } ?? RecordSchema.builtIn).compactMap { candidate in
      var adjusted = candidate
      if adjusted.paths[.currency] == nil { adjusted.defaultCurrency = defaultCurrency }
      return accounts == .field ? adjusted.requiringAccount() : adjusted
    }
  }

  /// `accounts` is `.field` but the chosen schema maps no account: a run
  /// could accept nothing (the command line's usage error names `--field account=PATH`).
  public var lacksAccountMapping: Bool {
    accounts == .field && schemaCandidates.isEmpty
  }

  /// The end-of-run judgement every pipeline makes once its whole input is
  /// read, in this order: nothing accepted (`requireAcceptedRecords`), too
  /// many rejected (`maxRejectRate`), too few accepted (`minAccepted`).
  /// `sample` is the first rejections, which describe what was read.
  func judge(_ stats: RunStats, sample: [RecordRejection]) throws(PipelineError) {
    if requireAcceptedRecords,
      let failure = NothingAccepted(
        stats: stats, sample: sample, accountFields: accountFieldNames, accountFromFileName: nightly == nil)
    {
      throw .nothingAccepted(failure)
    }
    if let failure = RejectRateExceeded(stats: stats, limit: maxRejectRate) { throw .tooManyRejected(failure) }
    if let failure = TooFewAccepted(stats: stats, minimum: minAccepted) { throw .tooFewAccepted(failure) }
  }

  /// The input fields a per-account run takes the account from (`accounts`
  /// `.field`), for messages; `nil` when the run reads no account field.
  var accountFieldNames: [String]? {
    guard accounts == .field else { return nil }
    var names: [String] = []
    for schema in inputSchemaCandidates {
      let paths = schema.paths[.account] ?? (schema.readsReportAccount ? ["account.iban", "account.resourceId"] : [])
      for path in paths where !names.contains(path) { names.append(path) }
    }
    return names
  }
}

/// Where a per-account run takes each record's account from.
public enum AccountSource: Sendable, Equatable {
  /// No account is read (a run over one account, or not per account).
  case none
  /// The schema's account field (`--field account=PATH`, or the schema's own, such as Backbase's `arrangementId`).
  case field
  /// The name of the input file the record came from, up to its first `.`
  /// (`exports/A17.json` → `A17`): one export per customer.
  case fileName
}

extension ReadOptions {
  /// `filter` as a run reading with these options applies it: with its days in `zone`, the
  /// run's one zone (`GroupOptions.filter`, `ListOptions.filter`, `SummaryOptions.filter`).
  func dating(_ filter: TransactionFilter) -> TransactionFilter {
    var filter = filter
    filter.zone = zone
    return filter
  }

  /// Takes a zone set on a run's filter as the run's `zone`, when it names one: a filter
  /// given its zone, as earlier releases read it, still dates the run, and a filter without
  /// one (`TransactionFilter()`) leaves the zone already set.
  mutating func takeZone(of filter: TransactionFilter) {
    if filter.zone.zone != nil { zone = filter.zone }
  }
}
