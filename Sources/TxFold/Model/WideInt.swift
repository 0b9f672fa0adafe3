/// A signed 128-bit two's-complement integer held in two 64-bit words: the
/// significand of `ExactDecimal`.
///
/// Swift's `Int128` needs iOS 18 / macOS 15 on Apple platforms; this type
/// needs nothing, so the library runs on the older systems `Package.swift`
/// declares. It has only the operations the library uses, written by hand
/// on the words (`@inline(__always)`, so the fold's addition is an add and
/// an add-with-carry, as `Int128`'s is), with the same names and overflow
/// rules as the standard integers: `+`, `-` and `*` trap on overflow, the
/// `&` forms wrap, the `…ReportingOverflow` forms report.
@frozen @usableFromInline
struct WideInt: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  /// The upper 64 bits, with the sign.
  @usableFromInline var high: Int64
  /// The lower 64 bits.
  @usableFromInline var low: UInt64

  @inlinable @inline(__always)
  init(high: Int64, low: UInt64) {
    self.high = high
    self.low = low
  }

  @inlinable @inline(__always)
  init(_ value: Int64) {
    self.init(high: value >> 63, low: UInt64(bitPattern: value))
  }

  @inlinable @inline(__always)
  init(_ value: Int) {
    self.init(Int64(value))
  }

  @inlinable @inline(__always)
  init(_ value: UInt64) {
    self.init(high: 0, low: value)
  }

  @inlinable @inline(__always)
  init(integerLiteral value: Int64) {
    self.init(value)
  }

  /// -2^127.
  @inlinable static var min: WideInt { WideInt(high: .min, low: 0) }
  /// 2^127 - 1.
  @inlinable static var max: WideInt { WideInt(high: .max, low: .max) }

  /// The value as an `Int64`, or `nil` when it does not fit.
  @inlinable @inline(__always)
  var exactInt64: Int64? {
    let value = Int64(bitPattern: low)
    return high == value >> 63 ? value : nil
  }

  @inlinable @inline(__always)
  var isNegative: Bool { high < 0 }

  @inlinable @inline(__always)
  static func < (lhs: WideInt, rhs: WideInt) -> Bool {
    lhs.high < rhs.high || (lhs.high == rhs.high && lhs.low < rhs.low)
  }

  // MARK: Addition and subtraction

  @inlinable @inline(__always)
  static func &+ (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (low, carry) = lhs.low.addingReportingOverflow(rhs.low)
    return WideInt(high: lhs.high &+ rhs.high &+ (carry ? 1 : 0), low: low)
  }

  @inlinable @inline(__always)
  static func &- (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (low, borrow) = lhs.low.subtractingReportingOverflow(rhs.low)
    return WideInt(high: lhs.high &- rhs.high &- (borrow ? 1 : 0), low: low)
  }

  @inlinable @inline(__always)
  func addingReportingOverflow(_ other: WideInt) -> (partialValue: WideInt, overflow: Bool) {
    let sum = self &+ other
    // Overflow: both operands have one sign and the sum the other.
    return (sum, (high ^ sum.high) & (other.high ^ sum.high) < 0)
  }

  @inlinable @inline(__always)
  func subtractingReportingOverflow(_ other: WideInt) -> (partialValue: WideInt, overflow: Bool) {
    let difference = self &- other
    // Overflow: the operands' signs differ and the difference has the subtrahend's.
    return (difference, (high ^ other.high) & (high ^ difference.high) < 0)
  }

  @inlinable @inline(__always)
  static func + (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    precondition(!overflow, "128-bit addition overflowed")
    return sum
  }

  @inlinable @inline(__always)
  static func - (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (difference, overflow) = lhs.subtractingReportingOverflow(rhs)
    precondition(!overflow, "128-bit subtraction overflowed")
    return difference
  }

  // MARK: Multiplication

  /// The product's lower 128 bits (two's complement wraps alike for signed and unsigned).
  @inlinable @inline(__always)
  static func &* (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (carry, low) = lhs.low.multipliedFullWidth(by: rhs.low)
    let cross = lhs.low &* UInt64(bitPattern: rhs.high) &+ UInt64(bitPattern: lhs.high) &* rhs.low
    return WideInt(high: Int64(bitPattern: carry &+ cross), low: low)
  }

  @inlinable
  func multipliedReportingOverflow(by other: WideInt) -> (partialValue: WideInt, overflow: Bool) {
    let wrapped = self &* other
    let (product, overflow) = magnitude.multipliedReportingOverflow(by: other.magnitude)
    if overflow { return (wrapped, true) }
    return (wrapped, WideInt(magnitude: product, negative: isNegative != other.isNegative) == nil)
  }

  @inlinable
  static func * (lhs: WideInt, rhs: WideInt) -> WideInt {
    let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
    precondition(!overflow, "128-bit multiplication overflowed")
    return product
  }

  // MARK: Magnitude and division

  /// The absolute value (2^127 for `min`).
  @inlinable @inline(__always)
  var magnitude: UWideInt {
    let value = isNegative ? WideInt(high: 0, low: 0) &- self : self
    return UWideInt(high: UInt64(bitPattern: value.high), low: value.low)
  }

  /// `magnitude` with a sign, or `nil` when that is outside -2^127...2^127-1.
  @inlinable
  init?(magnitude: UWideInt, negative: Bool) {
    let value = WideInt(high: Int64(bitPattern: magnitude.high), low: magnitude.low)
    if !negative {
      guard !value.isNegative else { return nil }
      self = value
    } else {
      let negated = WideInt(high: 0, low: 0) &- value
      // Only zero and up to 2^127 come out non-positive.
      guard negated.isNegative || magnitude.isZero else { return nil }
      self = negated
    }
  }

  /// The quotient and remainder of a division by a positive divisor, both
  /// truncated toward zero as for the standard integers (the remainder has
  /// the dividend's sign).
  @inlinable
  func quotientAndRemainder(dividingBy divisor: Int64) -> (quotient: WideInt, remainder: Int64) {
    precondition(divisor > 0, "WideInt divides by positive divisors only")
    let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: UInt64(divisor))
    let signedQuotient = WideInt(high: Int64(bitPattern: quotient.high), low: quotient.low)
    let signedRemainder = Int64(remainder)
    return isNegative
      ? (WideInt(high: 0, low: 0) &- signedQuotient, 0 &- signedRemainder) : (signedQuotient, signedRemainder)
  }

  /// The signed decimal digits.
  @usableFromInline var description: String {
    var bytes: [UInt8] = []
    if isNegative { bytes.append(UInt8(ascii: "-")) }
    magnitude.appendDigits(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// An unsigned 128-bit integer in two 64-bit words: `WideInt`'s magnitude.
@frozen @usableFromInline
struct UWideInt: Hashable, Sendable, Comparable {
  @usableFromInline var high: UInt64
  @usableFromInline var low: UInt64

  @inlinable @inline(__always)
  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  @inlinable @inline(__always)
  var isZero: Bool { high | low == 0 }

  @inlinable @inline(__always)
  static func < (lhs: UWideInt, rhs: UWideInt) -> Bool {
    lhs.high < rhs.high || (lhs.high == rhs.high && lhs.low < rhs.low)
  }

  @inlinable
  func multipliedReportingOverflow(by other: UWideInt) -> (partialValue: UWideInt, overflow: Bool) {
    let (carry, low) = self.low.multipliedFullWidth(by: other.low)
    let (crossA, overflowA) = high.multipliedReportingOverflow(by: other.low)
    let (crossB, overflowB) = self.low.multipliedReportingOverflow(by: other.high)
    let (partial, overflowC) = crossA.addingReportingOverflow(crossB)
    let (high, overflowD) = carry.addingReportingOverflow(partial)
    let overflow = (self.high != 0 && other.high != 0) || overflowA || overflowB || overflowC || overflowD
    return (UWideInt(high: high, low: low), overflow)
  }

  /// `self × factor + addend`, and whether it passed 2^128 - 1.
  @inlinable
  func multipliedReportingOverflow(by factor: UInt64, adding addend: UInt64) -> (partialValue: UWideInt, overflow: Bool)
  {
    let (lowCarry, low) = self.low.multipliedFullWidth(by: factor)
    let (highCarry, high) = self.high.multipliedFullWidth(by: factor)
    let (sumLow, carryA) = low.addingReportingOverflow(addend)
    let (sumHigh, carryB) = high.addingReportingOverflow(lowCarry)
    let (finalHigh, carryC) = sumHigh.addingReportingOverflow(carryA ? 1 : 0)
    return (UWideInt(high: finalHigh, low: sumLow), highCarry != 0 || carryB || carryC)
  }

  @inlinable
  func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: UWideInt, remainder: UInt64) {
    let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: divisor)
    let (lowQuotient, remainder) = divisor.dividingFullWidth((highRemainder, low))
    return (UWideInt(high: highQuotient, low: lowQuotient), remainder)
  }

  /// The quotient of a division by any non-zero divisor, bit by bit (for the
  /// renderers' bar lengths, not the fold).
  @usableFromInline
  func quotient(dividingBy divisor: UWideInt) -> UWideInt {
    precondition(!divisor.isZero, "division by zero")
    if divisor.high == 0 { return quotientAndRemainder(dividingBy: divisor.low).quotient }
    var quotient = UWideInt(high: 0, low: 0)
    var remainder = UWideInt(high: 0, low: 0)
    for bit in stride(from: 127, through: 0, by: -1) {
      // remainder = remainder << 1 | bit of self; a divisor past 2^64 keeps it below 2^128.
      let next = bit >= 64 ? (high >> UInt64(bit - 64)) & 1 : (low >> UInt64(bit)) & 1
      remainder = UWideInt(high: remainder.high << 1 | remainder.low >> 63, low: remainder.low << 1 | next)
      if !(remainder < divisor) {
        let (low, borrow) = remainder.low.subtractingReportingOverflow(divisor.low)
        remainder = UWideInt(high: remainder.high &- divisor.high &- (borrow ? 1 : 0), low: low)
        if bit >= 64 { quotient.high |= 1 << UInt64(bit - 64) } else { quotient.low |= 1 << UInt64(bit) }
      }
    }
    return quotient
  }

  /// Appends the decimal digits, most significant first (`0` for zero).
  @usableFromInline
  func appendDigits(to out: inout [UInt8]) {
    var reversed: [UInt8] = []
    reversed.reserveCapacity(40)
    var rest = self
    // Nineteen digits at a time while the value is wider than 64 bits.
    while rest.high != 0 {
      let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10_000_000_000_000_000_000)
      var chunk = remainder
      for _ in 0..<19 {
        reversed.append(UInt8(ascii: "0") + UInt8(chunk % 10))
        chunk /= 10
      }
      rest = quotient
    }
    var word = rest.low
    repeat {
      reversed.append(UInt8(ascii: "0") + UInt8(word % 10))
      word /= 10
    } while word > 0
    out.append(contentsOf: reversed.reversed())
  }
}
