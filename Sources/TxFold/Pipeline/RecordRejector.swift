/// The rejections of records that are not decoded: framing problems, and
/// records before `--schema auto` chose a schema. Shared by every reader of
/// chunks, so they reject alike.
struct RecordRejector: Sendable {
  let maxRecordBytes: Int
  /// The `--items` path, for messages.
  let itemsPath: String?
  /// The candidate schemas' names, for messages.
  let schemaNames: String

  init(options: ReadOptions, schemas: [RecordSchema]) {
    maxRecordBytes = options.limits.maxRecordBytes
    itemsPath = options.itemsPath?.joined(separator: ".")
    schemaNames = schemas.map(\.name).joined(separator: ", ")
  }

  /// The rejection for a record before the one that decided the input's
  /// schema: invalid JSON as such, and a valid object as one that fits no
  /// schema — the same whichever schema is chosen later.
  func rejectionBeforeSchema(_ record: ChunkRecord, decoder: RecordDecoder, file: String) -> RecordRejection {
    if case .failure(let failure) = decoder.decode(record.bytes), failure.slot < 0 {
      return RejectionDescriber.rejection(
        for: failure, record: record.bytes, schema: decoder.schema, file: file, line: record.framing.line)
    }
    var rejection = RecordRejection(
      reason: .missingField, field: nil,
      detail:
        "The record lacks fields every schema needs (\(schemaNames)); schema detection (schema nil) chose none from it",
      file: file, line: record.framing.line, raw: RejectionDescriber.rawPrefix(record.bytes))
    rejection.clue = .noSchema
    return rejection
  }

  /// The rejection for a record framing found wrong.
  func rejection(for record: ChunkRecord, file: String) -> RecordRejection {
    let raw = RejectionDescriber.rawPrefix(record.bytes)
    switch record.framing.problem {
    case .tooLarge:
      return RecordRejection(
        reason: .recordTooLarge, field: nil,
        detail: "Record of \(record.framing.length) bytes is larger than the limit of \(maxRecordBytes) bytes",
        file: file, line: record.framing.line, raw: raw)
    case .truncated:
      let detail =
        record.bytes.isEmpty
        ? "The input ends before its document is closed"
        : "The input ends inside this record, after \(record.framing.length) bytes"
      var rejection = RecordRejection(
        reason: .invalidJSON, field: nil, detail: detail, file: file, line: record.framing.line, raw: raw)
      rejection.clue = record.bytes.isEmpty ? .cutShortDocument : .cutShortRecord
      return rejection
    case .missingSeparator:
      return RecordRejection(
        reason: .invalidJSON, field: nil, detail: "Missing ',' between this array element and the one before",
        file: file, line: record.framing.line, raw: raw)
    case .emptyElement:
      // No flag accepts it: naming allowTrailingCommas here would send the reader to a flag that changes nothing.
      return RecordRejection(
        reason: .invalidJSON, field: nil, detail: "Empty array element (',' right after '[' or after another ',')",
        file: file, line: record.framing.line, raw: raw)
    case .trailingComma:
      var rejection = RecordRejection(
        reason: .invalidJSON, field: nil,
        detail: "Trailing comma before the ']' that closes the array of records (allowTrailingCommas accepts it)",
        file: file, line: record.framing.line, raw: raw)
      rejection.clue = .trailingComma
      return rejection
    case .noRecordArray:
      let detail =
        itemsPath.map { "No array at '\($0)' in this document (itemsPath)" }
        ?? "No array of records in this document (expected 'items', 'transactions' or 'transactions.booked'/'pending')"
      var rejection = RecordRejection(
        reason: .missingField, field: itemsPath, detail: detail, file: file, line: record.framing.line, raw: raw)
      rejection.clue = .noRecordArray
      return rejection
    case .repeatedArray:
      return RecordRejection(
        reason: .invalidJSON, field: nil,
        detail:
          "The document repeats the key holding this array of records (such as 'items' twice); "
          + "TxFold reads the first array and rejects the records of a later one",
        file: file, line: record.framing.line, raw: raw)
    case .outsideRecords, .none:
      let shown =
        record.framing.byte >= 0x20 && record.framing.byte < 0x7F
        ? "'\(String(UnicodeScalar(record.framing.byte)))'"
        : "byte 0x" + String(record.framing.byte, radix: 16, uppercase: true)
      return RecordRejection(
        reason: .invalidJSON, field: nil, detail: "Invalid JSON outside any record: unexpected \(shown)", file: file,
        line: record.framing.line, raw: raw)
    }
  }
}
