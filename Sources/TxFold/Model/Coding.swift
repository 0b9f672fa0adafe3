// The few helpers every `Codable` conformance of the library shares, so that
// each type names its keys once per direction and the two kinds of value the
// formats use — a JSON string with its own text rules, and an object of
// fields — are read and written one way.

extension Decoder {
  /// Decodes a value the formats write as a JSON string (an amount, a
  /// timestamp, a day, an indicator's code); `parse` gives `nil` for text
  /// that is not such a value, which throws a data-corrupted error saying
  /// `'text' is not <expected>`.
  func decodeText<Value>(expected: String, _ parse: (String) -> Value?) throws -> Value {
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
  func encodeFields<Key: CodingKey>(keyedBy _: Key.Type, _ fields: KeyValuePairs<Key, (any Encodable)?>) throws {
    var container = self.container(keyedBy: Key.self)
    for (key, value) in fields {
      if let value { try container.encode(value, forKey: key) }
    }
  }
}

extension KeyedDecodingContainer {
  /// The value at `key`, of the type the context asks for:
  /// `amount: try container[.amount]`.
  subscript<Value: Decodable>(_ key: Key) -> Value {
    get throws { try decode(Value.self, forKey: key) }
  }

  /// The value at `key`, or `nil` when the key is absent or `null`.
  subscript<Value: Decodable>(ifPresent key: Key) -> Value? {
    get throws { try decodeIfPresent(Value.self, forKey: key) }
  }
}
