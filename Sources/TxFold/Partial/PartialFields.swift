/// The fields of one JSON object in a partial line, with typed, checked access.
struct PartialFields {
  let pairs: [PartialJSON.Value.Member]
  /// What the object is, for messages (`'group'`, `a total`).
  let name: String

  init(_ value: PartialJSON.Value, in name: String) throws(PartialMerger.PartialLineError) {
    guard case .object(let pairs) = value else { throw .malformed("\(name) must be an object, not \(value.typeName)") }
    var seen = Set<String>()
    for pair in pairs where !seen.insert(pair.key).inserted {
      throw .malformed("the key '\(pair.key)' appears twice in \(name)")
    }
    self.pairs = pairs
    self.name = name
  }

  func has(_ key: String) -> Bool { pairs.contains { $0.key == key } }

  func value(_ key: String) throws(PartialMerger.PartialLineError) -> PartialJSON.Value {
    guard let pair = pairs.first(where: { $0.key == key }) else { throw .malformed("\(name) has no '\(key)'") }
    return pair.value
  }

  func allowOnly(_ keys: Set<String>) throws(PartialMerger.PartialLineError) {
    for pair in pairs where !keys.contains(pair.key) {
      throw .malformed("unknown key '\(pair.key)' in \(name)")
    }
  }

  func string(_ key: String) throws(PartialMerger.PartialLineError) -> [UInt8] {
    let found = try value(key)
    guard case .string(let bytes) = found else { throw .malformed("'\(key)' must be a string, not \(found.typeName)") }
    return bytes
  }

  func bool(_ key: String) throws(PartialMerger.PartialLineError) -> Bool {
    let found = try value(key)
    guard case .bool(let flag) = found else {
      throw .malformed("'\(key)' must be true or false, not \(found.typeName)")
    }
    return flag
  }

  func object(_ key: String) throws(PartialMerger.PartialLineError) -> PartialFields {
    try PartialFields(value(key), in: "'\(key)'")
  }

  /// An integer written without fraction or exponent; negative only where `epochSeconds` needs it.
  func integer(_ key: String) throws(PartialMerger.PartialLineError) -> Int {
    let found = try value(key)
    guard case .number(let text) = found else { throw .malformed("'\(key)' must be a number, not \(found.typeName)") }
    let negative = text.first == .minus
    let digits = negative ? text.dropFirst() : text[...]
    var result = 0
    for digit in digits {
      guard digit &- .zero < 10 else { throw .malformed("'\(key)' must be a whole number") }
      let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.addingReportingOverflow(Int(digit &- .zero))
      guard !overflow1 && !overflow2 else { throw .malformed("'\(key)' is out of range") }
      result = next
    }
    if negative {
      guard key.hasSuffix("EpochSeconds") || key == "epochSeconds" else {
        throw .malformed("'\(key)' must not be negative")
      }
      return -result
    }
    return result
  }

  /// A non-negative exact decimal written as a string: digits, and up to 18
  /// fraction digits after a `.` (the scale is kept). Up to the full 128-bit
  /// range, since totals may pass the 38 digits an input amount is allowed.
  func magnitude(_ key: String) throws(PartialMerger.PartialLineError) -> ExactDecimal {
    let text = try string(key)
    switch text.first == .minus ? .invalid : DecimalParser.parseWholeRange(text) {
    case .value(let value): return value
    case .outOfRange: throw .malformed("'\(key)' is out of range")
    case .invalid:
      throw .malformed("'\(key)' is not a non-negative decimal: '\(String(decoding: text, as: UTF8.self))'")
    }
  }
}
