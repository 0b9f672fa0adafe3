/// What parsing decimal text gave.
@usableFromInline package enum DecimalParseResult: Sendable, Equatable {
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
///
/// Scale: text without an exponent keeps the fraction digits it was written
/// with (`0.10`); more than 18 of them, or more than 38 digits, is out of
/// range. A number with an exponent gets the scale its written form implies
/// (`1.50e1` → `15.0`, `1.5e3` → `1500`, `1e-2` → `0.01`), and when that form
/// does not fit, it is judged by its value in its shortest exact form:
/// `100000000000000000000000000000000000000e-1` is 10^37 with scale 0,
/// `10e-19` is `0.000000000000000001`, and `0e-100` is `0`.
@usableFromInline package enum DecimalParser {
  /// 10^0 ... 10^38 as 128-bit integers in two words.
  @usableFromInline static let widePowersOfTen: [WideInt] = {
    var table: [WideInt] = [1]
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
    // The digits accumulate without their trailing zeros: a run of zeros is
    // held in `pendingZeros` until a non-zero digit follows it, so a number
    // whose written digits do not fit (`100…0e-1`) can still be judged by its
    // value. `significantDigits` counts the digits as written, from the first
    // non-zero one.
    var significand: WideInt = 0
    var significantDigits = 0
    var pendingZeros = 0
    var fractionDigits = 0
    var integerDigits = 0
    let integerStart = index
    @inline(__always) func take(_ digit: WideInt) -> Bool {
      if digit == 0 {
        if significantDigits > 0 {
          significantDigits += 1
          pendingZeros += 1
        }
        return true
      }
      // A non-zero digit past the 38th significant one: no exponent can make
      // the value shorter. Below that, at most 38 digits are multiplied in, so
      // the significand stays inside 128 bits.
      guard significantDigits + 1 <= ExactDecimal.maxSignificantDigits else { return false }
      significand = significand &* widePowersOfTen[pendingZeros + 1] &+ digit
      significantDigits += 1
      pendingZeros = 0
      return true
    }
    while index < count, bytes[index] &- .zero < 10 {
      if !take(WideInt(UInt64(bytes[index] &- .zero))) { return .outOfRange }
      integerDigits += 1
      index += 1
    }
    if integerDigits == 0 { return .invalid }
    if !allowLeadingZeros && integerDigits > 1 && bytes[integerStart] == .zero { return .invalid }
    if index < count && bytes[index] == .dot {
      index += 1
      while index < count, bytes[index] &- .zero < 10 {
        if !take(WideInt(UInt64(bytes[index] &- .zero))) { return .outOfRange }
        fractionDigits += 1
        index += 1
      }
      if fractionDigits == 0 { return .invalid }
    }
    var exponent = 0
    var hasExponent = false
    var exponentSaturated = false
    if index < count && (bytes[index] == .lowerE || bytes[index] == .upperE) {
      if !allowExponent { return .invalid }
      hasExponent = true
      index += 1
      var exponentNegative = false
      if index < count && (bytes[index] == .plus || bytes[index] == .minus) {
        exponentNegative = bytes[index] == .minus
        index += 1
      }
      var exponentDigits = 0
      while index < count, bytes[index] &- .zero < 10 {
        // Saturate: any exponent this large is out of range anyway (unless the number is zero).
        if exponent < 100_000 {
          exponent = exponent * 10 + Int(bytes[index] &- .zero)
        } else {
          exponentSaturated = true
        }
        exponentDigits += 1
        index += 1
      }
      if exponentDigits == 0 { return .invalid }
      if exponentNegative { exponent = -exponent }
    }
    if index != count { return .invalid }
    if exponentSaturated { return significand == 0 ? .value(.zero) : .outOfRange }
    // As written: value = significand × 10^pendingZeros × 10^(exponent - fractionDigits),
    // with `fractionDigits - exponent` fraction digits (none below zero).
    let writtenScale = max(0, fractionDigits - exponent)
    let writtenDigits = significand == 0 ? 0 : significantDigits + max(0, exponent - fractionDigits)
    if writtenScale <= Int(ExactDecimal.maxScale) && writtenDigits <= ExactDecimal.maxSignificantDigits {
      // Zeros to put back: the held trailing zeros, moved by the exponent, up to the written scale.
      let shift = pendingZeros + exponent - fractionDigits + writtenScale
      let value = significand == 0 ? 0 : significand &* widePowersOfTen[shift]
      return .value(ExactDecimal(wide: negative ? 0 - value : value, scale: UInt8(writtenScale)))
    }
    // A number with an exponent is judged by its value: the written form does
    // not fit, so take the value's shortest exact form (no trailing fraction
    // zeros; zero is `0`). Numbers without an exponent keep the written rule.
    guard hasExponent else { return .outOfRange }
    if significand == 0 { return .value(.zero) }
    let power = pendingZeros + exponent - fractionDigits
    if power < 0 {
      guard -power <= Int(ExactDecimal.maxScale) else { return .outOfRange }
      return .value(ExactDecimal(wide: negative ? 0 - significand : significand, scale: UInt8(-power)))
    }
    guard significantDigits - pendingZeros + power <= ExactDecimal.maxSignificantDigits else { return .outOfRange }
    let value = significand &* widePowersOfTen[power]
    return .value(ExactDecimal(wide: negative ? 0 - value : value, scale: 0))
  }

  /// Parses the text of any `ExactDecimal` value: `-?digits(.digits)?`, leading zeros allowed, at
  /// most 18 fraction digits, and a significand anywhere in the 128-bit range (-2^127 to
  /// 2^127 - 1). Not the rule for input amounts (`parse`, at most 38 significant digits): a sum
  /// may pass 38 digits (two amounts of 5 × 10^37 make 10^38), and the reports and partial states
  /// that write it must read it back. `.outOfRange` for more fraction digits or a significand
  /// beyond 128 bits.
  static func parseWholeRange<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> DecimalParseResult {
    var index = bytes.startIndex
    let negative = index != bytes.endIndex && bytes[index] == .minus
    if negative { index = bytes.index(after: index) }
    var magnitude = UWideInt(high: 0, low: 0)
    var integerDigits = 0
    var fractionDigits = 0
    var seenDot = false
    var overflow = false
    while index != bytes.endIndex {
      let byte = bytes[index]
      index = bytes.index(after: index)
      if byte == .dot && !seenDot && integerDigits > 0 {
        seenDot = true
        continue
      }
      guard byte &- .zero < 10 else { return .invalid }
      let (next, passed) = magnitude.multipliedReportingOverflow(by: 10, adding: UInt64(byte &- .zero))
      (magnitude, overflow) = (next, overflow || passed)
      if seenDot { fractionDigits += 1 } else { integerDigits += 1 }
    }
    guard integerDigits > 0, !seenDot || fractionDigits > 0 else { return .invalid }
    guard !overflow, fractionDigits <= Int(ExactDecimal.maxScale),
      let significand = WideInt(magnitude: magnitude, negative: negative)
    else { return .outOfRange }
    return .value(ExactDecimal(wide: significand, scale: UInt8(fractionDigits)))
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
    let significand = WideInt(value)
    return ExactDecimal(wide: negative ? 0 - significand : significand, scale: UInt8(fractionDigits))
  }
}
