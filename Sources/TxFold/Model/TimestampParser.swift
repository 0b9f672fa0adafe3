/// Validates and parses the timestamp forms of Documentation/Formats.md ("Timestamps and days") from bytes.
///
/// Impossible values (`2019-02-30`, hour 24 or more, minute or second 60 or
/// more) are rejected: leap seconds are not accepted. Timestamps without an
/// offset are placed as UTC here; `ZoneResolver` moves them into `--timezone`.
///
/// A timestamp with a time (19 bytes or more) has its `YYYY-MM-DDTHH:MM:SS`
/// checked and converted eight bytes at a time (`TimestampParser+Unsafe.swift`);
/// a date alone goes byte by byte (`parseBytewise`, also the reference the
/// word-at-a-time path is tested against). Both accept exactly the same texts.
@usableFromInline package enum TimestampParser {
  /// Parses `bytes`, or returns `nil` when they are not an accepted timestamp.
  @inlinable
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    var stamp = Timestamp.epoch
    return parse(bytes, into: &stamp) == nil ? nil : stamp
  }

  /// Parses `bytes` into `stamp`, setting every field, and returns the date
  /// as written; `nil` when they are not an accepted timestamp (then `stamp`
  /// is partly set). The per-record form: the decoder parses straight into
  /// the record it reuses. A date and time is parsed in line, and what may
  /// follow it (`parseFractionAndOffset`) and a date alone out of line.
  @inlinable @inline(__always)
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> CalendarDay? {
    var cache = DateCache()
    return parse(bytes, into: &stamp, cache: &cache)
  }

  /// `parse(_:into:)` with the date of the last date and time parsed kept in
  /// `cache` (see `DateCache`): the same results, with less work when
  /// timestamps come in date order.
  ///
  /// `@inline(always)` (SE-0496), here and on `parseDateTime(_:into:cache:)`:
  /// the optimizer takes `@inline(__always)` as a hint and drops it for a
  /// body this large, and `decodeDirect` would then pay a call a record.
  @inlinable @inline(always)
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp, cache: inout DateCache)
    -> CalendarDay?
  {
    guard bytes.count >= 19 else { return parseShort(bytes, into: &stamp) }
    guard let days = parseDateTime(bytes, into: &stamp, cache: &cache) else { return nil }
    if bytes.count > 19 && !parseFractionAndOffset(bytes, into: &stamp) { return nil }
    return CalendarDay(daysSinceEpoch: Int32(truncatingIfNeeded: days))
  }

  /// `parse(_:into:)` for texts shorter than a date and time: a date alone,
  /// or not a timestamp.
  @usableFromInline @inline(never)
  static func parseShort(_ bytes: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp) -> CalendarDay? {
    guard let date = parseBytewise(bytes) else { return nil }
    stamp = date
    return date.writtenDayFromInstant
  }

  /// Whether a date's fields are a real date: year 1–9999 (a four-digit
  /// year that is not `0000`: no day before 0001-01-01 is printed), month
  /// 1–12, and a day that month has.
  @inlinable @inline(__always)
  static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
    // Every month has 28 days: only later days need the month's length.
    year >= 1 && month >= 1 && month <= 12 && day >= 1
      && (day <= 28 || day <= CalendarMath.daysInMonth(year: year, month: month))
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
    stamp._hour = UInt8(hour)
    stamp._minute = UInt8(minute)
    stamp._second = UInt8(second)
    stamp.style = .none
    stamp._epochSeconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
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
    guard count > 19, let base = bytes.baseAddress else { return false }
    // Safe because every index read below is checked against count first;
    // indices stay below count + 6, far from overflow.
    @inline(__always) func twoDigits(_ index: Int) -> Int? {
      let tens = base[index] &- .zero
      let ones = base[index &+ 1] &- .zero
      return tens < 10 && ones < 10 ? Int(tens) &* 10 &+ Int(ones) : nil
    }
    var index = 19
    if base[index] == .dot {
      index = 20
      var nanos: UInt32 = 0
      while index < count {
        let digit = base[index] &- .zero
        if digit >= 10 { break }
        // A tenth digit: more than nanoseconds.
        guard index < 29 else { return false }
        // At most nine digits: below 10^9, far from overflow.
        nanos = nanos &* 10 &+ UInt32(digit)
        index &+= 1
      }
      let digits = index &- 20
      guard digits > 0 else { return false }
      stamp._nanosecond = nanos &* nanosecondScale(digits)
      stamp._fractionDigits = UInt8(truncatingIfNeeded: digits)
    }
    var offsetSeconds: Int64 = 0
    if index < count {
      let sign = base[index]
      if sign == .upperZ {
        stamp.style = .zulu
        index &+= 1
      } else if sign == .plus || sign == .minus {
        // `±HH:MM` or `±HHMM`, and the text ends there.
        let offsetHours: Int?
        let offsetMinutes: Int?
        if index &+ 6 == count && base[index &+ 3] == .colon {
          offsetHours = twoDigits(index &+ 1)
          offsetMinutes = twoDigits(index &+ 4)
          stamp.style = .colon
        } else if index &+ 5 == count {
          offsetHours = twoDigits(index &+ 1)
          offsetMinutes = twoDigits(index &+ 3)
          stamp.style = .compact
        } else {
          return false
        }
        guard let hours = offsetHours, let minutes = offsetMinutes, hours < 24, minutes < 60 else { return false }
        let total = hours &* 60 &+ minutes
        stamp._offsetNegative = sign == .minus
        stamp._offsetMinutes = Int16(truncatingIfNeeded: sign == .minus ? 0 &- total : total)
        offsetSeconds = Int64(stamp.offsetMinutes) &* 60
        index = count
      } else {
        return false
      }
    }
    guard index == count else { return false }
    stamp._epochSeconds -= offsetSeconds
    return true
  }

  /// What a fraction of `digits` digits (1–9) is multiplied by to be in
  /// nanoseconds: 10^(9 - digits). A `switch` of constants, one table load.
  @inlinable @inline(__always)
  static func nanosecondScale(_ digits: Int) -> UInt32 {
    switch digits {
    case 1: return 100_000_000
    case 2: return 10_000_000
    case 3: return 1_000_000
    case 4: return 100_000
    case 5: return 10_000
    case 6: return 1_000
    case 7: return 100
    case 8: return 10
    default: return 1
    }
  }

  /// Parses a timestamp from a `String` (a convenience for library callers and tests).
  public static func parse(_ text: String) -> Timestamp? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0)) }
  }
}

extension Timestamp {
  /// Parses a timestamp as the decoder reads one (`2019-05-15`, `2019-05-15T14:28:01Z`, with an
  /// optional fraction and `Z`, `+02:00` or `+0200`), or `nil` for any other text; `description`
  /// prints it back exactly as written.
  public init?(_ text: String) {
    guard let parsed = TimestampParser.parse(text) else { return nil }
    self = parsed
  }
}
