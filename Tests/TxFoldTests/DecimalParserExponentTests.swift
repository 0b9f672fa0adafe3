import Testing

@_spi(Benchmarks) @testable import TxFold

/// Amounts with an exponent are judged by their value, not by how they are
/// written; the general decoder and the in-line one agree on every edge.
@Suite("DecimalParser exponents")
struct DecimalParserExponentTests {
  /// (JSON number, printed value or `nil` for amount-out-of-range).
  static let edges: [(String, String?)] = [
    ("100000000000000000000000000000000000000e-1", "10000000000000000000000000000000000000"),
    ("1e37", "10000000000000000000000000000000000000"),
    ("-1e37", "-10000000000000000000000000000000000000"),
    ("1e38", nil),
    ("0e-100", "0"),
    ("-0e-100", "0"),
    ("0.0e-30", "0"),
    ("0e100000000", "0"),
    ("10e-19", "0.000000000000000001"),
    ("1e-18", "0.000000000000000001"),
    ("1e-19", nil),
    ("1.0000000000000000000000e0", "1"),
    ("1.5e3", "1500"),
    ("1.50e1", "15.0"),
    ("1e-2", "0.01"),
    ("12.5E+1", "125"),
    ("12345678901234567890123456789012345678e0", "12345678901234567890123456789012345678"),
    ("123456789012345678901234567890123456789e0", nil),
    ("1234567890123456789012345678901234567800e-2", "12345678901234567890123456789012345678"),
    ("1234567890123456789012345678901234567810e-2", nil),
    ("1e100000000", nil),
    ("1e-100000000", nil),
    ("10000000000000000000000000000000000000000000e-100000000", nil),
    // Without an exponent the written digits count, as before.
    ("1.0000000000000000000", nil),
    ("100000000000000000000000000000000000000", nil),
    ("0.000000000000000001", "0.000000000000000001"),
    ("1919.95", "1919.95"),
  ]

  static func parse(_ text: String) -> DecimalParseResult {
    Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0, allowExponent: true, allowLeadingZeros: false) }
  }

  @Test("JSON numbers by value", arguments: edges)
  func byValue(text: String, expected: String?) {
    switch Self.parse(text) {
    case .value(let value): #expect(value.description == expected, "\(text)")
    case .outOfRange: #expect(expected == nil, "\(text) is out of range")
    case .invalid: Issue.record("\(text) is invalid")
    }
  }

  @Test("Strings keep the written rule: no exponent, more than 18 fraction digits is out of range")
  func strings() {
    let long = Array("1.0000000000000000000".utf8).withUnsafeBufferPointer {
      DecimalParser.parse($0, allowExponent: false, allowLeadingZeros: true)
    }
    #expect(long == .outOfRange)
    let exponent = Array("1e3".utf8).withUnsafeBufferPointer {
      DecimalParser.parse($0, allowExponent: false, allowLeadingZeros: true)
    }
    #expect(exponent == .invalid)
  }

  /// The amount's outcome through `decodeDirect` and through `decodeFields`.
  static func bothPaths(_ amount: String) -> (direct: String, general: String) {
    let decoder = RecordDecoder(schema: .backbase)
    #expect(decoder.plan.direct)
    var bytes = Array(backbaseRecord(amount: amount, indicator: #""CRDT""#).utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      let record = UnsafeBufferPointer(buffer)
      func outcome(_ failure: DecodeFailure?, _ decoded: DecodedRecord) -> String {
        failure.map { $0.reason.code } ?? decoded.amount.description
      }
      var direct = DecodedRecord()
      _ = decoder.scanner.scan(record)
      let directFailure = decoder.decodeDirect(record, impliedState: .none, into: &direct)
      var general = DecodedRecord()
      _ = decoder.scanner.scan(record)
      let generalFailure = decoder.decodeFields(record, impliedState: .none, into: &general)
      return (outcome(directFailure, direct), outcome(generalFailure, general))
    }
  }

  @Test("The in-line and the general decoder agree on every edge, as number and as string", arguments: edges)
  func pathsAgree(text: String, expected: String?) {
    let number = Self.bothPaths(text)
    #expect(number.direct == number.general, "\(text)")
    // Backbase amounts are magnitudes: a negative one is invalid-amount on both paths.
    let wanted = text.hasPrefix("-") && expected != "0" ? "invalid-amount" : expected ?? "amount-out-of-range"
    #expect(number.direct == wanted, "\(text)")
    let string = Self.bothPaths("\"\(text)\"")
    #expect(string.direct == string.general, "\"\(text)\"")
  }
}
