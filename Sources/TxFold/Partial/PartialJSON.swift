/// A small, strict JSON parser for the lines of a partial state.
///
/// Design: partial lines are short, a few levels deep and written by
/// `PartialStateWriter`, so clarity wins over speed here — each line becomes a
/// value tree. Input records never come here (they go through the
/// allocation-free `RecordScanner`). Nesting deeper than `maxDepth` is an
/// error, so the parser's recursion is bounded whatever the input; strings
/// must be valid UTF-8 and escaped lone surrogates are refused, so every
/// string read back prints exactly as it was written.
///
/// Worked example: `{"member":{"id":"7","amount":"1.50"}}` becomes
/// `.object([member: .object([id: .string("7"), amount: .string("1.50")])])`.
enum PartialJSON {
  /// A parsed JSON value. Strings are decoded UTF-8 bytes; numbers keep their
  /// written text, so integers are read exactly.
  enum Value {
    case object([Member])
    case array([Value])
    case string([UInt8])
    case number([UInt8])
    case bool(Bool)
    case null

    /// One key and its value in an object, in written order.
    struct Member {
      var key: String
      var value: Value
    }

    /// The JSON type's name, for messages.
    var typeName: String {
      switch self {
      case .object: return "an object"
      case .array: return "an array"
      case .string: return "a string"
      case .number: return "a number"
      case .bool: return "a boolean"
      case .null: return "null"
      }
    }
  }

  /// Where and why a line is not valid JSON.
  struct SyntaxError: Error {
    /// 0-based byte offset in the line.
    var offset: Int
    var detail: String
  }

  /// The deepest nesting accepted; partial lines need 4.
  static let maxDepth = 8

  /// Parses one complete JSON value (surrounding whitespace allowed).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> Value {
    var parser = Parser(bytes: bytes)
    parser.skipWhitespace()
    let value = try parser.value(depth: 1)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.failure("unexpected bytes after the JSON value") }
    return value
  }

  struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    func failure(_ detail: String) -> SyntaxError {
      SyntaxError(offset: index, detail: detail)
    }

    mutating func skipWhitespace() {
      while index < bytes.count && bytes[index].isJSONWhitespace { index += 1 }
    }

    mutating func value(depth: Int) throws(SyntaxError) -> Value {
      guard index < bytes.count else { throw failure("the line ends where a value should be") }
      switch bytes[index] {
      case .openBrace: return try object(depth: depth)
      case .openBracket: return try array(depth: depth)
      case .quote: return .string(try string())
      case .minus, .zero ... .nine: return .number(try number())
      case .lowerT:
        try literal("true")
        return .bool(true)
      case .lowerF:
        try literal("false")
        return .bool(false)
      case .lowerN:
        try literal("null")
        return .null
      default:
        throw failure("unexpected character where a value should be")
      }
    }

    mutating func object(depth: Int) throws(SyntaxError) -> Value {
      if try opensEmpty(depth: depth, closingWith: .closeBrace) { return .object([]) }
      var pairs: [Value.Member] = []
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == .quote else { throw failure("expected a key") }
        let key = String(decoding: try string(), as: UTF8.self)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == .colon else { throw failure("expected ':' after a key") }
        index += 1
        skipWhitespace()
        pairs.append(Value.Member(key: key, value: try value(depth: depth + 1)))
        if try !continues(closingWith: .closeBrace, in: "an object") { return .object(pairs) }
      }
    }

    mutating func array(depth: Int) throws(SyntaxError) -> Value {
      if try opensEmpty(depth: depth, closingWith: .closeBracket) { return .array([]) }
      var elements: [Value] = []
      while true {
        skipWhitespace()
        elements.append(try value(depth: depth + 1))
        if try !continues(closingWith: .closeBracket, in: "an array") { return .array(elements) }
      }
    }

    /// Steps past a container's opening byte at `depth` (refused past
    /// `maxDepth`); true, past `close` too, when the container is empty.
    mutating func opensEmpty(depth: Int, closingWith close: UInt8) throws(SyntaxError) -> Bool {
      guard depth <= PartialJSON.maxDepth else { throw failure("nesting deeper than \(PartialJSON.maxDepth)") }
      index += 1
      skipWhitespace()
      guard index < bytes.count && bytes[index] == close else { return false }
      index += 1
      return true
    }

    /// After a member or an element: true past a `,` (another follows),
    /// false past `close` (the container ends); anything else, or the end of
    /// the line, is an error naming `container`.
    mutating func continues(closingWith close: UInt8, in container: String) throws(SyntaxError) -> Bool {
      skipWhitespace()
      guard index < bytes.count else { throw failure("the line ends inside \(container)") }
      let byte = bytes[index]
      guard byte == .comma || byte == close else {
        throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
      }
      index += 1
      return byte == .comma
    }

    /// Reads a string literal at `index` (on its opening quote) and returns its decoded bytes.
    mutating func string() throws(SyntaxError) -> [UInt8] {
      index += 1
      let start = index
      var escaped = false
      while true {
        guard index < bytes.count else { throw failure("the line ends inside a string") }
        let byte = bytes[index]
        if byte == .quote { break }
        if byte < .space { throw failure("a control character inside a string") }
        if byte == .backslash {
          guard index + 1 < bytes.count else { throw failure("the line ends inside an escape") }
          switch bytes[index + 1] {
          case .quote, .backslash, .slash, .lowerB, .lowerF, .lowerN, .lowerR, .lowerT:
            index += 2
          case .lowerU:
            guard index + 6 <= bytes.count,
              (2..<6).allSatisfy({ StringDecoder.hexValue(bytes[index + $0]) != nil })
            else { throw failure("an invalid \\u escape") }
            index += 6
          default:
            throw failure("an invalid escape")
          }
          escaped = true
          continue
        }
        index += 1
      }
      let body = UnsafeBufferPointer(rebasing: bytes[start..<index])
      index += 1
      var decoded: [UInt8] = []
      decoded.reserveCapacity(body.count)
      if escaped {
        guard StringDecoder.decode(body, into: &decoded) else { throw failure("an escaped lone surrogate") }
      } else {
        decoded.append(contentsOf: body)
      }
      guard UTF8Validation.isValid(decoded) else { throw failure("invalid UTF-8 in a string") }
      return decoded
    }

    /// Reads a number with JSON's grammar and returns its text.
    mutating func number() throws(SyntaxError) -> [UInt8] {
      let start = index
      if bytes[index] == .minus { index += 1 }
      guard index < bytes.count, bytes[index] &- .zero < 10 else { throw failure("a number without digits") }
      if bytes[index] == .zero {
        index += 1
      } else {
        while index < bytes.count && bytes[index] &- .zero < 10 { index += 1 }
      }
      if index < bytes.count && bytes[index] == .dot {
        index += 1
        guard index < bytes.count, bytes[index] &- .zero < 10 else { throw failure("no digits after '.'") }
        while index < bytes.count && bytes[index] &- .zero < 10 { index += 1 }
      }
      if index < bytes.count && (bytes[index] == .lowerE || bytes[index] == .upperE) {
        index += 1
        if index < bytes.count && (bytes[index] == .plus || bytes[index] == .minus) { index += 1 }
        guard index < bytes.count, bytes[index] &- .zero < 10 else { throw failure("no digits in an exponent") }
        while index < bytes.count && bytes[index] &- .zero < 10 { index += 1 }
      }
      return Array(bytes[start..<index])
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
      let count = word.utf8CodeUnitCount
      guard index + count <= bytes.count else { throw failure("unexpected character where a value should be") }
      for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
        throw failure("unexpected character where a value should be")
      }
      index += count
    }
  }
}
