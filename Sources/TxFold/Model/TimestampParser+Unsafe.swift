/// The last date `TimestampParser.parseDateTime(_:into:cache:)` checked and
/// converted: its first ten bytes, as written, and what they gave. A dump
/// lists its records mostly in date order, so most records share their date
/// with the one before (nine in ten in a 100,000-record Backbase dump), and
/// then neither the date's checks nor its day count need doing again.
///
/// Held by one `RecordDecoder`, so used by one thread at a time.
@usableFromInline
struct DateCache {
  /// Bytes 0–7 (`YYYY-MM-`) as a little-endian word; 0, which no date has, while empty.
  @usableFromInline var dateWord: UInt64 = 0
  /// Bytes 8–9 (`DD`) in the low 16 bits.
  @usableFromInline var dayBytes: UInt64 = 0
  /// Days since 1970-01-01.
  @usableFromInline var days: Int = 0
  @usableFromInline var year: Int16 = 0
  @usableFromInline var month: UInt8 = 0
  @usableFromInline var day: UInt8 = 0

  @inlinable init() {}
}

extension TimestampParser {
  /// `YYYY-MM-DDTHH:MM:SS`, the first 19 of at least 19 bytes, checked and
  /// converted eight bytes at a time into `stamp` (every field: no offset, no
  /// fraction, the instant as if UTC); returns the date's days since
  /// 1970-01-01, or `nil` when it is not that shape or not a real date and
  /// time (the same texts `parseBytewise` rejects).
  @inlinable @inline(__always)
  static func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> Int64? {
    var cache = DateCache()
    return parseDateTime(bytes, into: &stamp, cache: &cache)
  }

  /// `parseDateTime(_:into:)`, taking the date from `cache` when its ten
  /// bytes are the cached ones, and leaving the date it converts there.
  ///
  /// Three overlapping words — bytes 0–7 `YYYY-MM-`, 8–15 `DDTHH:MM` and
  /// 11–18 `HH:MM:SS` — each pass two checks: every separator byte is itself
  /// and every digit byte has the high nibble 3, and adding 6 to the digit
  /// bytes keeps it 3 (the low nibble is at most 9; no byte carries into the
  /// next, as each is at most 0x3F by then). A digit's value is then its low
  /// nibble, and `d * 10 + d >> 8` puts each two-digit number in one byte.
  /// The first word, and the day's two bytes, need no check when they are
  /// the cache's: those passed every check when they were cached.
  ///
  /// Example: `2019-05-17T10:00:00` gives the words' two-digit bytes 20, 19,
  /// 05 (and 17, 10, 00, 00): year 2019, month 5, day 17, 10:00:00.
  @inlinable @inline(always)
  static func parseDateTime(
    _ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp, cache: inout DateCache
  ) -> Int64? {
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
    guard wrong(dayAndTime, dayMask, dayBits, daySix) | wrong(time, timeMask, timeBits, timeSix) == 0 else {
      return nil
    }
    @inline(__always) func pairs(_ word: UInt64) -> UInt64 {
      let digits = word & 0x0F0F_0F0F_0F0F_0F0F
      return digits &* 10 &+ (digits >> 8)
    }
    let timePairs = pairs(time)
    let hour = Int(timePairs & 0xFF)
    let minute = Int(timePairs >> 24 & 0xFF)
    let second = Int(timePairs >> 48 & 0xFF)
    guard hour < 24, minute < 60, second < 60 else { return nil }
    let dayBytes = dayAndTime & 0xFFFF
    if date != cache.dateWord || dayBytes != cache.dayBytes {
      guard wrong(date, dateMask, dateBits, dateSix) == 0 else { return nil }
      let datePairs = pairs(date)
      let year = Int(datePairs & 0xFF) * 100 + Int(datePairs >> 16 & 0xFF)
      let month = Int(datePairs >> 40 & 0xFF)
      let day = Int(pairs(dayAndTime) & 0xFF)
      guard isValidDate(year: year, month: month, day: day) else { return nil }
      // The values are checked above, so the conversions are exact.
      cache.dateWord = date
      cache.dayBytes = dayBytes
      cache.days = CalendarMath.daysFromCivil(fourDigitYear: year, month: month, day: day)
      cache.year = Int16(truncatingIfNeeded: year)
      cache.month = UInt8(truncatingIfNeeded: month)
      cache.day = UInt8(truncatingIfNeeded: day)
    }
    let days = cache.days
    stamp._year = cache.year
    stamp._month = cache.month
    stamp._day = cache.day
    // The values are checked above, so the conversions are exact.
    stamp._hour = UInt8(truncatingIfNeeded: hour)
    stamp._minute = UInt8(truncatingIfNeeded: minute)
    stamp._second = UInt8(truncatingIfNeeded: second)
    stamp._fractionDigits = 0
    stamp.style = .none
    stamp._offsetNegative = false
    stamp._nanosecond = 0
    stamp._offsetMinutes = 0
    stamp._epochSeconds = Int64(days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ second)
    return Int64(days)
  }
}
