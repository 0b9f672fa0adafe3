import Testing

@testable import TxFold
@testable import TxFoldGen

/// `WideInt`, `ExactDecimal`'s two-word significand, against the standard
/// library's `Int128` (available on Linux, where the tests run): every
/// operation on edge values and random values of every width. Apple's systems
/// have `Int128` only from macOS 15 / iOS 18 on, later than `Package.swift`'s
/// platforms, hence each test's `@available`; on Linux they always run.
@Suite("WideInt against Int128")
struct WideIntTests {
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func roundTripsAndOrder() {
    let values = Self.samples()
    for a in values {
      #expect(Self.int128(Self.wide(a)) == a)
      #expect(Self.wide(a).isNegative == (a < 0))
      #expect(Self.wide(a).exactInt64 == Int64(exactly: a))
      #expect(Self.wide(a).description == String(a))
      #expect(Self.uint128(Self.wide(a).magnitude) == a.magnitude)
      for b in values.prefix(60) {
        #expect((Self.wide(a) < Self.wide(b)) == (a < b), "\(a) < \(b)")
        #expect((Self.wide(a) == Self.wide(b)) == (a == b))
      }
    }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func additionSubtractionMultiplication() {
    let values = Self.samples()
    for a in values {
      for b in values.prefix(80) {
        let sum = a.addingReportingOverflow(b)
        let wideSum = Self.wide(a).addingReportingOverflow(Self.wide(b))
        #expect(wideSum.overflow == sum.overflow, "\(a) + \(b)")
        #expect(Self.int128(wideSum.partialValue) == sum.partialValue, "\(a) + \(b)")
        let difference = a.subtractingReportingOverflow(b)
        let wideDifference = Self.wide(a).subtractingReportingOverflow(Self.wide(b))
        #expect(wideDifference.overflow == difference.overflow, "\(a) - \(b)")
        #expect(Self.int128(wideDifference.partialValue) == difference.partialValue, "\(a) - \(b)")
        let product = a.multipliedReportingOverflow(by: b)
        let wideProduct = Self.wide(a).multipliedReportingOverflow(by: Self.wide(b))
        #expect(wideProduct.overflow == product.overflow, "\(a) * \(b)")
        #expect(Self.int128(wideProduct.partialValue) == product.partialValue, "\(a) * \(b)")
        #expect(Self.int128(Self.wide(a) &* Self.wide(b)) == a &* b)
      }
    }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func division() {
    let divisors: [Int64] = [1, 2, 3, 7, 10, 1_000_000_007, 1_000_000_000_000_000_000, .max]
    for a in Self.samples() {
      for divisor in divisors {
        let (quotient, remainder) = Self.wide(a).quotientAndRemainder(dividingBy: divisor)
        #expect(Self.int128(quotient) == a / Int128(divisor), "\(a) / \(divisor)")
        #expect(Int128(remainder) == a % Int128(divisor), "\(a) % \(divisor)")
      }
      for b in Self.samples().prefix(60) where b != 0 {
        let quotient = Self.wide(a).magnitude.quotient(dividingBy: Self.wide(b).magnitude)
        #expect(Self.uint128(quotient) == a.magnitude / b.magnitude, "|\(a)| / |\(b)|")
      }
    }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func magnitudeBackToSigned() {
    #expect(WideInt(magnitude: WideInt.min.magnitude, negative: true) == .min)
    #expect(WideInt(magnitude: WideInt.min.magnitude, negative: false) == nil)
    #expect(WideInt(magnitude: UWideInt(high: .max, low: .max), negative: true) == nil)
    #expect(WideInt(magnitude: UWideInt(high: 0, low: 0), negative: true) == 0)
    for a in Self.samples() where a != .min {
      #expect(WideInt(magnitude: Self.wide(a).magnitude, negative: a < 0) == Self.wide(a))
    }
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func exactDecimalWordsAndInt128Agree() {
    for a in Self.samples() {
      let decimal = ExactDecimal(significand: a, scale: 2)
      #expect(decimal.significand == a)
      #expect(decimal.significandHigh == Int64(truncatingIfNeeded: a >> 64))
      #expect(decimal.significandLow == UInt64(truncatingIfNeeded: a))
      #expect(
        ExactDecimal(significandHigh: decimal.significandHigh, significandLow: decimal.significandLow, scale: 2)
          .description == decimal.description)
      #expect(decimal.isZero == (a == 0))
    }
  }
}

// The oracle's helpers use Int128. Swift Testing takes `@available` on each test but not on a
// suite's type or an extension holding tests, so the helpers are in an extension of their own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension WideIntTests {
  static func wide(_ value: Int128) -> WideInt {
    WideInt(high: Int64(truncatingIfNeeded: value >> 64), low: UInt64(truncatingIfNeeded: value))
  }

  static func int128(_ value: WideInt) -> Int128 { Int128(value.high) << 64 | Int128(value.low) }

  static func uint128(_ value: UWideInt) -> UInt128 { UInt128(value.high) << 64 | UInt128(value.low) }

  static var edges: [Int128] {
    [
      0, 1, -1, 2, -2, 9, 10, -10, Int128(Int64.max), Int128(Int64.min), Int128(Int64.max) + 1,
      Int128(Int64.min) - 1, Int128(UInt64.max), -Int128(UInt64.max), Int128(UInt64.max) + 1, .max, .min, .max - 1,
      .min + 1, .max / 10, .min / 10, 99_999_999_999_999_999_999_999_999_999_999_999_999,
      -99_999_999_999_999_999_999_999_999_999_999_999_999, 1 << 64, -(1 << 64), 1 << 100, -(1 << 100),
    ]
  }

  /// Edge values and random values of 1 to 128 significant bits, both signs.
  static func samples() -> [Int128] {
    var random = SplitMix64(seed: 15)
    var values = edges
    for _ in 0..<400 {
      let bits = 1 + random.next(below: 127)
      let raw = Int128(Int64(bitPattern: random.next())) << 64 | Int128(random.next())
      let shifted = raw >> (127 - bits)
      values.append(shifted)
    }
    return values
  }
}
