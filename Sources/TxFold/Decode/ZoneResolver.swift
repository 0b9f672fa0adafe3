import Foundation

/// Places timestamps in a `--timezone` and finds their day (SPEC §1.2).
///
/// Without a zone the day is the date as written and offset-less timestamps
/// are taken as UTC. With a zone, timestamps that carry an offset are converted
/// into it before their day is taken, and offset-less ones are local to it.
///
/// Foundation's time-zone look-ups are too slow for every record, so the zone's
/// offset transitions between 1900 and 2200 are read once into a table that a
/// binary search answers; instants outside it ask Foundation directly.
public struct ZoneResolver: Sendable {
  /// The IANA zone, or `nil` for "dates as written".
  public let zone: TimeZone?
  /// Transition instants (seconds since epoch), ascending; `offsets[i]` holds from `starts[i]`.
  private let starts: [Int64]
  private let offsets: [Int32]
  private static let tableStart: Int64 = -2_208_988_800  // 1900-01-01
  private static let tableEnd: Int64 = 7_258_118_400  // 2200-01-01

  /// A resolver that keeps dates as written.
  public static let asWritten = ZoneResolver(zone: nil)

  /// Creates a resolver for `zone` (`nil`: dates as written, offset-less times as UTC).
  public init(zone: TimeZone?) {
    self.zone = zone
    guard let zone else {
      starts = []
      offsets = []
      return
    }
    var starts: [Int64] = [Int64.min]
    var offsets: [Int32] = [Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.tableStart))))]
    var cursor = Date(timeIntervalSince1970: Double(Self.tableStart))
    while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
      next.timeIntervalSince1970 < Double(Self.tableEnd)
    {
      let instant = Int64(next.timeIntervalSince1970.rounded(.down))
      let offset = Int32(zone.secondsFromGMT(for: next))
      if offset != offsets[offsets.count - 1] {
        starts.append(instant)
        offsets.append(offset)
      }
      if next <= cursor { break }
      cursor = next
    }
    self.starts = starts
    self.offsets = offsets
  }

  /// Creates a resolver from an IANA name such as `Europe/Amsterdam` or `UTC`;
  /// `nil` when the name is unknown.
  public init?(identifier: String) {
    guard let zone = TimeZone(identifier: identifier) else { return nil }
    self.init(zone: zone)
  }

  /// The zone's offset from UTC, in seconds, at an absolute instant.
  @inlinable
  public func offset(atUTC seconds: Int64) -> Int64 {
    offsetFromTable(seconds)
  }

  @usableFromInline
  func offsetFromTable(_ seconds: Int64) -> Int64 {
    guard let zone else { return 0 }
    if seconds < Self.tableStart || seconds >= Self.tableEnd {
      return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= seconds { low = middle } else { high = middle - 1 }
    }
    return Int64(offsets[low])
  }

  /// Moves `stamp`'s instant into the zone when it has no offset of its own and
  /// returns the day it belongs to.
  @inlinable
  public func resolve(_ stamp: inout Timestamp) -> CalendarDay {
    guard zone != nil else { return stamp.writtenDay }
    if stamp.hasOffset {
      let local = stamp.epochSeconds + offset(atUTC: stamp.epochSeconds)
      return CalendarDay(daysSinceEpoch: Int32(CalendarMath.floorDivide(local, 86_400)))
    }
    // Written as local wall-clock time: find the UTC instant whose local time it is.
    let local = stamp.epochSeconds
    let guess = offset(atUTC: local)
    var instant = local - guess
    let corrected = offset(atUTC: instant)
    if corrected != guess { instant = local - corrected }
    stamp.epochSeconds = instant
    return stamp.writtenDay
  }
}
