/// A validated timestamp as written in the input, with its absolute instant.
///
/// Keeps the written components (so it prints back exactly as written, with no
/// allocation) and the absolute instant used for "most recent" comparisons.
/// Accepted forms (Documentation/Formats.md, "Timestamps and days"): `2019-05-15`, `2019-05-15T14:28:01`, an optional
/// fraction of 1 to 9 digits, and an optional `Z`, `+02:00` or `+0200` offset.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// How the offset was written.
  @usableFromInline package enum OffsetStyle: UInt8, Sendable, Hashable {
    /// No time at all: a bare date, meaning local midnight.
    case dateOnly
    /// A time with no offset: local to `--timezone`, or UTC.
    case none
    /// `Z`.
    case zulu
    /// `+02:00`.
    case colon
    /// `+0200`.
    case compact
  }

  // The written parts and the instant, read-only outside the package: a value set by hand could
  // pair an instant with a written form that does not denote it, or name a day no calendar has,
  // which no parse gives (`Timestamp(_:)`, `Timestamp(date:)` and the decoders are the ways in).
  @usableFromInline package var _year: Int16
  @usableFromInline package var _month: UInt8
  @usableFromInline package var _day: UInt8
  @usableFromInline package var _hour: UInt8
  @usableFromInline package var _minute: UInt8
  @usableFromInline package var _second: UInt8
  @usableFromInline package var _fractionDigits: UInt8
  /// How the offset was written, so the timestamp prints back exactly as read.
  @usableFromInline package var style: OffsetStyle
  @usableFromInline package var _offsetNegative: Bool
  @usableFromInline package var _nanosecond: UInt32
  @usableFromInline package var _offsetMinutes: Int16
  @usableFromInline package var _epochSeconds: Int64

  /// The year as written.
  @inlinable public var year: Int16 { _year }
  /// The month as written (1–12).
  @inlinable public var month: UInt8 { _month }
  /// The day of the month as written, valid for its month and year.
  @inlinable public var day: UInt8 { _day }
  /// The hour as written (0–23; 0 for a bare date).
  @inlinable public var hour: UInt8 { _hour }
  /// The minute as written (0–59).
  @inlinable public var minute: UInt8 { _minute }
  /// The second as written (0–59).
  @inlinable public var second: UInt8 { _second }
  /// Number of fraction digits written (0 when none).
  @inlinable public var fractionDigits: UInt8 { _fractionDigits }
  /// True when the offset was written with a minus sign (even `-00:00`).
  @inlinable public var offsetNegative: Bool { _offsetNegative }
  /// The nanoseconds written after the seconds.
  @inlinable public var nanosecond: UInt32 { _nanosecond }
  /// The written offset in minutes east of UTC (0 for `zulu`, `none`, `dateOnly`).
  @inlinable public var offsetMinutes: Int16 { _offsetMinutes }
  /// Seconds since 1970-01-01T00:00:00Z of the instant this timestamp denotes.
  @inlinable public var epochSeconds: Int64 { _epochSeconds }

  /// Creates a timestamp from its parts; `TimestampParser` is the checked way in.
  @inlinable
  package init(
    year: Int16, month: UInt8, day: UInt8, hour: UInt8, minute: UInt8, second: UInt8, fractionDigits: UInt8,
    style: OffsetStyle, offsetNegative: Bool, nanosecond: UInt32, offsetMinutes: Int16, epochSeconds: Int64
  ) {
    self._year = year
    self._month = month
    self._day = day
    self._hour = hour
    self._minute = minute
    self._second = second
    self._fractionDigits = fractionDigits
    self.style = style
    self._offsetNegative = offsetNegative
    self._nanosecond = nanosecond
    self._offsetMinutes = offsetMinutes
    self._epochSeconds = epochSeconds
  }

  /// True when the text carries its own offset (`Z` or `±hh:mm`).
  @inlinable public var hasOffset: Bool { style == .zulu || style == .colon || style == .compact }

  /// The calendar date as written.
  @inlinable public var writtenDay: CalendarDay {
    CalendarDay(year: Int(year), month: Int(month), day: Int(day))
  }

  /// The calendar date as written, from the instant and the written offset:
  /// the same as `writtenDay` for a timestamp from `TimestampParser`, whose
  /// instant is the written local time less the written offset, without the
  /// calendar arithmetic.
  @inlinable var writtenDayFromInstant: CalendarDay {
    let local = epochSeconds + Int64(offsetMinutes) * 60
    let days = local / 86_400
    return CalendarDay(daysSinceEpoch: Int32(truncatingIfNeeded: local % 86_400 < 0 ? days - 1 : days))
  }

  /// Equal when written alike — the date, time, fraction and offset as written — which is what
  /// every format carries. The instant follows from them, except for a timestamp written without
  /// an offset, which a run places in its zone (`ReadOptions.zone`): that placement is the run's,
  /// not the timestamp's, so a report decoded from a zoned run's `json` (placed in UTC, as the
  /// text carries no zone) equals the report the run built.
  public static func == (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.year == rhs.year && lhs.month == rhs.month && lhs.day == rhs.day && lhs.hour == rhs.hour
      && lhs.minute == rhs.minute && lhs.second == rhs.second && lhs.nanosecond == rhs.nanosecond
      && lhs.fractionDigits == rhs.fractionDigits && lhs.style == rhs.style
      && lhs.offsetNegative == rhs.offsetNegative && lhs.offsetMinutes == rhs.offsetMinutes
  }

  /// Hashes what `==` compares: the written form.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(year)
    hasher.combine(month)
    hasher.combine(day)
    hasher.combine(hour)
    hasher.combine(minute)
    hasher.combine(second)
    hasher.combine(nanosecond)
    hasher.combine(fractionDigits)
    hasher.combine(style)
    hasher.combine(offsetNegative)
    hasher.combine(offsetMinutes)
  }

  /// Orders by absolute instant; equal instants written differently compare equal in order
  /// but not in `==`.
  @inlinable public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.epochSeconds != rhs.epochSeconds ? lhs.epochSeconds < rhs.epochSeconds : lhs.nanosecond < rhs.nanosecond
  }

  /// Three-way comparison of the absolute instants.
  @inlinable public func compareInstant(_ other: Timestamp) -> Int {
    if epochSeconds != other.epochSeconds { return epochSeconds < other.epochSeconds ? -1 : 1 }
    if nanosecond != other.nanosecond { return nanosecond < other.nanosecond ? -1 : 1 }
    return 0
  }

  /// The timestamp exactly as it was written.
  public var description: String { String(written: Self.textLimit, by: writeText) }

  /// Appends the timestamp exactly as it was written.
  public func appendText(to out: inout [UInt8]) { out.append(written: Self.textLimit, by: writeText) }

  /// The most bytes `writeText(to:)` writes: `-32768-MM-DDTHH:MM:SS.fffffffff+HH:MM` is 37.
  static let textLimit = 40

  /// Writes the timestamp exactly as it was written at `target`, which has
  /// room for `textLimit` bytes, and returns how many it wrote: the one
  /// writer of a timestamp's text (`appendText(to:)`, and the report writers'
  /// scratch memory). A timestamp built by hand never traps here: more than
  /// nine fraction digits print nine (the parser accepts 1 to 9), and an
  /// offset past 255 hours prints wrong.
  func writeText(to target: UnsafeMutablePointer<UInt8>) -> Int {
    var at = CalendarDay.writeYear(Int(year), to: target)
    target[at] = .minus
    DecimalDigits.writeTwo(month, to: target + at + 1)
    target[at + 3] = .minus
    DecimalDigits.writeTwo(day, to: target + at + 4)
    at += 6
    if style == .dateOnly { return at }
    target[at] = .upperT
    DecimalDigits.writeTwo(hour, to: target + at + 1)
    target[at + 3] = .colon
    DecimalDigits.writeTwo(minute, to: target + at + 4)
    target[at + 6] = .colon
    DecimalDigits.writeTwo(second, to: target + at + 7)
    at += 9
    if fractionDigits > 0 {
      target[at] = .dot
      at += 1
      var divisor: UInt32 = 100_000_000
      for _ in 0..<min(fractionDigits, 9) {
        target[at] = .zero &+ UInt8(truncatingIfNeeded: nanosecond / divisor % 10)
        at += 1
        divisor /= 10
      }
    }
    switch style {
    case .dateOnly, .none: break
    case .zulu:
      target[at] = .upperZ
      at += 1
    case .colon, .compact:
      target[at] = offsetNegative ? .minus : .plus
      let minutes = Int(offsetMinutes.magnitude)
      DecimalDigits.writeTwo(UInt8(truncatingIfNeeded: minutes / 60), to: target + at + 1)
      at += 3
      if style == .colon {
        target[at] = .colon
        at += 1
      }
      DecimalDigits.writeTwo(UInt8(truncatingIfNeeded: minutes % 60), to: target + at)
      at += 2
    }
    return at
  }
}

