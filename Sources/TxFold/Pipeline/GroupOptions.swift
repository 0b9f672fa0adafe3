import Foundation

/// Everything `txfold group` can be told, as a validated value for the library.
public struct GroupOptions: Sendable {
  /// How records are read: framing, schema, limits, zone and reject handling — the
  /// settings `list` and `summary` share (`ReadOptions`).
  public var read = ReadOptions()
  /// The most members a group keeps (`Int.max` keeps all: memory then grows with input).
  public var memberLimit: Int = 20
  /// Count records that share an id once (the latest; on a tie, the later in the input).
  /// Needs memory per distinct id.
  public var dedupe = false
  /// Worker threads that decode and fold; 1 runs everything on the calling thread.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Whether the report lists each group's kept members (`transactions`).
  /// `false` leaves them empty — counts, totals and `latest` are unchanged —
  /// for outputs that show none, such as CSV: turning 20 members of every
  /// group into strings is serial work at the end of a run.
  public var reportMembers = true
  /// Per-account runs (`read.accounts` not `.none`): about how many bytes
  /// the fold's tables may hold, all workers together, before a worker writes
  /// its table to a temporary file (the runs are merged at the end).
  public var memoryLimit = 512 << 20
  /// Where per-account runs make their private temporary directory (`nil`: `$TMPDIR`, else `/tmp`).
  public var temporaryDirectory: String?
  /// Per-account runs: the caller declares that the accounts come in
  /// non-decreasing byte-wise order of their ids across all inputs, in the
  /// order given (records without an account are rejected and take no part).
  /// The fold then hands each account on as it ends, while it goes on
  /// reading, and never writes to disk: memory holds the chunks in flight and
  /// the accounts still open. An account smaller than an earlier one stops
  /// the run with `PipelineError.accountsOutOfOrder`. Not for per-account
  /// partials, whose header names the inputs' fingerprints before the accounts.
  public var sortedByAccount = false
  /// Which accepted records the report counts (`list`'s and `summary`'s
  /// selection: categories, states, currencies, days, ids); the rest are
  /// accepted but left out, and `RunStats.selected` says how many were kept.
  /// Its `zone` is `read.zone`, the run's one zone: reading it gives `read.zone`, and a filter
  /// set with a zone sets `read.zone` (one without leaves it).
  /// With `dedupe`, the latest record per id is chosen among all records
  /// first and kept only if it is selected, as `list` does.
  public var filter: TransactionFilter {
    get { read.dating(selection) }
    set {
      selection = newValue
      read.takeZone(of: newValue)
    }
  }
  /// The filter as set; its zone is `read.zone`'s (`filter`).
  private var selection = TransactionFilter()
  /// A `--dedupe` pass's tables keep what taking records out again needs
  /// (`GroupTable.retract`); the members shown stay `memberLimit`.
  var retractable = false

  /// The defaults: reading as `ReadOptions()` does, 20 members per group, all cores.
  public init() {}
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
  /// A `list` run's exact sum, or a `summary` run's total of one key, no longer fits in 128 bits.
  case totalOverflow(SumOverflow)
  /// Writing the rejects failed.
  case rejectOutput(String)
  /// The input held records and none was accepted (`requireAcceptedRecords`):
  /// the diagnosis, which says what the records looked like and the likely
  /// fix (another schema, `itemsPath`, `allowTrailingCommas`, …).
  case nothingAccepted(String)
  /// Temporary files (a per-account fold's tables, a sort's runs, `dedupe`'s
  /// ids) could not be created, written or read back: the sentence that names
  /// the file and why.
  case spill(String)
  /// The per-account fold's runs could not be merged (an overflowing count or total).
  case accountMerge(PartialStateError)
  /// The options cannot run together (named as the library spells them).
  case invalidOptions(String)
  /// A larger share of the lines was rejected than `maxRejectRate` allows:
  /// `rejected` of `lines`, over `limit`.
  case tooManyRejected(rejected: Int, lines: Int, limit: ExactDecimal)
  /// Fewer records were accepted than `minAccepted` (`minimum`) requires.
  case tooFewAccepted(accepted: Int, lines: Int, minimum: Int)
  /// `sortedByAccount` is set and `account`, at `line` of `file`, came after
  /// the greater `previous`.
  case accountsOutOfOrder(file: String, line: Int, previous: String, account: String)
  /// An incremental run's state (`ReadOptions.nightly`) cannot be used:
  /// damaged, from another version, written with other settings, or
  /// tonight's records lack ids. `problem` says which, as a sentence fragment.
  case state(path: String, problem: String)

