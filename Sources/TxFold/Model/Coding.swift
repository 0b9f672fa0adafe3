// The few helpers every `Codable` conformance of the library shares, so that
// each type names its keys once per direction and the two kinds of value the
// formats use — a JSON string with its own text rules, and an object of
// fields — are read and written one way.

extension Decoder {
  /// Decodes a value the formats write as a JSON string (an amount, a
  /// timestamp, a day, an indicator's code); `parse` gives `nil` for text
  /// that is not such a value, which throws a data-corrupted error saying
  /// `'text' is not <expected>`.
  func decodeText<Decoded>(expected: String, _ parse: (String) -> Decoded?) throws -> Decoded {
    let container = try singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = parse(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not \(expected)")
    }
    return value
  }
}

extension Encoder {
  /// Encodes a value as the JSON string `text`.
  func encodeText(_ text: String) throws {
    var container = singleValueContainer()
    try container.encode(text)
  }

  /// Encodes an object of `fields`, in their order. A `nil` value leaves its
  /// key out; a field written as `null` passes its optional as the value
  /// (`.limit: limit as any Encodable`).
  func encodeFields<FieldKey: CodingKey>(
    keyedBy _: FieldKey.Type, _ fields: KeyValuePairs<FieldKey, (any Encodable)?>
  ) throws {
    var container = self.container(keyedBy: FieldKey.self)
    for (key, value) in fields {
      if let value { try container.encode(value, forKey: key) }
    }
  }
}

extension KeyedDecodingContainer {
  /// The value at `key`, of the type the context asks for:
  /// `amount: try container[.amount]`.
  subscript<Decoded: Decodable>(_ key: K) -> Decoded {
    get throws { try decode(Decoded.self, forKey: key) }
  }

  /// The array at `key`, each element decoded by `decodeElement` from its
  /// own decoder: for elements that take the enclosing object's context
  /// (a section's state, a summary's dimension).
  func decodeArray<Element>(forKey key: K, _ decodeElement: (any Decoder) throws -> Element) throws -> [Element] {
    var elements = try nestedUnkeyedContainer(forKey: key)
    var decoded: [Element] = []
    while !elements.isAtEnd { decoded.append(try decodeElement(try elements.superDecoder())) }
    return decoded
  }

  /// The value at `key`, or `nil` when the key is absent or `null`.
  subscript<Decoded: Decodable>(ifPresent key: K) -> Decoded? {
    get throws { try decodeIfPresent(Decoded.self, forKey: key) }
  }
}
