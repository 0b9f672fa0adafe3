/// What parsing decimal text gave.
public enum DecimalParseResult: Sendable, Equatable {
  case value(ExactDecimal)
  /// The text is not a decimal number (`invalid-amount`).
  case invalid
  /// A number, but with more than 18 fraction digits or 38 significant digits
  /// (`amount-out-of-range`). Never rounded.
  case outOfRange
}

/// Turns decimal text into an `ExactDecimal` without floating point.
///
/// Grammar: `-? digits ( . digits )? ( [eE] [+-]? digits )?`. The exponent is
/// accepted only for JSON numbers; leading zeros only for JSON strings (JSON
/// numbers with leading zeros are already rejected by the record scanner).
public enum DecimalParser {
  /// 10^0 ... 10^38 as Int128.
  public static let powersOfTen: [Int128] = {
    var table: [Int128] = [1]
    for _ in 1...38 { table.append(table[table.count - 1] * 10) }
    return table
  }()

  /// Parses `bytes` as a decimal.
  @inlinable
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, allowExponent: Bool, allowLeadingZeros: Bool
  ) -> DecimalParseResult {
    let count = bytes.count
    if count <= 18, let value = parsePlain(bytes, allowLeadingZeros: allowLeadingZeros) { return .value(value) }
    var index = 0
    var negative = false
    if index < count && bytes[index] == .minus {
      negative = true
      index += 1
    }
    var significand: Int128 = 0
    var significantDigits = 0
    var fractionDigits = 0
    var integerDigits = 0
    let integerStart = index
    while index < count, bytes[index] &- .zero < 10 {
      let digit = Int128(bytes[index] &- .zero)
      if significantDigits > 0 || digit != 0 { significantDigits += 1 }
      if significantDigits > ExactDecimal.maxSignificantDigits { return .outOfRange }
      significand = significand &* 10 &+ digit
      integerDigits += 1
      index += 1
    }
    if integerDigits == 0 { return .invalid }
    if !allowLeadingZeros && integerDigits > 1 && bytes[integerStart] == .zero { return .invalid }
    if index < count && bytes[index] == .dot {
      index += 1
      while index < count, bytes[index] &- .zero < 10 {
        let digit = Int128(bytes[index] &- .zero)
        if significantDigits > 0 || digit != 0 { significantDigits += 1 }
        if significantDigits > ExactDecimal.maxSignificantDigits { return .outOfRange }
        significand = significand &* 10 &+ digit
        fractionDigits += 1
        index += 1
      }
      if fractionDigits == 0 { return .invalid }
    }
    var exponent = 0
    if index < count && (bytes[index] == .lowerE || bytes[index] == .upperE) {
      if !allowExponent { return .invalid }
      index += 1
      var exponentNegative = false
      if index < count && (bytes[index] == .plus || bytes[index] == .minus) {
        exponentNegative = bytes[index] == .minus
        index += 1
      }
      var exponentDigits = 0
      while index < count, bytes[index] &- .zero < 10 {
        // Saturate: any exponent this large is out of range anyway.
        if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] &- .zero) }
        exponentDigits += 1
        index += 1
      }
      if exponentDigits == 0 { return .invalid }
      if exponentNegative { exponent = -exponent }
    }
    if index != count { return .invalid }
    // value = significand × 10^(exponent - fractionDigits)
    var scale = fractionDigits - exponent
    if scale < 0 {
      if significand == 0 {
        scale = 0
      } else {
        let shift = -scale
        if significantDigits + shift > ExactDecimal.maxSignificantDigits { return .outOfRange }
        significand = significand * powersOfTen[shift]
        scale = 0
      }
    }
    if scale > Int(ExactDecimal.maxScale) { return .outOfRange }
    return .value(ExactDecimal(significand: negative ? 0 - significand : significand, scale: UInt8(scale)))
  }

  /// The common case, `-?digits(.digits)?` in at most 18 bytes, accumulated in
  /// 64 bits: at most 18 digits always fit and are always in range, so no
  /// per-digit check is needed. `nil` for anything else (an exponent, a
  /// leading zero a number may not have, a syntax error), which `parse`
  /// then judges the general way; for what this accepts, both give the same value.
  @inlinable @inline(__always)
  static func parsePlain(_ bytes: UnsafeBufferPointer<UInt8>, allowLeadingZeros: Bool) -> ExactDecimal? {
    let count = bytes.count
    var index = 0
    let negative = count > 0 && bytes[0] == .minus
    if negative { index = 1 }
    let integerStart = index
    var value: UInt64 = 0
    while index < count {
      let digit = bytes[index] &- .zero
      if digit >= 10 { break }
      value = value &* 10 &+ UInt64(digit)
      index += 1
    }
    let integerDigits = index - integerStart
    guard integerDigits > 0, allowLeadingZeros || integerDigits == 1 || bytes[integerStart] != .zero else {
      return nil
    }
    var fractionDigits = 0
    if index < count && bytes[index] == .dot {
      index += 1
      let fractionStart = index
      while index < count {
        let digit = bytes[index] &- .zero
        if digit >= 10 { break }
        value = value &* 10 &+ UInt64(digit)
        index += 1
      }
      fractionDigits = index - fractionStart
      guard fractionDigits > 0 else { return nil }
    }
    guard index == count else { return nil }
    let significand = Int128(value)
    return ExactDecimal(significand: negative ? 0 - significand : significand, scale: UInt8(fractionDigits))
  }
}
