/// Appending to the writers' byte buffers without going through a `String`.
extension [UInt8] {
  /// Appends a literal's UTF-8 as one copy (`"…".utf8` goes through a
  /// `String`'s storage each time).
  mutating func appendLiteral(_ literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends `value` in decimal digits, as `String(value)` writes it,
  /// without making the string.
  mutating func appendDecimal(_ value: Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.signedLimit) { room in
      guard let base = room.baseAddress else { return }
      append(contentsOf: UnsafeBufferPointer(start: base, count: DecimalDigits.write(signed: value, to: base)))
    }
  }
}
