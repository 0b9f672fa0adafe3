/// Why a record was rejected: a stable kebab-case code (Documentation/Formats.md, "Every line is accounted for").
///
/// The codes appear in the rejects file, the run summary and library errors,
/// and never change meaning.
public enum RejectReason: String, Sendable, Hashable, CaseIterable, Comparable {
  /// Not valid JSON (also inside fields TxFold does not use).
  case invalidJSON = "invalid-json"
  /// Valid JSON, but not an object.
  case notAnObject = "not-an-object"
  /// A required field is absent or `null`.
  case missingField = "missing-field"
  /// A field is present with the wrong JSON type or an empty value
  /// (an id that is neither a string nor an integer; an empty id, currency or state).
  case invalidField = "invalid-field"
  /// The amount is not a decimal number.
  case invalidAmount = "invalid-amount"
  /// More than 18 fraction digits or 38 significant digits.
  case amountOutOfRange = "amount-out-of-range"
  /// Not one of the accepted timestamp forms, or an impossible date or time.
  case invalidTimestamp = "invalid-timestamp"
  /// The indicator is not `CRDT` or `DBIT`.
  case invalidIndicator = "invalid-indicator"
  /// Longer than `--max-record-bytes`.
  case recordTooLarge = "record-too-large"
  /// Objects and arrays nested deeper than 64.
  case nestingTooDeep = "nesting-too-deep"
  /// Invalid UTF-8 in a string, or an escaped lone surrogate.
  case invalidUTF8 = "invalid-utf8"

  /// The stable code, e.g. `invalid-timestamp`.
  public var code: String { rawValue }

  /// Orders reasons by their code, so counts per reason print in a stable order.
  public static func < (lhs: RejectReason, rhs: RejectReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One rejected input record, with where it was and why.
public struct RecordRejection: Sendable, Hashable, Error, CustomStringConvertible {
  /// Why the record was refused, as a stable code.
  public var reason: RejectReason
  /// The input field at fault (its path in the input schema), when one is.
  public var field: String?
  /// A sentence-case explanation that quotes the offending value.
  public var detail: String
  /// The input's name (`-` for standard input).
  public var file: String
  /// The 1-based physical line the record starts on (an array element's first byte).
  public var line: Int
  /// The record's bytes, cut at 4 KiB.
  public var raw: [UInt8]
  /// What the rejection tells about the input, for the end-of-run diagnosis.
  var clue = RejectionClue.none

  /// Creates a rejection; `raw` should already be cut to the kept length.
  public init(reason: RejectReason, field: String?, detail: String, file: String, line: Int, raw: [UInt8]) {
    self.reason = reason
    self.field = field
    self.detail = detail
    self.file = file
    self.line = line
    self.raw = raw
  }

  /// `Invalid timestamp '2019-02-30T10:00:00' in field 'creationTime' (dump.jsonl, line 12).`
  public var message: String { "\(detail) (\(file), line \(line))." }
  /// The rejection's one-line message, as the run summary prints it.
  public var description: String { message }
}

extension RecordRejection {
  /// The longest raw record kept in a rejection (`raw` in the rejects file): framers cut a
  /// rejected record's bytes to it before anything decodes them.
  static let rawLimit = 4096
}
