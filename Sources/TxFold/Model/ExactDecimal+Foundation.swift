import Foundation

/// Exact conversion to and from Foundation's `Decimal`, whose 128-bit
/// mantissa holds every `ExactDecimal`.
///
/// `Decimal` keeps no scale (it stores `1.50` as `1.5`), so a round trip is
/// exact in value and comes back with the smallest scale that holds it.
extension ExactDecimal {
  /// The same number as a `Decimal`, exactly.
  public var decimalValue: Decimal {
    let magnitude = wide.magnitude
    let low = Decimal(magnitude.low)
    let high = Decimal(magnitude.high)
    // Each step is exact: the result stays within the 128-bit mantissa.
    let twoToThe64 = Decimal(UInt64.max) + 1
    let whole = high.isZero ? low : high * twoToThe64 + low
    if whole.isZero { return 0 }
    return Decimal(sign: wide.isNegative ? .minus : .plus, exponent: -Int(scale), significand: whole)
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
    var magnitude = UWideInt(high: 0, low: 0)
    for character in decimal.significand.magnitude.description.utf8 {  // portable: Foundation's Decimal, not Int128
      guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
      let (next, overflow) = magnitude.multipliedReportingOverflow(
        by: 10, adding: UInt64(character - UInt8(ascii: "0")))
      guard !overflow else { return nil }
      magnitude = next
    }
    var exponent = decimal.exponent
    while exponent < -Int(ExactDecimal.maxScale) {
      let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
      guard remainder == 0 else { break }
      magnitude = quotient
      exponent += 1
    }
    guard exponent >= -Int(ExactDecimal.maxScale) else { return nil }
    while exponent > 0 {
      let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10, adding: 0)
      guard !overflow else { return nil }
      magnitude = shifted
      exponent -= 1
    }
    // A negative value may reach 2^127; a positive one 2^127 - 1.
    guard let significand = WideInt(magnitude: magnitude, negative: decimal.sign == .minus) else { return nil }
    self.init(wide: significand, scale: UInt8(-exponent))
  }
}
