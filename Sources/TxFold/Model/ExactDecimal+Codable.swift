/// A JSON string in canonical text (`"1919.95"`), as every report format
/// writes amounts: exact, never through binary floating point. Decoding
/// takes the text rules of `init?(_:)` and keeps the scale.
extension ExactDecimal: Codable {
  /// Decodes an amount from a JSON string in decimal text, keeping its scale; a number is refused, as it may have lost digits.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText(expected: "an exact decimal amount") { ExactDecimal($0) }
  }

  /// Encodes the amount as a JSON string in its canonical text.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeText(description)
  }
}
