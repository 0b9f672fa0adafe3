import Testing

@testable import TxFold
@testable import TxFoldGen

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
    let big = ExactDecimal("99999999999999999999999999999999999999")
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

  @Test("adding's fast path (an addend of 64 bits, scaled up to the sum's scale) equals rescaling both")
  func addingFastPath() throws {
    // Edges: 64-bit significands at both ends, shifts of 0 to 18, sums at the 128-bit limits.
    let edges: [(ExactDecimal, ExactDecimal)] = [
      (ExactDecimal(wide: WideInt(Int64.max), scale: 18), ExactDecimal(wide: WideInt(Int64.max), scale: 0)),
      (ExactDecimal(wide: WideInt(Int64.min), scale: 18), ExactDecimal(wide: WideInt(Int64.min), scale: 0)),
      (ExactDecimal(wide: .max, scale: 3), ExactDecimal(wide: 1, scale: 3)),
      (ExactDecimal(wide: .max, scale: 3), ExactDecimal(wide: 0, scale: 0)),
      (ExactDecimal(wide: .min, scale: 2), ExactDecimal(wide: -1, scale: 1)),
      (ExactDecimal(wide: .min, scale: 2), ExactDecimal(wide: 1, scale: 1)),
      (ExactDecimal(wide: WideInt.max - WideInt(9), scale: 1), ExactDecimal(wide: 1, scale: 0)),
      (ExactDecimal(wide: WideInt.max - WideInt(10), scale: 1), ExactDecimal(wide: 1, scale: 0)),
      (ExactDecimal(wide: 5, scale: 0), ExactDecimal(wide: WideInt(high: 1, low: 0), scale: 0)),
      (ExactDecimal(wide: 5, scale: 18), ExactDecimal(wide: WideInt(Int64.min), scale: 0)),
    ]
    for (sum, addend) in edges {
      #expect(sum.adding(addend)?.description == sum.addingRescaled(addend)?.description, "\(sum) + \(addend)")
    }
    var random = SplitMix64(seed: 13)
    for _ in 0..<20_000 {
      func value() -> ExactDecimal {
        let scale = UInt8(random.next(below: 19))
        switch random.next(below: 4) {
        case 0: return ExactDecimal(wide: WideInt(Int64(bitPattern: random.next())), scale: scale)
        case 1: return ExactDecimal(wide: WideInt(Int64(random.next(below: 2_000_001)) - 1_000_000), scale: scale)
        case 2:
          return ExactDecimal(wide: WideInt(high: Int64(bitPattern: random.next()), low: random.next()), scale: scale)
        default:
          // Near the 128-bit limits.
          let edge = random.next(below: 2) == 0 ? WideInt.max : WideInt.min
          let step = WideInt(Int64(random.next(below: 1_000)))
          return ExactDecimal(wide: edge.isNegative ? edge + step : edge - step, scale: scale)
        }
      }
      let (sum, addend) = (value(), value())
      let fast = sum.adding(addend)
      let reference = sum.addingRescaled(addend)
      #expect(fast?.description == reference?.description, "\(sum) + \(addend)")
      #expect(fast?.scale == reference?.scale)
    }
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

  /// `parseWord` on `text` placed at `offset` in a record with `after` more
  /// bytes behind it, and `parsePlain` on the text alone.
  static func wordAndPlain(_ text: [UInt8], offset: Int, after: Int, leadingZeros: Bool) -> (
    word: ExactDecimal?, plain: ExactDecimal?
  ) {
    var record = [UInt8](repeating: UInt8(ascii: "7"), count: offset) + text
    record += [UInt8](repeating: UInt8(ascii: "\""), count: after)
    return record.withUnsafeBufferPointer { buffer in
      let word = DecimalParser.parseWord(
        buffer, from: offset, to: offset + text.count, allowLeadingZeros: leadingZeros)
      let plain = DecimalParser.parsePlain(
        UnsafeBufferPointer(rebasing: buffer[offset..<offset + text.count]), allowLeadingZeros: leadingZeros)
      return (word, plain)
    }
  }

  @Test("The eight-bytes-at-a-time parser gives exactly what parsePlain does, where it has room to read")
  func wordMatchesPlain() {
    // Digits, the dot and the sign, and bytes next to them in ASCII and in nibbles.
    let alphabet: [UInt8] = Array("019.-e/:".utf8) + [0x00, 0x2C, 0x3F, 0x40, 0x7F, 0xB0, 0xFF]
    var checked = 0
    var accepted = 0
    func check(_ text: [UInt8], offset: Int, after: Int) {
      for leadingZeros in [false, true] {
        let (word, plain) = Self.wordAndPlain(text, offset: offset, after: after, leadingZeros: leadingZeros)
        let digitsStart = offset + (text.first == UInt8(ascii: "-") ? 1 : 0)
        // Room to read eight bytes from the digits' start, and at most eight of them.
        let readable = digitsStart + 8 <= offset + text.count + after && offset + text.count - digitsStart <= 8
        if readable ? word != plain : word != nil {
          let shown = String(decoding: text, as: UTF8.self)
          let results = "\(String(describing: word)) vs \(String(describing: plain))"
          Issue.record("'\(shown)' \(text) after \(after), zeros \(leadingZeros): \(results)")
        }
        checked += 1
        if word != nil { accepted += 1 }
      }
    }
    // Every text of up to five bytes from the alphabet, with room to read and without.
    var texts: [[UInt8]] = [[]]
    for _ in 1...5 {
      texts = texts.flatMap { text in alphabet.map { text + [$0] } }
      for text in texts {
        check(text, offset: 0, after: 8)
        check(text, offset: 3, after: 8 - text.count)
        check(text, offset: 1, after: max(0, 7 - text.count))
      }
    }
    // Random plain amounts of up to ten bytes, some with a byte changed.
    var random = SplitMix64(seed: 20_251_207)
    for _ in 0..<200_000 {
      let length = 1 + Int(random.next() % 10)
      var text = (0..<length).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) }
      if random.next() % 2 == 0 { text[Int(random.next() % UInt64(length))] = UInt8(ascii: ".") }
      if random.next() % 4 == 0 { text.insert(UInt8(ascii: "-"), at: 0) }
      if random.next() % 8 == 0 {
        text[Int(random.next() % UInt64(text.count))] = alphabet[Int(random.next() % UInt64(alphabet.count))]
      }
      check(text, offset: Int(random.next() % 4), after: Int(random.next() % 10))
    }
    #expect(checked > 1_000_000)
    #expect(accepted > 100_000)
  }
}
