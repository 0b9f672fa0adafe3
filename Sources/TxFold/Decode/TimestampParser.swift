/// Validates and parses the timestamp forms of SPEC §1.2 from bytes.
///
/// Impossible values (`2019-02-30`, hour 24 or more, minute or second 60 or
/// more) are rejected: leap seconds are not accepted. Timestamps without an
/// offset are placed as UTC here; `ZoneResolver` moves them into `--timezone`.
///
/// A timestamp with a time (19 bytes or more) has its `YYYY-MM-DDTHH:MM:SS`
/// checked and converted eight bytes at a time (`TimestampParser+Unsafe.swift`);
/// a date alone goes byte by byte (`parseBytewise`, also the reference the
/// word-at-a-time path is tested against). Both accept exactly the same texts.
public enum TimestampParser {
  /// Parses `bytes`, or returns `nil` when they are not an accepted timestamp.
  @inlinable
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    var stamp = Timestamp.epoch
    return parse(bytes, into: &stamp) == nil ? nil : stamp
  }

  /// Parses `bytes` into `stamp`, setting every field, and returns the date
  /// as written; `nil` when they are not an accepted timestamp (then `stamp`
  /// is partly set). The per-record form: the decoder parses straight into
  /// the record it reuses.
  @inlinable
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> CalendarDay? {
    guard bytes.count >= 19 else {
      guard let date = parseBytewise(bytes) else { return nil }
      stamp = date
      return date.writtenDayFromInstant
    }
    guard let days = parseDateTime(bytes, into: &stamp) else { return nil }
    if bytes.count > 19 && !parseFractionAndOffset(bytes, into: &stamp) { return nil }
    return CalendarDay(daysSinceEpoch: Int32(truncatingIfNeeded: days))
  }

  /// Whether a date's fields are a real date: month 1–12, and a day that month has.
  @inlinable @inline(__always)
  static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
    // Every month has 28 days: only later days need the month's length.
    month >= 1 && month <= 12 && day >= 1 && (day <= 28 || day <= CalendarMath.daysInMonth(year: year, month: month))
  }

  /// The decimal digit at `index`, or `nil`.
  @inlinable @inline(__always)
  static func digit(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
    let value = bytes[index] &- .zero
    return value < 10 ? Int(value) : nil
  }

  /// The two-digit number at `index`, or `nil`.
  @inlinable @inline(__always)
  static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
    guard let tens = digit(bytes, index), let ones = digit(bytes, index + 1) else { return nil }
    return tens * 10 + ones
  }

  /// The byte-at-a-time parser: dates, texts too short for a time, and the
  /// reference the word-at-a-time path is tested against.
  @inlinable
  static func parseBytewise(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    let count = bytes.count
    guard count >= 10 else { return nil }
    @inline(__always) func digit(_ index: Int) -> Int? { Self.digit(bytes, index) }
    @inline(__always) func twoDigits(_ index: Int) -> Int? { Self.twoDigits(bytes, index) }
    guard let y1 = digit(0), let y2 = digit(1), let y3 = digit(2), let y4 = digit(3),
      bytes[4] == .minus, let month = twoDigits(5), bytes[7] == .minus, let day = twoDigits(8)
    else { return nil }
    let year = y1 * 1000 + y2 * 100 + y3 * 10 + y4
    guard isValidDate(year: year, month: month, day: day) else { return nil }
    let days = Int64(CalendarMath.daysFromCivil(year: year, month: month, day: day))
    var stamp = Timestamp(
      year: Int16(year), month: UInt8(month), day: UInt8(day), hour: 0, minute: 0, second: 0,
      fractionDigits: 0, style: .dateOnly, offsetNegative: false, nanosecond: 0, offsetMinutes: 0,
      epochSeconds: days * 86_400)
    if count == 10 { return stamp }
    // Time part: THH:MM:SS
    guard count >= 19, bytes[10] == .upperT, let hour = twoDigits(11), bytes[13] == .colon,
      let minute = twoDigits(14), bytes[16] == .colon, let second = twoDigits(17),
      hour < 24, minute < 60, second < 60
    else { return nil }
    stamp.hour = UInt8(hour)
    stamp.minute = UInt8(minute)
    stamp.second = UInt8(second)
    stamp.style = .none
    stamp.epochSeconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    if count > 19 && !parseFractionAndOffset(bytes, into: &stamp) { return nil }
    return stamp
  }

  /// What follows `YYYY-MM-DDTHH:MM:SS` in a text longer than 19 bytes: an
  /// optional fraction, then an optional `Z` or offset, and nothing else.
  /// Sets `stamp`'s fraction and offset and moves its instant by the offset;
  /// `false` when the rest is not one of those.
  @usableFromInline @inline(never)
  static func parseFractionAndOffset(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> Bool {
    let count = bytes.count
    @inline(__always) func digit(_ index: Int) -> Int? { Self.digit(bytes, index) }
    @inline(__always) func twoDigits(_ index: Int) -> Int? { Self.twoDigits(bytes, index) }
    var index = 19
    if index < count && bytes[index] == .dot {
      index += 1
      var nanos: UInt32 = 0
      var digits: UInt8 = 0
      while index < count, let value = digit(index) {
        guard digits < 9 else { return false }
        nanos = nanos * 10 + UInt32(value)
        digits += 1
        index += 1
      }
      guard digits > 0 else { return false }
      var scale = digits
      while scale < 9 {
        nanos *= 10
        scale += 1
      }
      stamp.nanosecond = nanos
      stamp.fractionDigits = digits
    }
    var offsetSeconds: Int64 = 0
    if index < count {
      let sign = bytes[index]
      if sign == .upperZ {
        stamp.style = .zulu
        index += 1
      } else if sign == .plus || sign == .minus {
        guard index + 3 <= count, let offsetHours = twoDigits(index + 1) else { return false }
        var offsetMinutes = 0
        if index + 6 == count && bytes[index + 3] == .colon, let minutes = twoDigits(index + 4) {
          offsetMinutes = minutes
          stamp.style = .colon
          index += 6
        } else if index + 5 == count, let minutes = twoDigits(index + 3) {
          offsetMinutes = minutes
          stamp.style = .compact
          index += 5
        } else {
          return false
        }
        guard offsetHours < 24, offsetMinutes < 60 else { return false }
        let total = offsetHours * 60 + offsetMinutes
        stamp.offsetNegative = sign == .minus
        stamp.offsetMinutes = Int16(sign == .minus ? -total : total)
        offsetSeconds = Int64(stamp.offsetMinutes) * 60
      } else {
        return false
      }
    }
    guard index == count else { return false }
    stamp.epochSeconds -= offsetSeconds
    return true
  }

  /// Parses a timestamp from a `String` (a convenience for library callers and tests).
  public static func parse(_ text: String) -> Timestamp? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0)) }
  }
}
