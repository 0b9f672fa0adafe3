/// Turns a decode failure into the field name and sentence-case message of a
/// rejection. Runs only for rejected records, never on the accepted path.
enum RejectionDescriber {
  /// The longest raw record kept in a rejection (`raw` in the rejects file).
  static let rawLimit = RecordRejection.rawLimit
  /// The longest value quoted in a message.
  static let quoteLimit = 120

  /// Builds the rejection for `failure` in `record`.
  static func rejection(
    for failure: DecodeFailure, record: UnsafeBufferPointer<UInt8>, schema: RecordSchema, file: String, line: Int
  ) -> RecordRejection {
    let field = schema.fieldName(slot: failure.slot)
    let quoted = quote(failure.value, in: record)
    let inField = field.map { " in field '\($0)'" } ?? ""
    let detail: String
    var clue = RejectionClue.none
    switch failure.reason {
    case .invalidJSON:
      if let opener = mismatchedOpener(of: failure.value.start, in: record) {
        // Before the trailing-comma check: `[1,}` has a comma too, which the flag would not help.
        detail =
          "Invalid JSON at byte \(failure.value.start + 1): '\(String(UnicodeScalar(record[failure.value.start])))'"
          + " does not close the '\(String(UnicodeScalar(record[opener])))' at byte \(opener + 1)"
      } else if isTrailingComma(at: failure.value.start, in: record) {
        let closer = String(UnicodeScalar(record[failure.value.start]))
        detail =
          "Invalid JSON at byte \(failure.value.start + 1): trailing comma before '\(closer)'"
          + " (allowTrailingCommas accepts it)"
        clue = .trailingComma
      } else {
        detail = "Invalid JSON at byte \(failure.value.start + 1)\(near(failure.value.start, in: record))"
      }
    case .notAnObject:
      detail = "The record is valid JSON but not an object"
    case .missingField where schema.accountRequired && failure.slot == schema.accountSlot:
      // Named by the canonical field: per-account runs sort by it, whatever path holds it.
      let path = field ?? "?"
      var rejection = RecordRejection(
        reason: .missingField, field: CanonicalField.account.name,
        detail: "Missing account: field '\(path)' is absent, null or empty", file: file, line: line,
        raw: rawPrefix(record))
      rejection.clue = .missingAccount
      return rejection
    case .missingField:
      let others = schema.alternatives(slot: failure.slot).map { "'\($0)'" }
      detail = "Missing field '\(field ?? "?")'" + (others.isEmpty ? "" : " (or \(others.joined(separator: ", ")))")
    case .invalidField:
      detail = "Invalid value \(quoted)\(inField)"
    case .invalidAmount:
      detail = "Invalid amount \(quoted)\(inField)" + signHint(failure.value, in: record, schema: schema)
    case .amountOutOfRange:
      detail = "Amount \(quoted)\(inField) is out of range (at most 18 fraction digits and 38 significant digits)"
    case .invalidTimestamp:
      detail = "Invalid timestamp \(quoted)\(inField)"
    case .invalidIndicator:
      detail = "Invalid credit/debit indicator \(quoted)\(inField) (expected CRDT or DBIT)"
    case .nestingTooDeep:
      detail = "Nesting deeper than \(RecordScanner.maxDepth) levels at byte \(failure.value.start + 1)"
    case .invalidUTF8:
      if failure.slot >= 0 {
        detail = "Escaped lone surrogate in \(quoted)\(inField)"
      } else {
        detail = "Invalid UTF-8 at byte \(failure.value.start + 1)"
      }
    case .recordTooLarge:
      detail = "Record larger than the record size limit"
    }
    var rejection = RecordRejection(
      reason: failure.reason, field: field, detail: detail, file: file, line: line, raw: rawPrefix(record))
    rejection.clue = clue
    return rejection
  }

  /// Why a well-formed amount is invalid when its schema writes magnitudes
  /// (`RecordSchema.amountIsMagnitude`, Backbase's): it is negative, and the
  /// direction is the indicator's to say. Empty for any other invalid amount.
  static func signHint(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>, schema: RecordSchema) -> String {
    guard schema.amountIsMagnitude, value.kind == .string || value.kind == .number, value.start < value.end,
      case .value(let amount) = DecimalParser.parseWholeRange(
        UnsafeBufferPointer(rebasing: record[value.start..<value.end])),
      amount.isNegative
    else { return "" }
    let indicator = schema.fieldName(slot: schema.indicatorSlot).map { "'\($0)'" } ?? "the credit/debit indicator"
    return ": \(schema.name) amounts are unsigned, the direction is \(indicator) (CRDT or DBIT)"
  }

