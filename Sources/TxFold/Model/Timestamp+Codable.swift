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
  /// Decodes a day from its `YYYY-MM-DD` text.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText(expected: "a date YYYY-MM-DD") { text in
      TimestampParser.parse(text).flatMap { $0.style == .dateOnly ? $0.writtenDay : nil }
    }
  }

  /// Encodes the day as `YYYY-MM-DD`.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeText(description)
  }
}
