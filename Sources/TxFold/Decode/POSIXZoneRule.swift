/// The POSIX TZ rule in a TZif footer, such as `CET-1CEST,M3.5.0,M10.5.0/3`:
/// a standard offset and, optionally, a daylight-saving offset with the
/// rules of its start and end in each year. Note POSIX's sign: `CET-1` is one
/// hour east of UTC.
struct POSIXZoneRule: Sendable, Hashable {
  /// Seconds east of UTC outside daylight-saving time.
  var standardOffset: Int32
  /// Daylight-saving time, when the zone has it.
  var dst: DaylightSaving?

  struct DaylightSaving: Sendable, Hashable {
    /// Seconds east of UTC during daylight-saving time.
    var offset: Int32
    /// When it starts (local standard time) and ends (local daylight time).
    var start: Change
    var end: Change
  }

  /// A day of the year and a local time of day.
  struct Change: Sendable, Hashable {
    enum Day: Sendable, Hashable {
      /// `Jn`: day 1–365, February 29 never counted.
      case julianNoLeap(Int)
      /// `n`: day 0–365, February 29 counted.
      case zeroBased(Int)
      /// `Mm.w.d`: day `d` (0 = Sunday) of week `w` (1–5, 5 = last) of month `m`.
      case monthWeekDay(month: Int, week: Int, weekday: Int)
    }
    var day: Day
    /// Seconds after local midnight (−167 to 167 hours).
    var time: Int32
  }

  /// The offset at `seconds` since 1970 UTC.
  func offset(atUTC seconds: Int64) -> Int32 {
    guard let dst else { return standardOffset }
    // Timestamps lie in years 1–9999; anything beyond is treated as their edge, never overflowing.
    let seconds = min(max(seconds, -62_200_000_000), 253_500_000_000)
    let localDays = CalendarMath.floorDivide(seconds + Int64(standardOffset), 86_400)
    let year = CalendarMath.civilFromDays(Int(localDays)).year
    let start = Self.instant(of: dst.start, year: year) - Int64(standardOffset)
    let end = Self.instant(of: dst.end, year: year) - Int64(dst.offset)
    if start < end {
      return seconds >= start && seconds < end ? dst.offset : standardOffset
    }
    // Southern hemisphere: daylight-saving time spans the turn of the year.
    return seconds >= end && seconds < start ? standardOffset : dst.offset
  }

  /// Local seconds since 1970 (as if the local time were UTC) of `change` in `year`.
  static func instant(of change: Change, year: Int) -> Int64 {
    let january1 = CalendarMath.daysFromCivil(year: year, month: 1, day: 1)
    let day: Int
    switch change.day {
    case .julianNoLeap(let number):
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      day = january1 + number - 1 + (leap && number >= 60 ? 1 : 0)
    case .zeroBased(let number):
      day = january1 + number
    case .monthWeekDay(let month, let week, let weekday):
      let first = CalendarMath.daysFromCivil(year: year, month: month, day: 1)
      // 1970-01-01 was a Thursday (weekday 4).
      let firstWeekday = ((first % 7) + 7 + 4) % 7
      var candidate = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
      let nextMonth =
        month == 12
        ? CalendarMath.daysFromCivil(year: year + 1, month: 1, day: 1)
        : CalendarMath.daysFromCivil(year: year, month: month + 1, day: 1)
      while candidate >= nextMonth { candidate -= 7 }
      day = candidate
    }
    return Int64(day) * 86_400 + Int64(change.time)
  }
}

extension POSIXZoneRule {
  /// The instants in `year` when the offset changes, with the offset from then
  /// on, in time order (none without daylight-saving time).
  func changes(in year: Int) -> [(instant: Int64, offset: Int32)] {
    guard let dst else { return [] }
    let start = Self.instant(of: dst.start, year: year) - Int64(standardOffset)
    let end = Self.instant(of: dst.end, year: year) - Int64(dst.offset)
    let both = [(start, dst.offset), (end, standardOffset)]
    return both.sorted { $0.0 < $1.0 }.map { (instant: $0.0, offset: $0.1) }
  }
}
