import Foundation
import Testing
import TxFold

@Suite("ExactDecimal as a Swift number")
struct ExactDecimalAPITests {
  static func decimal(_ text: String) throws -> ExactDecimal { try #require(ExactDecimal(text)) }

  /// 2^127 - 1 with `scale` fraction digits, the largest significand, from its two words (an app
  /// on iOS 16 / macOS 13 has no `Int128`).
  static func largest(scale: UInt8) -> ExactDecimal {
    ExactDecimal(significandHigh: .max, significandLow: .max, scale: scale)
  }

  /// -2^127 with `scale` fraction digits, the smallest significand, from its two words.
  static func smallest(scale: UInt8) -> ExactDecimal {
    ExactDecimal(significandHigh: .min, significandLow: 0, scale: scale)
  }

  /// The two-word form an app on iOS 16 / macOS 13 uses (no `Int128` there).
  @Test(
    "The significand's two 64-bit words build and read back every value",
    arguments: [
      (Int64(0), UInt64(0), UInt8(0), "0"), (0, 150, 2, "1.50"), (-1, UInt64.max, 2, "-0.01"),
      (1, 0, 0, "18446744073709551616"), (-1, 0, 3, "-18446744073709551.616"),
      (Int64.max, UInt64.max, 0, "170141183460469231731687303715884105727"),
      (Int64.min, 0, 18, "-170141183460469231731.687303715884105728"),
    ])
  func twoWords(high: Int64, low: UInt64, scale: UInt8, text: String) throws {
    let value = ExactDecimal(significandHigh: high, significandLow: low, scale: scale)
    #expect(value.description == text)
    // An amount's text has at most 38 digits; the full 128-bit range is a sum's.
    if text.filter(\.isNumber).count <= ExactDecimal.maxSignificantDigits {
      let parsed = try #require(ExactDecimal(text))
      #expect(parsed.significandHigh == high && parsed.significandLow == low && parsed.scale == scale)
    }
    #expect(value.isZero == (high == 0 && low == 0))
    #expect(value.isNegative == (high < 0))
  }

  @Test(
    "Order and equality are numeric; the scale only prints",
    arguments: [
      ("1.50", "1.5", 0), ("0.10", "0.1", 0), ("-0.00", "0", 0), ("1.5", "1.25", 1), ("-1.5", "-1.25", -1),
      ("-0.01", "0", -1), ("99999999999999999999999999999999999999", "9999999999999999999.999999999999999999", 1),
      ("0.000000000000000001", "0", 1), ("124", "123.999999999999999999", 1),
    ])
  func numericOrder(lhs: String, rhs: String, order: Int) throws {
    let left = try Self.decimal(lhs)
    let right = try Self.decimal(rhs)
    #expect((left == right) == (order == 0))
    #expect((left < right) == (order < 0))
    #expect((left > right) == (order > 0))
    if order == 0 {
      #expect(left.hashValue == right.hashValue)
      #expect(Set([left, right]).count == 1)
    }
  }

  /// Values near the 128-bit range, where one side cannot be rescaled to the
  /// other's scale: equal integer parts must still compare their fractions.
  @Test(
    "Order near the 128-bit range compares the fraction too",
    arguments: [
      // 170141183460469231731.687303715884105727 < 170141183460469231731.7
      (largest(scale: 18), ExactDecimal("170141183460469231731.7")),
      // -170141183460469231731.7 < -170141183460469231731.687303715884105728
      (ExactDecimal("-170141183460469231731.7"), smallest(scale: 18)),
      (ExactDecimal("-170141183460469231731.6"), largest(scale: 18)),
    ] as [(ExactDecimal?, ExactDecimal?)])
  func orderNearTheRange(smaller: ExactDecimal?, larger: ExactDecimal?) throws {
    let smaller = try #require(smaller)
    let larger = try #require(larger)
    #expect(smaller < larger)
    #expect(!(larger < smaller))
    #expect(smaller != larger)
  }

  @Test("Sorting and max use Comparable")
  func sorting() throws {
    let values = try ["10.5", "-3", "0.10", "7", "0.1"].map(Self.decimal)
    #expect(values.sorted().map(\.description) == ["-3", "0.10", "0.1", "7", "10.5"])
    #expect(values.max()?.description == "10.5")
  }

  @Test(
    "+ and - are exact and print with the larger scale",
    arguments: [
      ("10.5", "1.25", "11.75", "9.25"), ("124", "53", "177", "71"), ("0.10", "0.20", "0.30", "-0.10"),
      ("-1.54", "1.54", "0.00", "-3.08"),
    ])
  func arithmetic(lhs: String, rhs: String, sum: String, difference: String) throws {
    let left = try Self.decimal(lhs)
    let right = try Self.decimal(rhs)
    #expect((left + right).description == sum)
    #expect((left - right).description == difference)
    var total = ExactDecimal.zero
    total += left
    total -= right
    #expect(total.description == difference)
    #expect([left, right].reduce(.zero, +).description == sum)
  }

  @Test("Checked variants report overflow instead of trapping")
  func checkedOverflow() throws {
    let max = Self.largest(scale: 0)
    let min = Self.smallest(scale: 0)
    let one = try Self.decimal("1")
    #expect(max.adding(one) == nil)
    #expect(max.addingReportingOverflow(one).overflow)
    #expect(min.subtracting(one) == nil)
    #expect(min.subtractingReportingOverflow(one).overflow)
    #expect(!max.subtractingReportingOverflow(one).overflow)
    #expect(min.adding(max)?.description == "-1")
    // Rescaling the large operand to the other's scale overflows too.
    #expect(max.adding(try Self.decimal("0.5")) == nil)
    #expect(max.subtractingReportingOverflow(try Self.decimal("0.5")).overflow)
  }

  @Test(
    "Text round-trips exactly, scale included",
    arguments: [
      "0", "0.10", "-1.54", "1919.95", "007.5", "0.000000000000000001", "99999999999999999999999999999999999999",
      "-9999999999999999999.999999999999999999",
    ])
  func losslessText(text: String) throws {
    let value = try Self.decimal(text)
    let again = try #require(ExactDecimal(value.description))
    #expect(again.description == value.description)
    #expect(again.scale == value.scale)
  }

  @Test(
    "Text takes the rules for amounts written as JSON strings, up to the type's own range",
    arguments: [
      "", "1e3", "+1", "1.", ".5", "1,5", " 1", "-", "NaN", "0.0000000000000000001",
      "170141183460469231731687303715884105728", "-170141183460469231731687303715884105729",
      "17014118346046923173.1687303715884105728",
    ])
  func rejectsText(text: String) {
    #expect(ExactDecimal(text) == nil)
  }

  /// A sum may pass the 38 digits an input amount may have (two amounts of 5 × 10^37 make
  /// 10^38), and the CLI writes such a total: its text must parse back, or a report that holds
  /// it would not decode.
  @Test("Every value's text parses back, sums beyond 38 digits and the 128-bit extremes included")
  func losslessTextOverTheWholeRange() throws {
    let half = try Self.decimal("50000000000000000000000000000000000000")
    let values = [
      half + half, .zero - half - half,
      ExactDecimal(significandHigh: .max, significandLow: .max, scale: 0),
      ExactDecimal(significandHigh: .min, significandLow: 0, scale: 0),
      ExactDecimal(significandHigh: .max, significandLow: .max, scale: 18),
      ExactDecimal(significandHigh: .min, significandLow: 0, scale: 18),
    ]
    for value in values {
      let again = try #require(ExactDecimal(value.description), "\(value)")
      #expect(again.significandHigh == value.significandHigh && again.significandLow == value.significandLow)
      #expect(again.scale == value.scale)
      let decoded = try JSONDecoder().decode([ExactDecimal].self, from: JSONEncoder().encode([value]))
      #expect(decoded.map(\.description) == [value.description])
    }
    let tenToThe38 = "1" + String(repeating: "0", count: 38)
    #expect(ExactDecimal(tenToThe38)?.description == tenToThe38)
  }

  @Test(
    "Decimal round trip is exact over edge values",
    arguments: [
      "0", "-0.00", "1.50", "-1.54", "0.000000000000000001", "-0.000000000000000001",
      "99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
      "99999999999999999999.999999999999999999", "12345678901234567890.123456789012345678",
    ])
  func decimalRoundTrip(text: String) throws {
    let value = try Self.decimal(text)
    let decimal = value.decimalValue
    #expect(decimal == Decimal(string: text))
    let back = try #require(ExactDecimal(exactly: decimal))
    #expect(back == value)
  }

  /// A scale past 18 has no exact value in the type (`==`, `+` and printing would meet
  /// powers of ten beyond 64 bits): refused where the value is made, not later in `==`.
  @Test("A value made from its parts with more than 18 fraction digits traps at once")
  func scaleBeyondEighteen() async {
    #expect(ExactDecimal(significandHigh: 0, significandLow: 1, scale: 18).description == "0.000000000000000001")
    await #expect(processExitsWith: .failure) {
      _ = ExactDecimal(significandHigh: 0, significandLow: 1, scale: 19)
    }
    await #expect(processExitsWith: .failure) {
      var value = ExactDecimal.zero
      value.scale = 40
    }
  }

  @Test("The 128-bit significand's extremes convert exactly to Decimal and back")
  func extremes() throws {
    // 2^127 - 1, -2^127, 2^127 - 2 and -2^127 + 1 as (upper word, lower word).
    let words: [(Int64, UInt64)] = [(.max, .max), (.min, 0), (.max, .max - 1), (.min, 1)]
    for (high, low) in words {
      for scale: UInt8 in [0, 7, 18] {
        let value = ExactDecimal(significandHigh: high, significandLow: low, scale: scale)
        #expect(value.decimalValue.description == value.description.trimmingTrailingFractionZeros)
        let back = try #require(ExactDecimal(exactly: value.decimalValue), "\(value)")
        #expect(back.significandHigh == high && back.significandLow == low && back.scale == scale)
      }
    }
  }

  /// The `Int128` accessor, for apps whose deployment target has it (macOS 15 / iOS 18 on; always
  /// on Linux): it reads and writes the same 128 bits as the two words.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test("The Int128 significand and the two words agree, and Int128's extremes round-trip through Decimal")
  func int128Significand() throws {
    for significand in [Int128.max, Int128.min, Int128.max - 1, Int128.min + 1, 0, -1, 150, 1 << 64] {
      for scale: UInt8 in [0, 7, 18] {
        let value = ExactDecimal(significand: significand, scale: scale)
        #expect(value.significand == significand)
        #expect(value.significandHigh == Int64(truncatingIfNeeded: significand >> 64))
        #expect(value.significandLow == UInt64(truncatingIfNeeded: significand))
        var written = ExactDecimal.zero
        written.significand = significand
        #expect(written.significandHigh == value.significandHigh && written.significandLow == value.significandLow)
      }
    }
    // Int128's extremes have no trailing zeros for Decimal to drop: they come back as they were.
    for significand in [Int128.max, Int128.min, Int128.max - 1, Int128.min + 1] {
      for scale: UInt8 in [0, 7, 18] {
        let value = ExactDecimal(significand: significand, scale: scale)
        let back = try #require(ExactDecimal(exactly: value.decimalValue), "\(value)")
        #expect(back.significand == value.significand && back.scale == value.scale)
      }
    }
  }

  @Test(
    "Decimals an ExactDecimal cannot hold are nil, never rounded",
    arguments: [
      "0.0000000000000000001", "1e-19", "340282366920938463463374607431768211455",
      "170141183460469231731687303715884105728", "-170141183460469231731687303715884105729", "1e50",
    ])
  func decimalOutOfRange(text: String) throws {
    let decimal = try #require(Decimal(string: text))
    #expect(ExactDecimal(exactly: decimal) == nil)
  }

  @Test("NaN has no ExactDecimal; trailing zeros of a Decimal do not limit the scale")
  func decimalSpecials() throws {
    #expect(ExactDecimal(exactly: .nan) == nil)
    // 1000 × 10^-20 is 0.00000000000000001: 17 fraction digits.
    let spelled = Decimal(sign: .plus, exponent: -20, significand: 1000)
    #expect(ExactDecimal(exactly: spelled)?.description == "0.00000000000000001")
    #expect(ExactDecimal(exactly: Decimal(sign: .minus, exponent: 3, significand: 12))?.description == "-12000")
  }

  @Test("Codable as a JSON string that keeps the scale")
  func codable() throws {
    let values = try ["0.10", "-193.38", "5200"].map(Self.decimal)
    let json = try JSONEncoder().encode(values)
    #expect(String(decoding: json, as: UTF8.self) == #"["0.10","-193.38","5200"]"#)
    let back = try JSONDecoder().decode([ExactDecimal].self, from: json)
    #expect(back.map(\.description) == ["0.10", "-193.38", "5200"])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([ExactDecimal].self, from: Data(#"["1e3"]"#.utf8)) }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([ExactDecimal].self, from: Data("[1.5]".utf8)) }
  }
}

extension String {
  /// `"1.500"` → `"1.5"`, `"2.00"` → `"2"`: how `Decimal` prints the same value.
  var trimmingTrailingFractionZeros: String {
    guard contains(".") else { return self }
    var text = Substring(self)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}