/// A calendar date, stored as days since 1970-01-01 (proleptic Gregorian).
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Days since 1970-01-01; negative before it.
  public var daysSinceEpoch: Int32

  /// Creates the day `daysSinceEpoch` days after 1970-01-01 (before it when negative).
  @inlinable public init(daysSinceEpoch: Int32) { self.daysSinceEpoch = daysSinceEpoch }

  /// The day for a valid year, month and day of month.
  @inlinable public init(year: Int, month: Int, day: Int) {
    daysSinceEpoch = Int32(CalendarMath.daysFromCivil(year: year, month: month, day: day))
  }

  /// Whether `lhs` is an earlier day than `rhs`.
  @inlinable public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
    lhs.daysSinceEpoch < rhs.daysSinceEpoch
  }

  /// 0001-01-01, the first day a report prints (days since 1970-01-01).
  public static let first = CalendarDay(daysSinceEpoch: -719_162)
  /// 9999-12-31, the last day a report prints: every day has a four-digit year.
  public static let last = CalendarDay(daysSinceEpoch: 2_932_896)

  /// True for a day from 0001-01-01 to 9999-12-31. A record whose day falls
  /// outside (a year `0000` as written, or a `--timezone` that moves a
  /// timestamp across the first or last year's end) is rejected as an
  /// invalid timestamp. One subtraction and one comparison.
  @inlinable public var isInSupportedRange: Bool {
    // Literals, not `first` and `last`: a static stored property costs a lazy-initialisation check.
    UInt32(bitPattern: daysSinceEpoch &+ 719_162) <= UInt32(2_932_896 + 719_162)
  }

  /// Year, month (1–12) and day of month (1–31).
  public var components: (year: Int, month: Int, day: Int) {
    CalendarMath.civilFromDays(Int(daysSinceEpoch))
  }

  /// `YYYY-MM-DD`.
  public var description: String { String(written: Self.textLimit, by: writeText) }

  /// Appends `YYYY-MM-DD`. Days of accepted records always have four-digit
  /// years (`isInSupportedRange`); any other day, which only a value built by
  /// hand can hold, prints in ISO 8601's expanded form (`-0001-12-31`,
  /// `10000-01-01`) rather than stopping the process.
  public func appendText(to out: inout [UInt8]) { out.append(written: Self.textLimit, by: writeText) }

  /// The most bytes `writeText(to:)` writes: a sign, seven year digits (the
  /// farthest day an `Int32` holds) and `-MM-DD`.
  static let textLimit = 16

  /// Writes `YYYY-MM-DD` (as `appendText(to:)` describes) at `target`, which
  /// has room for `textLimit` bytes, and returns how many it wrote.
  func writeText(to target: UnsafeMutablePointer<UInt8>) -> Int {
    let (year, month, day) = components
    let at = Self.writeYear(year, to: target)
    target[at] = .minus
    DecimalDigits.writeTwo(UInt8(truncatingIfNeeded: month), to: target + at + 1)
    target[at + 3] = .minus
    DecimalDigits.writeTwo(UInt8(truncatingIfNeeded: day), to: target + at + 4)
    return at + 6
  }
}

