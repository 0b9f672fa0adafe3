/// A JSON string, exactly as written (`"2019-05-17T14:28:01.123+02:00"`).
/// Decoding accepts the timestamp forms the decoder accepts and places a
/// timestamp without an offset in UTC, as `TimestampParser` does.
extension Timestamp: Codable {
  /// Decodes a timestamp from its written text, validated as the input reader validates it.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText(expected: "a timestamp") { TimestampParser.parse($0) }
  }

  /// Encodes the timestamp exactly as it was written.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeText(description)
  }
}

/// A JSON string `"YYYY-MM-DD"`.
extension CalendarDay: Codable {
  /// Decodes a day from its `YYYY-MM-DD` text, or from the expanded form `description` writes for a
  /// day outside 0001–9999 (see `init?(written:)`).
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText(expected: "a date YYYY-MM-DD") { CalendarDay(written: $0) }
  }

  /// The day `text` names, for exactly the texts `description` writes: `YYYY-MM-DD` in 0001–9999,
  /// and ISO 8601's expanded years (`0000-12-31`, `-0001-12-31`, `10000-01-01`) beyond. No record
  /// has such a day, but an app's own transactions grouped in a zone can (`Transaction.init` takes
  /// them as given), and a report must decode from what it encodes to.
  init?(written text: String) {
    if let stamp = TimestampParser.parse(text) {
      guard stamp.style == .dateOnly else { return nil }
      self = stamp.writtenDay
      return
    }
    let bytes = Array(text.utf8)
    let digitsStart = bytes.first == UInt8(ascii: "-") ? 1 : 0
    let monthStart = bytes.count - 5
    guard monthStart - digitsStart >= 5, bytes[monthStart - 1] == UInt8(ascii: "-"),
      bytes[monthStart + 2] == UInt8(ascii: "-")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      guard range.count <= 7, bytes[range].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return nil
      }
      return bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    guard let magnitude = number(digitsStart..<(monthStart - 1)), let month = number(monthStart..<(monthStart + 2)),
      let day = number((monthStart + 3)..<bytes.count), (1...12).contains(month)
    else { return nil }
    let year = digitsStart == 1 ? -magnitude : magnitude
    guard day >= 1, day <= CalendarMath.daysInMonth(year: year, month: month),
      let days = Int32(exactly: CalendarMath.daysFromCivil(year: year, month: month, day: day))
    else { return nil }
    self.init(daysSinceEpoch: days)
    // One text per day: `00001-01-01` or `-0000-01-01` name days, but not as they are written.
    guard description == text else { return nil }
  }

  /// Encodes the day as `YYYY-MM-DD`.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeText(description)
  }
}
