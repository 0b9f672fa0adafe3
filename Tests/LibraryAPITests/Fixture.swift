import Foundation

/// Paths to the repository's fixture and sample files, found from this file's place.
enum Fixture {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func path(_ name: String) -> String {
    repository.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
  }

  static func sample(_ name: String) -> String {
    repository.appendingPathComponent("SampleData").appendingPathComponent(name).path
  }
}

/// A parsed JSON document, compared as a value: key order and layout do not matter.
enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  init(parsing bytes: some Sequence<UInt8>) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
  }

  init(encoding value: some Encodable) throws {
    try self.init(parsing: JSONEncoder().encode(value))
  }
}
