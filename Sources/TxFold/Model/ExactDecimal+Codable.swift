/// A JSON string in canonical text (`"1919.95"`), as every report format
/// writes amounts: exact, never through binary floating point. Decoding
/// takes the text rules of `init?(_:)` and keeps the scale.
extension ExactDecimal: Codable {
  /// Decodes an amount from a JSON string in decimal text, keeping its scale; a number is refused, as it may have lost digits.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = ExactDecimal(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not an exact decimal amount")
    }
    self = value
  }

  /// Encodes the amount as a JSON string in its canonical text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
