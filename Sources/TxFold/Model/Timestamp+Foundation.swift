import Foundation

extension Timestamp {
  /// The instant (`epochSeconds` and `nanosecond`) as a Foundation `Date`.
  ///
  /// As exact as `Date`'s `Double` allows: to about 0.1 µs for today's
  /// dates, about 0.1 ms at the ends of years 0001–9999. A timestamp written
  /// without an offset denotes the instant its parser placed it at (UTC, or
  /// the zone a run was given).
  public var date: Date {
    // Counting from Foundation's reference date (2001) keeps the `Double`
    // small for today's dates, so the fraction keeps more digits.
    let seconds = Double(epochSeconds - Int64(Date.timeIntervalBetween1970AndReferenceDate))
    return Date(timeIntervalSinceReferenceDate: seconds + Double(nanosecond) / 1_000_000_000)
  }
}

extension Timestamp {
  /// The timestamp of `date` in UTC, written with `Z`
  /// (`2019-05-17T12:28:01Z`, `2019-05-17T12:28:01.250Z`): what an app
  /// passes for "now" or a picked date.
  ///
  /// `Date` is a binary `Double`, so the instant is rounded to the nearest
  /// microsecond; the fraction is written with no digits when it is zero,
  /// three when whole milliseconds, six otherwise. `nil` when the date falls
  /// outside the years 0001–9999 (or is not finite).
  public init?(date: Date) {
    let interval = date.timeIntervalSince1970
    guard interval.isFinite else { return nil }
    let micros = (interval * 1_000_000).rounded()
    // Years 0001-01-01 to 9999-12-31 in seconds since 1970.
    guard micros >= -62_135_596_800 * 1_000_000, micros < 253_402_300_800 * 1_000_000 else { return nil }
    let total = Int64(micros)
    let seconds = total >= 0 ? total / 1_000_000 : (total - 999_999) / 1_000_000
    let micro = total - seconds * 1_000_000
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let inDay = seconds - days * 86_400
    let (year, month, day) = CalendarDay(daysSinceEpoch: Int32(days)).components
    let digits: UInt8 = micro == 0 ? 0 : micro % 1_000 == 0 ? 3 : 6
    self.init(
      year: Int16(year), month: UInt8(month), day: UInt8(day), hour: UInt8(inDay / 3_600),
      minute: UInt8(inDay % 3_600 / 60), second: UInt8(inDay % 60), fractionDigits: digits, style: .zulu,
      offsetNegative: false, nanosecond: UInt32(micro * 1_000), offsetMinutes: 0, epochSeconds: seconds)
  }
}
