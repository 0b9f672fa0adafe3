/// What a rejection says about the input as a whole, beyond its reason code:
/// the facts the end-of-run diagnosis (`NothingAccepted`) and the run
/// summary's hints (`RunStats.hints`) are drawn from, without reading messages.
enum RejectionClue: UInt8, Sendable, Hashable {
  case none
  /// A `,` right before `}` or `]`: `--allow-trailing-commas` accepts it.
  case trailingComma
  /// A document without the array of records (`--items` or a recognised wrapper).
  case noRecordArray
  /// A valid object that fits none of the schemas `--schema auto` tries.
  case noSchema
  /// The input ends inside this record (`FramingProblem.truncated` with bytes): the run fails
  /// with `InputError.truncatedInput` instead of counting it (`ResultAccounting`).
  case cutShortRecord
  /// The input ends inside an array or document never closed (`.truncated` without bytes).
  case cutShortDocument
  /// A per-account run's record without its account.
  case missingAccount
}