extension CalendarDay {
  /// Writes a year as four digits; a negative year gets a leading `-`, and
  /// one past 9999 all its digits (never a trap on a value built by hand).
  /// Returns how many bytes (at most eight for any day an `Int32` holds).
  static func writeYear(_ year: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
    let sign = year < 0 ? 1 : 0
    if sign == 1 { target[0] = .minus }
    let magnitude = year.magnitude
    guard magnitude <= 9999 else { return sign + DecimalDigits.write(magnitude, to: target + sign) }
    DecimalDigits.writeFour(magnitude, to: target + sign)
    return sign + 4
  }
}

/// Calendar arithmetic without Foundation (Howard Hinnant's civil-date algorithms).
@usableFromInline package enum CalendarMath {
  /// Days since 1970-01-01 for a proleptic Gregorian date.
  @inlinable
  public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// `daysFromCivil` for years 0–9999 (four digits), with unsigned
  /// arithmetic: the year is moved on 400 years (146,097 days, a whole
  /// cycle) so every quotient is of a non-negative number and compiles to a
  /// multiply and shifts.
  /// Year 0–9999, month 1–12 and day 1–31 keep every step far from
  /// overflow, so it wraps without checks.
  @inlinable @inline(__always)
  static func daysFromCivil(fourDigitYear year: Int, month: Int, day: Int) -> Int {
    let shifted = UInt(truncatingIfNeeded: year &+ 400 &- (month <= 2 ? 1 : 0))
    let monthIndex = UInt(truncatingIfNeeded: month > 2 ? month &- 3 : month &+ 9)
    let dayOfYear = (153 &* monthIndex &+ 2) / 5 &+ UInt(truncatingIfNeeded: day) &- 1
    let days = shifted &* 365 &+ shifted / 4 &- shifted / 100 &+ shifted / 400 &+ dayOfYear
    return Int(truncatingIfNeeded: days) &- (719_468 + 146_097)
  }

  /// The date for a number of days since 1970-01-01.
  public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Number of days in a month of a year.
  @inlinable
  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Floor division, for negative seconds before 1970.
  @inlinable
  public static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

extension Timestamp {
  /// 1970-01-01, a placeholder for slots not yet written.
  @usableFromInline static let epoch = Timestamp(
    year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, fractionDigits: 0, style: .dateOnly,
    offsetNegative: false, nanosecond: 0, offsetMinutes: 0, epochSeconds: 0)
}

// Timestamps and days write their text with one pointer writer each
// (`writeText(to:)`, shared with the report writers' scratch memory); these
// turn such a writer into a `String` or an append.

extension String {
  /// The text `write` writes into room for `limit` bytes, returning how many it wrote.
  init(written limit: Int, by write: (UnsafeMutablePointer<UInt8>) -> Int) {
    self.init(unsafeUninitializedCapacity: limit) { room in room.baseAddress.map(write) ?? 0 }
  }
}

extension Array where Element == UInt8 {
  /// Appends what `write` writes into room for `limit` bytes, returning how many it wrote.
  mutating func append(written limit: Int, by write: (UnsafeMutablePointer<UInt8>) -> Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit) { room in
      guard let base = room.baseAddress else { return }
      append(contentsOf: UnsafeBufferPointer(start: base, count: write(base)))
    }
  }
}
