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