  /// The sentence the CLI prints for the failure.
  public var description: String {
    switch self {
    case .input(let error): return error.description
    case .strictRejection(let rejection): return "Rejected record in strict mode: \(rejection.message)"
    case .tooManyRejected(let rejected, let lines, let limit):
      return RejectRateExceeded(rejected: rejected, lines: lines, limit: limit).description
    case .tooFewAccepted(let accepted, let lines, let minimum):
      return TooFewAccepted(accepted: accepted, lines: lines, minimum: minimum).description
    case .tooManyRejects(let limit, let last):
      return "More than \(limit) records rejected (maxRejects); the last: \(last.message)"
    case .sumOverflow(let state, let date, let currency, let file):
      return SumOverflow(currency: currency, state: state, date: date)
        .found(in: file.map(OverflowSource.reading) ?? .allInputs).description
    case .totalOverflow(let error): return error.description
    case .rejectOutput(let reason):
      // `reason` is often an error's own sentence, full stop included.
      return "Cannot write rejects: \(reason)" + (reason.hasSuffix(".") ? "" : ".")
    case .nothingAccepted(let diagnosis): return diagnosis
    case .spill(let reason): return reason
    case .accountMerge(let error): return "\(error)"
    case .invalidOptions(let reason): return reason
    case .accountsOutOfOrder(let file, let line, let previous, let account):
      return AccountOrderError(file: file, line: line, previous: previous, account: account).description
    case .state(let path, let problem): return StateFileError(path: path, problem: problem).description
    }
  }
}

extension PipelineError {
  /// This failure, an overflowing list or summary sum named by the inputs
  /// it was summed from once they were read (`nil`: from values, not read).
  package func found(after inputs: [String]?) -> PipelineError {
    guard case .totalOverflow(let overflow) = self, let inputs else { return self }
    return .totalOverflow(overflow.found(in: OverflowSource(after: inputs)))
  }
}

// The library's own failure values, as the cases that carry them.
extension PipelineError {
  /// The temporary storage's failure.
  package static func spill(_ error: SpillError) -> PipelineError { .spill(error.description) }
  /// The end-of-run diagnosis of a run that accepted nothing.
  package static func nothingAccepted(_ failure: NothingAccepted) -> PipelineError {
    .nothingAccepted(failure.description)
  }
  /// A run over its reject rate.
  package static func tooManyRejected(_ failure: RejectRateExceeded) -> PipelineError {
    .tooManyRejected(rejected: failure.rejected, lines: failure.lines, limit: failure.limit)
  }
  /// A run under its accepted minimum.
  package static func tooFewAccepted(_ failure: TooFewAccepted) -> PipelineError {
    .tooFewAccepted(accepted: failure.accepted, lines: failure.lines, minimum: failure.minimum)
  }
  /// An account out of the declared order.
  package static func accountsOutOfOrder(_ error: AccountOrderError) -> PipelineError {
    .accountsOutOfOrder(file: error.file, line: error.line, previous: error.previous, account: error.account)
  }
  /// A state that cannot be used, or, when it cannot even be opened, an input that cannot be.
  package static func state(_ error: StateFileError) -> PipelineError {
    if let failure = error.inputFailure { return .input(failure) }
    return .state(path: error.path, problem: error.problem)
  }
}

extension PipelineError: FramingFailure {
  static func reading(_ error: InputError) -> PipelineError { .input(error) }
}

/// A record whose account is smaller, byte-wise, than an earlier record's,
/// in a run that declared its input sorted by account (`sortedByAccount`).
package struct AccountOrderError: Error, Sendable, CustomStringConvertible {
  /// The input the record is in.
  package let file: String
  /// The record's 1-based line in that input.
  package let line: Int
  /// The greater account that came before.
  package let previous: String
  /// The record's account.
  package let account: String

  /// The sentence the CLI prints, naming the option as the library spells it.
  package var description: String {
    "Account '\(account)' comes after account '\(previous)', but the input was declared sorted by account "
      + "(sortedByAccount); run without it to fold accounts in any order (\(file), line \(line))."
  }
}

extension PipelineError {
  /// A failure of the per-account fold's runs: their storage, or a merge pass.
  init(_ failure: AccountRunFailure) {
    switch failure {
    case .spill(let error): self = .spill(error)
    case .merge(let error): self = .accountMerge(error)
    }
  }
}

extension PipelineError {
  /// A sorting read's failure: the reader's own stays a reading failure, and
  /// what the sort threw from the body is its storage's, so every sorting
  /// pipeline reports both alike.
  init(_ error: TransactionReadError<SpillError>) {
    switch error {
    case .input(let error): self = error
    case .body(let error, _): self = .spill(error)
    }
  }
}
