/// Why a run that read records accepted none of them: what the records
/// looked like and the likely fix, judged from the first rejections.
///
/// A nightly job must not pass a wrong file, schema or `itemsPath` as an
/// empty report; the CLI exits 65 with this as its message. Built only at
/// the end of such a run, from a small sample of rejections (never on the
/// per-record path).
package struct NothingAccepted: Error, Sendable, Hashable, CustomStringConvertible {
  /// What the rejected records looked like.
  package enum Shape: Sendable, Hashable {
    /// Text with CR-only line ends: the whole input reads as one record.
    case crLineEndings
    /// Records with `,}` or `,]`.
    case trailingCommas
    /// Every record is longer than `maxRecordBytes`.
    case tooLarge
    /// Text that is not JSON (CSV, a log…), or binary data.
    case notJSON(binary: Bool)
    /// UTF-16 text (a byte-order mark, or every other byte zero), which may be
    /// JSON but must be converted to UTF-8 first.
    case utf16
    /// Compressed data inside the input's own gzip or zstd stream (a file
    /// compressed twice): its format, which TxFold does not take off in turn.
    case compressedTwice(CompressionFormat)
    /// JSON values that are not objects.
    case notObjects
    /// JSON objects whose keys fit no schema; the first one's keys, the
    /// path of an array of objects inside it, if any, and the schema it comes
    /// nearest to, if any (`SchemaDetector.nearest`).
    case otherShape(keys: [String], itemsPath: String?, nearest: NearestSchema?)
    /// JSON objects read with a schema (chosen, or detected from an earlier
    /// record) that lack a field it needs: the field, and the first one's keys.
    case missingField(field: String, keys: [String])
    /// One JSON document over many lines, not JSON lines, with no recognised
    /// wrapper; the path of its first array of objects, if seen.
    case documentOverLines(itemsPath: String?)
    /// A document without an array of records where one was looked for: at `itemsPath` when
    /// one was given (naming it again would not help), else at the recognised wrappers.
    case noRecordArray(itemsPath: String?)
    /// A per-account run whose records lack the account: the fields it is read from, and whether
    /// the run could take it from the file name instead (not a nightly run: its state keys each
    /// record by the account the record holds).
    case missingAccount(fields: [String], fileNameAllowed: Bool)
    /// Anything else: the first rejection says why.
    case other
  }

  /// The built-in schema a record that fits none comes nearest to: its name,
  /// and the fields it lacks with the paths the schema reads them from.
  package struct NearestSchema: Sendable, Hashable {
    /// A field the record lacks: its name (`state`) and the schema's paths for it.
    package struct Field: Sendable, Hashable {
      package var name: String
      package var paths: [String]
    }

    package var schema: String
    package var missing: [Field]

    /// The nearest of the built-in schemas (what `--schema auto` chooses from) to `raw`, if any.
    static func of(_ raw: [UInt8]) -> NearestSchema? {
      let detector = SchemaDetector()
      let found = raw.withUnsafeBufferPointer { detector.nearest(for: $0) }
      guard let found else { return nil }
      let schema = detector.candidates[found.index]
      return NearestSchema(
        schema: schema.name, missing: found.missing.map { Field(name: $0.name, paths: schema.paths[$0] ?? []) })
    }
  }

  /// Records read (all rejected).
  package var records: Int
  /// Rejections per reason, which show what the inputs got wrong.
  package var rejectedByReason: [RejectReason: Int]
  /// What the input looked like, which chooses the advice.
  package var shape: Shape
  /// The first rejected record, when the run saw it (a merge of partials does not).
  package var first: RecordRejection?

  /// The diagnosis of a run, or `nil` when it accepted a record or read none.
  /// `accountFields`: a per-account run's account fields (`ReadOptions.accountFieldNames`), else `nil`;
  /// `accountFromFileName`: whether the run could take the account from the file name instead.
  init?(stats: RunStats, sample: [RecordRejection], accountFields: [String]? = nil, accountFromFileName: Bool = true) {
    guard stats.lines > 0, stats.accepted == 0 else { return nil }
    records = stats.lines
    rejectedByReason = stats.rejectedByReason
    first = sample.first
    if let accountFields, Self.lacksAccount(sample, fields: accountFields) {
      shape = .missingAccount(fields: accountFields, fileNameAllowed: accountFromFileName)
    } else {
      shape = Self.shape(of: sample)
    }
  }

  /// Whether the first rejection is a record without its account: rejected
  /// for that, or (`schema` auto) fitting no schema while holding none of the
  /// account fields' top-level keys.
  static func lacksAccount(_ sample: [RecordRejection], fields: [String]) -> Bool {
    guard let first = sample.first else { return false }
    if first.clue == .missingAccount { return true }
    guard first.clue == .noSchema else { return false }
    let keys = Set(JSONShapeSketch(first.raw).topLevelKeys)
    return !fields.contains { keys.contains(String($0.split(separator: ".", maxSplits: 1).first ?? "")) }
  }

  /// The diagnosis for merged partial states whose records were all rejected.
  package init?(mergedStats stats: RunStats) {
    self.init(stats: stats, sample: [])
  }

  static func shape(of sample: [RecordRejection]) -> Shape {
    guard let first = sample.first else { return .other }
    // Before the line ends: binary or compressed bytes hold carriage returns by chance.
    if isUTF16(first.raw) { return .utf16 }
    // A magic number where a record should start: a plain file with one is read, or refused, as
    // that format before any record, so these bytes came out of the input's own decompression.
    if let format = CompressionFormat.detect(Array(first.raw.prefix(CompressionFormat.longestMagic))) {
      return .compressedTwice(format)
    }
    if let start = first.raw.firstIndex(where: { !$0.isJSONWhitespace }), isBinary(first.raw),
      first.raw[start] != .openBrace && first.raw[start] != .openBracket
    {
      return .notJSON(binary: true)
    }
    if hasLoneCarriageReturn(first.raw) { return .crLineEndings }
    if sample.filter({ $0.clue == .trailingComma }).count * 2 >= sample.count { return .trailingCommas }
    if sample.allSatisfy({ $0.reason == .recordTooLarge }) { return .tooLarge }
    if first.clue == .noRecordArray { return .noRecordArray(itemsPath: first.field) }
    if first.reason == .notAnObject { return .notObjects }
    guard let start = first.raw.firstIndex(where: { !$0.isJSONWhitespace }) else { return .other }
    let opener = first.raw[start]
    if opener != .openBrace && opener != .openBracket {
      return .notJSON(binary: isBinary(first.raw))
    }
    guard opener == .openBrace else { return .other }
    let sketch = JSONShapeSketch(first.raw)
    if first.reason == .missingField {
      // "Fits no schema" only when no schema was applied: with one, the field it lacks is the news.
      if first.clue != .noSchema, let field = first.field {
        return .missingField(field: field, keys: sketch.topLevelKeys)
      }
      return .otherShape(
        keys: sketch.topLevelKeys, itemsPath: sketch.likelyRecordArray, nearest: NearestSchema.of(first.raw))
    }
    if first.reason == .invalidJSON && sketch.openContainers > 0 && first.raw.count < RejectionDescriber.rawLimit {
      // The first line opens an object it does not close: a document spread
      // over lines. Its lines, rejected one by one, show its start.
      var document: [UInt8] = []
      for rejection in sample {
        document += rejection.raw
        document.append(.newline)
      }
      return .documentOverLines(itemsPath: JSONShapeSketch(document).likelyRecordArray)
    }
    return .other
  }

  /// `transactions.booked` or `transactions.pending`: an array of a PSD2 report's records.
  static func isPSD2Array(_ path: String) -> Bool {
    path == "transactions.booked" || path == "transactions.pending"
  }

  /// A carriage return not followed by a line feed: CR-only line ends.
  static func hasLoneCarriageReturn(_ raw: [UInt8]) -> Bool {
    var index = raw.startIndex
    while let found = raw[index...].firstIndex(of: .carriageReturn) {
      if found + 1 < raw.endIndex && raw[found + 1] != .newline { return true }
      index = found + 1
    }
    return false
  }

  /// A UTF-16 byte-order mark, or text whose every other byte is zero.
  static func isUTF16(_ raw: [UInt8]) -> Bool {
    if raw.starts(with: [0xFF, 0xFE]) || raw.starts(with: [0xFE, 0xFF]) { return true }
    guard raw.count >= 8 else { return false }
    let sample = raw.prefix(256)
    let evens = stride(from: sample.startIndex, to: sample.endIndex, by: 2).filter { sample[$0] == 0 }.count
    let odds = stride(from: sample.startIndex + 1, to: sample.endIndex, by: 2).filter { sample[$0] == 0 }.count
    let half = sample.count / 2
    return evens * 10 >= half * 9 || odds * 10 >= half * 9
  }

  /// Control bytes other than whitespace, or bytes that are not UTF-8.
  static func isBinary(_ raw: [UInt8]) -> Bool {
    if raw.contains(where: { $0 < 0x20 && !$0.isJSONWhitespace }) { return true }
    return !UTF8Validation.isValid(raw) && raw.count < RejectionDescriber.rawLimit - 4
  }

  /// What went wrong, with advice for the input's shape, naming the options by their
  /// parameters (`ReadOptions.allowTrailingCommas`, `itemsPath`, …); the CLI names its flags.
  package var description: String {
    let reasons = rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key.code) \($0.value)" }
    let whereFrom = first.map { " in '\($0.file)'" } ?? ""
    let counted = reasons.joined(separator: ", ")
    var text =
      records == 1
      ? "The one record\(whereFrom) was rejected (\(counted)). "
      : "None of the \(records) records\(whereFrom) was accepted (\(counted)). "
    let line = first.map { "line \($0.line)" } ?? "the first record"
    switch shape {
    case .crLineEndings:
      text +=
        "The input has CR-only line ends (old Mac style), so it reads as one record; convert each CR to LF first."
    case .trailingCommas:
      text += "The records have trailing commas (',}' or ',]'); allowTrailingCommas accepts them."
    case .tooLarge:
      text += "Every record is larger than maxRecordBytes; raise it (e.g. to 16 MiB)."
    case .notJSON(let binary):
      let what = binary ? "binary data, not JSON text" : "not JSON (\(line) starts with \(Self.excerpt(first)))"
      text +=
        "The input is \(what). TxFold reads JSON lines, a JSON array of records or a JSON document "
        + "wrapping one, optionally gzip-compressed."
    case .utf16:
      text +=
        "The input is UTF-16 text; TxFold reads UTF-8. Convert it to UTF-8 first."
    case .compressedTwice(let inner):
      let file = first.map { $0.file == "-" ? "FILE" : $0.file } ?? "FILE"
      let then = inner.isRead ? "" : " | \(inner.decompressCommand)"
      text +=
        "The input is compressed twice: its gzip or zstd stream holds \(inner.rawValue)-compressed data, "
        + "which TxFold does not decompress in turn. Take off the outer layer first: "
        + "gzip -dc \(file)\(then) (zstd -dc for a zstd file)."
    case .notObjects:
      text += "The records are JSON values but not objects (\(line)); each record must be a JSON object."
    case .otherShape(let keys, let itemsPath, let nearest):
      let shown = keys.isEmpty ? "" : " (\(line) has the keys \(keys.joined(separator: ", ")))"
      text += "The records are JSON objects whose keys fit no schema\(shown)"
      if let nearest {
        let fields = nearest.missing.map { "\($0.name) ('\($0.paths.joined(separator: "' or '"))')" }
        text +=
          "; the nearest schema is \(nearest.schema), whose " + fields.joined(separator: " and ") + " \(line) lacks"
      }
      text += ": choose one with schema, or map the fields with RecordSchema.custom."
      if let itemsPath, Self.isPSD2Array(itemsPath) {
        // One array of a PSD2 report would lose the other and the report's account: the document
        // is read whole once it spans lines (the first object must not end on its line).
        let file = first.map { $0.file == "-" ? "FILE" : $0.file } ?? "FILE"
        text +=
          " The line looks like a PSD2 account report written on one line (as APIs send it), which reads as "
          + "JSON lines; spread over lines (jq . \(file)) it is read whole: booked and pending "
          + "records, and the report's account. (itemsPath \(itemsPath) would read that array only.)"
      } else if let itemsPath {
        text += " If the array '\(itemsPath)' holds the records, read it with itemsPath \(itemsPath)."
      }
    case .missingField(let field, let keys):
      let shown = keys.isEmpty ? "" : " (\(line) has the keys \(keys.joined(separator: ", ")))"
      text +=
        "The records lack the field '\(field)' that their schema needs\(shown): "
        + "map the field that holds it with RecordSchema.custom, or choose another schema."
    case .documentOverLines(let itemsPath):
      text += "The input is one JSON document over many lines, not JSON lines, with no recognised wrapper; "
      text +=
        itemsPath.map { "if its array '\($0)' holds the records, read it with itemsPath \($0)." }
        ?? "name its array of records with itemsPath."
    case .noRecordArray(let itemsPath?):
      text += "No array at '\(itemsPath)' in this document (itemsPath); name the array that holds the records."
    case .noRecordArray(nil):
      text += "The document holds no array of records there; name it with itemsPath."
    case .missingAccount(let fields, let fileNameAllowed):
      let named = fields.map { "'\($0)'" }.joined(separator: " or ")
      text +=
        "A per-account run needs each record's account, and the records have no account field"
        + (named.isEmpty ? "" : " \(named)") + " (\(line)); map the field that holds it with accountField "
        + "(RecordSchema.custom field 'account')"
        + (fileNameAllowed ? ", or take the account from the file name." : ".")
    case .other:
      text += first.map { "The first: \($0.message)" } ?? "See the shards' rejections (onRejection) for why."
    }
    return text
  }

  /// The first bytes of the first rejected record, quoted.
  static func excerpt(_ rejection: RecordRejection?) -> String {
    guard let raw = rejection?.raw else { return "''" }
    let shown = String(decoding: raw.prefix(40), as: UTF8.self)
    return "'" + shown + (raw.count > 40 ? "…'" : "'")
  }
}
