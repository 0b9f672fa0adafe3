/// Numeric equality, order and hashing: the scale is how a value prints, not
/// part of the value, so `1.50 == 1.5` and both hash alike (as with
/// Foundation's `Decimal`). `Comparable` requires `==` to agree with `<`.
extension ExactDecimal: Hashable, Comparable {
  /// Numeric equality: `1.50 == 1.5`.
  @inlinable public static func == (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    if lhs.scale == rhs.scale { return lhs.wide == rhs.wide }
    return lhs.compare(rhs) == 0
  }

  /// Numeric order, whatever the scales.
  @inlinable public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    if lhs.scale == rhs.scale { return lhs.wide < rhs.wide }
    return lhs.compare(rhs) < 0
  }

  /// Hashes the value without trailing fraction zeros, so equal values hash equal.
  public func hash(into hasher: inout Hasher) {
    var significand = wide
    var scale = self.scale
    while scale > 0 {
      let (quotient, remainder) = significand.quotientAndRemainder(dividingBy: 10)
      if remainder != 0 { break }
      significand = quotient
      scale -= 1
    }
    hasher.combine(significand.high)
    hasher.combine(significand.low)
    hasher.combine(scale)
  }
}

/// `+` and `-` that trap on overflow, as `Int`'s do, and checked variants.
///
/// A result prints with the larger scale of its operands (`10.5 + 1.25` is
/// `11.75`, `0.10 + 0.20` is `0.30`). It overflows when it, or an operand
/// rescaled to that scale, no longer fits the 128-bit significand. Use
/// `adding(_:)`/`subtracting(_:)` (`nil` on overflow) or the
/// `…ReportingOverflow` forms on values that input controls.
extension ExactDecimal: AdditiveArithmetic {
  /// The sum; traps on overflow.
  @inlinable public static func + (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
    guard let sum = lhs.adding(rhs) else { preconditionFailure("ExactDecimal addition overflowed") }
    return sum
  }

  /// The difference; traps on overflow.
  @inlinable public static func - (lhs: ExactDecimal, rhs: ExactDecimal) -> ExactDecimal {
    guard let difference = lhs.subtracting(rhs) else { preconditionFailure("ExactDecimal subtraction overflowed") }
    return difference
  }

  /// The exact difference, printed with the larger scale of the two, or `nil` on overflow.
  @inlinable
  public func subtracting(_ other: ExactDecimal) -> ExactDecimal? {
    let result = subtractingReportingOverflow(other)
    return result.overflow ? nil : result.partialValue
  }

  /// The sum and whether it overflowed; on overflow `partialValue` is
  /// meaningless (a wrapped or unscaled value), as for `Int`.
  @inlinable
  public func addingReportingOverflow(_ other: ExactDecimal) -> (partialValue: ExactDecimal, overflow: Bool) {
    combiningReportingOverflow(other) { $0.addingReportingOverflow($1) }
  }

  /// The difference and whether it overflowed (see `addingReportingOverflow(_:)`).
  @inlinable
  public func subtractingReportingOverflow(_ other: ExactDecimal) -> (partialValue: ExactDecimal, overflow: Bool) {
    combiningReportingOverflow(other) { $0.subtractingReportingOverflow($1) }
  }

  @inlinable
  func combiningReportingOverflow(
    _ other: ExactDecimal, _ operation: (WideInt, WideInt) -> (partialValue: WideInt, overflow: Bool)
  ) -> (partialValue: ExactDecimal, overflow: Bool) {
    let scale = Swift.max(self.scale, other.scale)
    guard let lhs = rescaled(to: scale), let rhs = other.rescaled(to: scale) else { return (self, true) }
    let (result, overflow) = operation(lhs.wide, rhs.wide)
    return (ExactDecimal(wide: result, scale: scale), overflow)
  }
}

/// `ExactDecimal(x.description) == x` with the same scale, for every amount
/// (at most 18 fraction digits and 38 significant digits).
extension ExactDecimal: LosslessStringConvertible {}

extension ExactDecimal {
  /// This value written with `newScale` fraction digits (no more than
  /// `scale`), or `nil` when that would drop a digit that is not zero.
  func reduced(toScale newScale: UInt8) -> ExactDecimal? {
    guard newScale < scale else { return self }
    let divided = wide.quotientAndRemainder(dividingBy: Self.powerOfTen(Int(scale - newScale)))
    return divided.remainder == 0 ? ExactDecimal(wide: divided.quotient, scale: newScale) : nil
  }
}
