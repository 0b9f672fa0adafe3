import Foundation

/// Exact conversion to and from Foundation's `Decimal`, whose 128-bit
/// mantissa holds every `ExactDecimal`.
///
/// `Decimal` keeps no scale (it stores `1.50` as `1.5`), so a round trip is
/// exact in value and comes back with the smallest scale that holds it.
extension ExactDecimal {
  /// The same number as a `Decimal`, exactly.
  public var decimalValue: Decimal {
    let magnitude = significand.magnitude
    let low = Decimal(UInt64(truncatingIfNeeded: magnitude))
    let high = Decimal(UInt64(truncatingIfNeeded: magnitude >> 64))
    // Each step is exact: the result stays within the 128-bit mantissa.
    let twoToThe64 = Decimal(UInt64.max) + 1
    let whole = high.isZero ? low : high * twoToThe64 + low
    if whole.isZero { return 0 }
    return Decimal(sign: significand < 0 ? .minus : .plus, exponent: -Int(scale), significand: whole)
  }

  /// The same number as `decimal`, or `nil` when it has no exact
  /// `ExactDecimal`: NaN, more than 18 fraction digits, or beyond the
  /// 128-bit significand.
  public init?(exactly decimal: Decimal) {
    guard !decimal.isNaN else { return nil }
    if decimal.isZero {
      self = .zero
      return
    }
    // The significand of a finite `Decimal` is a whole number below 2^128,
    // printed as plain digits.
    var magnitude: UInt128 = 0
    for character in decimal.significand.magnitude.description.utf8 {
      guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
      let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
      let (next, overflowB) = shifted.addingReportingOverflow(UInt128(character - UInt8(ascii: "0")))
      guard !overflowA, !overflowB else { return nil }
      magnitude = next
    }
    var exponent = decimal.exponent
    while exponent < -Int(ExactDecimal.maxScale) && magnitude % 10 == 0 {
      magnitude /= 10
      exponent += 1
    }
    guard exponent >= -Int(ExactDecimal.maxScale) else { return nil }
    while exponent > 0 {
      let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      magnitude = shifted
      exponent -= 1
    }
    let negative = decimal.sign == .minus
    // A negative value may reach 2^127 (`Int128.min`); a positive one 2^127 - 1.
    guard magnitude <= (negative ? Int128.min.magnitude : UInt128(Int128.max)) else { return nil }
    let significand = negative ? Int128(truncatingIfNeeded: 0 &- magnitude) : Int128(magnitude)
    self.init(significand: significand, scale: UInt8(-exponent))
  }
}
