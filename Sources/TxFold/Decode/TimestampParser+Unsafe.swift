extension TimestampParser {
  /// `YYYY-MM-DDTHH:MM:SS`, the first 19 of at least 19 bytes, checked and
  /// converted eight bytes at a time into `stamp` (every field: no offset, no
  /// fraction, the instant as if UTC); returns the date's days since
  /// 1970-01-01, or `nil` when it is not that shape or not a real date and
  /// time (the same texts `parseBytewise` rejects).
  ///
  /// Three overlapping words — bytes 0–7 `YYYY-MM-`, 8–15 `DDTHH:MM` and
  /// 11–18 `HH:MM:SS` — each pass two checks: every separator byte is itself
  /// and every digit byte has the high nibble 3, and adding 6 to the digit
  /// bytes keeps it 3 (the low nibble is at most 9; no byte carries into the
  /// next, as each is at most 0x3F by then). A digit's value is then its low
  /// nibble, and `d * 10 + d >> 8` puts each two-digit number in one byte.
  ///
  /// Example: `2019-05-17T10:00:00` gives the words' two-digit bytes 20, 19,
  /// 05 (and 17, 10, 00, 00): year 2019, month 5, day 17, 10:00:00.
  @inlinable @inline(__always)
  static func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> Int64? {
    guard bytes.count >= 19, let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    // Safe because count >= 19: the loads read bytes 0..<8, 8..<16 and 11..<19.
    let date = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    let dayAndTime = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    let time = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
    // Per word (byte 0 lowest): 0xF0 on digits and 0xFF on separators, what
    // those bits must be, and 0x06 on digits.
    let dateMask: UInt64 = 0xFF_F0_F0_FF_F0_F0_F0_F0
    let dateBits: UInt64 = 0x2D_30_30_2D_30_30_30_30  // YYYY-MM-
    let dateSix: UInt64 = 0x00_06_06_00_06_06_06_06
    let dayMask: UInt64 = 0xF0_F0_FF_F0_F0_FF_F0_F0
    let dayBits: UInt64 = 0x30_30_3A_30_30_54_30_30  // DDTHH:MM
    let daySix: UInt64 = 0x06_06_00_06_06_00_06_06
    let timeMask: UInt64 = 0xF0_F0_FF_F0_F0_FF_F0_F0
    let timeBits: UInt64 = 0x30_30_3A_30_30_3A_30_30  // HH:MM:SS
    let timeSix: UInt64 = 0x06_06_00_06_06_00_06_06
    @inline(__always) func wrong(_ word: UInt64, _ mask: UInt64, _ bits: UInt64, _ six: UInt64) -> UInt64 {
      let digitHigh = six &* 0x28  // 0xF0 on the digits
      let digitThree = six &* 0x08  // 0x30 on the digits
      return ((word & mask) ^ bits) | (((word &+ six) & digitHigh) ^ digitThree)
    }
    guard
      wrong(date, dateMask, dateBits, dateSix) | wrong(dayAndTime, dayMask, dayBits, daySix)
        | wrong(time, timeMask, timeBits, timeSix) == 0
    else { return nil }
    @inline(__always) func pairs(_ word: UInt64) -> UInt64 {
      let digits = word & 0x0F0F_0F0F_0F0F_0F0F
      return digits &* 10 &+ (digits >> 8)
    }
    let datePairs = pairs(date)
    let year = Int(datePairs & 0xFF) * 100 + Int(datePairs >> 16 & 0xFF)
    let month = Int(datePairs >> 40 & 0xFF)
    let day = Int(pairs(dayAndTime) & 0xFF)
    let timePairs = pairs(time)
    let hour = Int(timePairs & 0xFF)
    let minute = Int(timePairs >> 24 & 0xFF)
    let second = Int(timePairs >> 48 & 0xFF)
    guard isValidDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 60 else { return nil }
    let days = CalendarMath.daysFromCivil(fourDigitYear: year, month: month, day: day)
    // The values are checked above, so the conversions are exact.
    stamp.year = Int16(truncatingIfNeeded: year)
    stamp.month = UInt8(truncatingIfNeeded: month)
    stamp.day = UInt8(truncatingIfNeeded: day)
    stamp.hour = UInt8(truncatingIfNeeded: hour)
    stamp.minute = UInt8(truncatingIfNeeded: minute)
    stamp.second = UInt8(truncatingIfNeeded: second)
    stamp.fractionDigits = 0
    stamp.style = .none
    stamp.offsetNegative = false
    stamp.nanosecond = 0
    stamp.offsetMinutes = 0
    stamp.epochSeconds = Int64(days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ second)
    return Int64(days)
  }
}
