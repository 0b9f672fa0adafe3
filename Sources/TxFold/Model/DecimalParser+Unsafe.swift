extension DecimalParser {
  /// The commonest amounts, `-?digits(.digits)?` with at most eight bytes
  /// after the sign (`1919.95`, `-3.5`, `150`), read from `record[start..<end]`
  /// and converted eight bytes at a time. `nil` for anything else — a longer
  /// text, an exponent, a leading zero a number may not have (without
  /// `allowLeadingZeros`), a syntax error — and when fewer than eight bytes of
  /// `record` follow the digits' start; the caller then parses the general
  /// way. For what this accepts, `parsePlain` gives the same value and scale.
  ///
  /// One unaligned load holds the text, shifted up so that its last byte is
  /// the word's top byte (the bytes below it are zero: leading zeros, once
  /// the digits are checked). The dot is the one zero byte of the word XORed
  /// with dots (found exactly: each byte's low seven bits are added to 0x7F
  /// apart, so nothing carries), and is turned into a `0` (0x2E + 2); the
  /// leading zero bytes become `0`s too, so every byte must pass the digit
  /// check of `TimestampParser.parseDateTime` (high nibble 3, still 3 after
  /// adding 6). The digits below the dot move up one byte over it, and three
  /// multiplications add pairs, quads and the two halves.
  ///
  /// Example: `39.05` gives the bytes 0 0 0 3 9 . 0 5, the digits
  /// 0 0 0 3 9 0 0 5 and, the dot taken out, 0 0 0 0 3 9 0 5: 3905, with two
  /// fraction digits (the dot's distance from the top byte).
  ///
  /// - Precondition: `start <= end <= record.count`.
  @inlinable @inline(__always)
  static func parseWord(
    _ record: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, allowLeadingZeros: Bool
  ) -> ExactDecimal? {
    guard start < end, let base = record.baseAddress else { return nil }
    // Safe because start < end <= record.count.
    let negative = base[start] == .minus
    // Safe because start < end, far from overflow.
    let first = negative ? start &+ 1 : start
    let count = end &- first
    guard count >= 1, count <= 8, first <= record.count &- 8 else { return nil }
    // Safe because first + 8 <= record.count: the load lies within the record.
    let loaded = UInt64(littleEndian: UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self))
    let ones: UInt64 = 0x0101_0101_0101_0101
    let lowSevens: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let zeros = ones &* UInt64(UInt8.zero)
    // count is 1...8, so the shift is 0...56.
    let shift = UInt64(truncatingIfNeeded: 64 &- 8 &* count)
    let word = loaded &<< shift
    let dots = word ^ (ones &* UInt64(UInt8.dot))
    let dotBits = ~(((dots & lowSevens) &+ lowSevens) | dots) & (ones &<< 7)
    guard dotBits & (dotBits &- 1) == 0 else { return nil }
    let text = (word &+ (dotBits &>> 6)) | (~(UInt64.max &<< shift) & zeros)
    let carried = (text &+ ones &* 6) & highNibbles
    guard ((text & highNibbles) ^ zeros) | (carried ^ zeros) == 0 else { return nil }
    var digits = text & 0x0F0F_0F0F_0F0F_0F0F
    var fractionDigits = 0
    var integerDigits = count
    if dotBits != 0 {
      // The dot's byte: 7 less the fraction digits, 8 - count plus the integer digits.
      let dotByte = dotBits.trailingZeroBitCount &>> 3
      fractionDigits = 7 &- dotByte
      integerDigits = count &- 1 &- fractionDigits
      // At least one digit on each side of the dot.
      guard fractionDigits >= 1, integerDigits >= 1 else { return nil }
      let above = UInt64.max &<< UInt64(truncatingIfNeeded: 8 &* (dotByte &+ 1))
      digits = (digits & above) | ((digits &<< 8) & ~above)
    }
    guard allowLeadingZeros || integerDigits == 1 || loaded & 0xFF != UInt64(UInt8.zero) else { return nil }
    var value = (digits &* (10 << 8 + 1)) &>> 8
    value = ((value & 0x00FF_00FF_00FF_00FF) &* (100 << 16 + 1)) &>> 16
    value = ((value & 0x0000_FFFF_0000_FFFF) &* (10_000 << 32 + 1)) &>> 32
    let significand = WideInt(value)
    return ExactDecimal(
      wide: negative ? 0 &- significand : significand, scale: UInt8(truncatingIfNeeded: fractionDigits))
  }
}
