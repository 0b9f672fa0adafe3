import Testing

@testable import TxFold

@Suite("ExactDecimal and DecimalParser")
struct ExactDecimalTests {
  static func parse(_ text: String, number: Bool) -> DecimalParseResult {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer {
      DecimalParser.parse(UnsafeBufferPointer($0), allowExponent: number, allowLeadingZeros: !number)
    }
  }

  @Test(
    "Exact values keep their written scale",
    arguments: [
      ("1919.95", false, "1919.95"), ("1919.95", true, "1919.95"), ("124", true, "124"), ("-1.54", true, "-1.54"),
      ("0.10", false, "0.10"), ("7.5", false, "7.5"), ("5200", false, "5200"), ("1e3", true, "1000"),
      ("1.5e-3", true, "0.0015"), ("12.50E+1", true, "125.0"), ("0e5", true, "0"), ("-0.00", true, "0.00"),
      ("007.5", false, "7.5"), ("0.000000000000000001", false, "0.000000000000000001"),
      ("99999999999999999999999999999999999999", true, "99999999999999999999999999999999999999"),
    ])
  func parsesExactly(text: String, number: Bool, expected: String) {
    guard case .value(let value) = Self.parse(text, number: number) else {
      Issue.record("'\(text)' did not parse")
      return
    }
    #expect(value.description == expected)
  }

  @Test(
    "Malformed text is invalid",
    arguments: [
      ("", false), ("-", false), ("1.", false), (".5", false), ("1e3", false), ("1,5", false), ("+1", false),
      ("1 ", false), ("0x10", false), ("01", true), ("1e", true), ("NaN", true), ("--1", true), ("1.2.3", false),
    ])
  func rejectsMalformed(text: String, number: Bool) {
    #expect(Self.parse(text, number: number) == .invalid)
  }

  @Test(
    "Too many digits are out of range, never rounded",
    arguments: [
      ("0.0000000000000000001", false), ("123456789012345678901234567890123456789", true), ("1e38", true),
      ("1e-19", true), ("1e999999999", true), ("1.0000000000000000000", false),
    ])
  func rejectsOutOfRange(text: String, number: Bool) {
    #expect(Self.parse(text, number: number) == .outOfRange)
  }

  static func sum(_ lhs: String, _ rhs: String) -> String? {
    guard let left = ExactDecimal(lhs), let right = ExactDecimal(rhs) else { return nil }
    return left.adding(right)?.description
  }

  @Test("A sum prints with the largest scale among its addends")
  func sumScale() {
    #expect(Self.sum("10.5", "1.25") == "11.75")
    #expect(Self.sum("124", "53") == "177")
    #expect(Self.sum("0.10", "0.20") == "0.30")
    #expect(Self.sum("0.1", "0.2") == "0.3")  // Not 0.30000000000000004.
    #expect(Self.sum("-5.00", "2.5") == "-2.50")
  }

  @Test("Overflow is reported, never wrapped")
  func overflow() throws {
    let big = try #require(ExactDecimal("99999999999999999999999999999999999999"))
    var total = big
    var overflowed = false
    for _ in 0..<3 {
      guard let next = total.adding(big) else {
        overflowed = true
        break
      }
      total = next
    }
    #expect(overflowed)
    #expect(Self.sum("1", "0.000000000000000001") == "1.000000000000000001")
    // Rescaling a 38-digit value to 18 fraction digits overflows 128 bits.
    #expect(Self.sum("99999999999999999999999999999999999999", "0.000000000000000001") == nil)
  }

  @Test("Numeric comparison ignores the scale")
  func comparison() {
    func compare(_ lhs: String, _ rhs: String) -> Int? {
      guard let left = ExactDecimal(lhs), let right = ExactDecimal(rhs) else { return nil }
      return left.compare(right)
    }
    #expect(compare("1.50", "1.5") == 0)
    #expect(compare("-2", "1.5") == -1)
    #expect(compare("10", "9.99") == 1)
  }

  @Test(
    "Grouping follows CLDR minimum grouping digits",
    arguments: [
      ("1919.95", 1, "1,919.95"), ("1919.95", 2, "1919.95"), ("19919.95", 2, "19,919.95"),
      ("-1234567.8", 1, "-1,234,567.8"), ("999", 1, "999"), ("0.05", 1, "0.05"),
    ])
  func grouping(text: String, minimum: Int, expected: String) throws {
    var out: [UInt8] = []
    try #require(ExactDecimal(text)).appendText(
      to: &out, decimalSeparator: UInt8(ascii: "."), groupingSeparator: [UInt8(ascii: ",")],
      minimumGroupingDigits: minimum)
    #expect(String(decoding: out, as: UTF8.self) == expected)
  }
}