  /// A record of a schema that takes its account from its report
  /// (`RecordSchema.readsReportAccount`) that came in no report naming one.
  static func missingReportAccount(record: UnsafeBufferPointer<UInt8>, file: String, line: Int) -> RecordRejection {
    RecordRejection(
      reason: .missingField, field: CanonicalField.account.name,
      detail: "Missing account: the record is not in a report whose 'account' has an 'iban' or 'resourceId' "
        + "before its transactions (or map one with a RecordSchema.custom field 'account')",
      file: file, line: line, raw: rawPrefix(record))
  }

  /// Whether the byte at `offset` is a `}` or `]` that follows a `,` (and
  /// only whitespace between them): what `--allow-trailing-commas` accepts.
  static func isTrailingComma(at offset: Int, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    guard offset < record.count, record[offset] == .closeBrace || record[offset] == .closeBracket else { return false }
    var index = offset - 1
    while index >= 0 && record[index].isJSONWhitespace { index -= 1 }
    return index >= 0 && record[index] == .comma
  }

  /// Where the object or array opens that the `}` or `]` at `offset` fails to
  /// close (`[1}`, `{"a":1]`); `nil` when the byte is no closer, closes its own
  /// kind, or closes nothing. The scanner stopped at `offset`, so the bytes
  /// before it are valid JSON and their brackets are matched by depth here, on
  /// the rejected path only.
  static func mismatchedOpener(of offset: Int, in record: UnsafeBufferPointer<UInt8>) -> Int? {
    guard offset < record.count, record[offset] == .closeBrace || record[offset] == .closeBracket else { return nil }
    var open: [Int] = []
    walkOutsideStrings(record, 0..<offset) { index, byte in
      switch byte {
      case .openBrace, .openBracket: open.append(index)
      case .closeBrace, .closeBracket: _ = open.popLast()
      default: break
      }
      return true
    }
    guard let innermost = open.last else { return nil }
    let expected: UInt8 = record[innermost] == .openBrace ? .closeBrace : .closeBracket
    return record[offset] == expected ? nil : innermost
  }

  /// The record's first 4 KiB, cut at a UTF-8 character boundary.
  static func rawPrefix(_ record: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    if record.count <= rawLimit { return Array(record) }
    var end = rawLimit
    // Step back over continuation bytes so a character is not split.
    while end > 0 && record[end] & 0xC0 == 0x80 { end -= 1 }
    return Array(record[0..<end])
  }

  /// The value as written, in single quotes, shortened when long.
  static func quote(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> String {
    guard value.kind != .absent else { return "''" }
    var end = value.end
    // The scanner does not track where an object or array ends (it would cost every
    // record a stack of ends); the few bytes quoted are matched here, on rejection only.
    if value.kind == .object || value.kind == .array { end = containerEnd(from: value.start, in: record) }
    let start = value.start
    var shown = Array(record[start..<min(end, start + quoteLimit)])
    if end - start > quoteLimit { shown.append(contentsOf: Array("…".utf8)) }
    return "'" + String(decoding: shown, as: UTF8.self) + "'"
  }

  /// One past the bracket closing the object or array that opens at `start`
  /// (brackets inside strings skipped), looking no further than one byte past
  /// what a quote shows; the end of that look (or of the record) when unclosed.
  static func containerEnd(from start: Int, in record: UnsafeBufferPointer<UInt8>) -> Int {
    let limit = min(record.count, start + quoteLimit + 1)
    var depth = 0
    var end = limit
    walkOutsideStrings(record, start..<limit) { index, byte in
      switch byte {
      case .openBrace, .openBracket: depth += 1
      case .closeBrace, .closeBracket:
        depth -= 1
        if depth == 0 {
          end = index + 1
          return false
        }
      default: break
      }
      return true
    }
    return end
  }

  /// Hands each byte of `record[range]` outside a JSON string (the strings'
  /// quotes and escapes skipped) to `body`, until it returns `false`: the one
  /// walk the bracket-matching diagnoses share.
  static func walkOutsideStrings(
    _ record: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Int, UInt8) -> Bool
  ) {
    var inString = false
    var escaped = false
    for index in range {
      let byte = record[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == .backslash {
          escaped = true
        } else if byte == .quote {
          inString = false
        }
        continue
      }
      if byte == .quote {
        inString = true
        continue
      }
      if !body(index, byte) { return }
    }
  }

  /// `: unexpected 'x'` or `: unexpected end of record`.
  static func near(_ offset: Int, in record: UnsafeBufferPointer<UInt8>) -> String {
    guard offset < record.count else { return ": unexpected end of record" }
    let byte = record[offset]
    if byte >= 0x20 && byte < 0x7F { return ": unexpected '\(String(UnicodeScalar(byte)))'" }
    return ": unexpected byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}
