/// How `TransactionReader` reads records: the input options `list` and
/// `summary` share with `group`.
public struct ReadOptions: Sendable {
  /// How records are read.
  public var schema: RecordSchema = .backbase
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

  public init() {}
}
