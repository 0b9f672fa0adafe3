/// A JSON string, exactly as written (`"2019-05-17T14:28:01.123+02:00"`).
/// Decoding accepts the timestamp forms the decoder accepts and places a
/// timestamp without an offset in UTC, as `TimestampParser` does.
extension Timestamp: Codable {
  /// Decodes a timestamp from its written text, validated as the input reader validates it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    let parsed = Array(text.utf8).withUnsafeBufferPointer { TimestampParser.parse($0) }
    guard let parsed else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a timestamp")
    }
    self = parsed
  }

  /// Encodes the timestamp exactly as it was written.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// A JSON string `"YYYY-MM-DD"`.
extension CalendarDay: Codable {
  /// Decodes a day from its `YYYY-MM-DD` text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    let parsed = Array(text.utf8).withUnsafeBufferPointer { TimestampParser.parse($0) }
    guard let parsed, parsed.style == .dateOnly else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a date YYYY-MM-DD")
    }
    self = parsed.writtenDay
  }

  /// Encodes the day as `YYYY-MM-DD`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
