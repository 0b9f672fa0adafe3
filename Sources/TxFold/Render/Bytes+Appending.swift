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
    if value < 0 { append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let count = Swift.withUnsafeMutableBytes(of: &digits) { room -> Int in
      var at = room.count
      repeat {
        at -= 1
        room[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      return room.count - at
    }
    Swift.withUnsafeBytes(of: &digits) { room in append(contentsOf: room[(room.count - count)...]) }
  }
}
