import Foundation

/// Places timestamps in a `--timezone` and finds their day (README "Days and time zones").
///
/// Without a zone the day is the date as written and offset-less timestamps
/// are taken as UTC. With a zone, timestamps that carry an offset are converted
/// into it before their day is taken, and offset-less ones are local to it.
///
/// On Linux the zone's rules come from the system's time-zone database (TZif
/// files under `$TZDIR` or `/usr/share/zoneinfo`, read by `TZifParser`), so an
/// operating-system tzdata update applies without a new build. On Apple
/// platforms they come from Foundation's `TimeZone`, which is the system's there.
///
/// Either way the offsets up to 2200 are put once into a table that a binary
/// search answers per record; later instants ask the rules directly.
public struct ZoneResolver: Sendable {
  /// The zone (its canonical name), or `nil` for "dates as written".
  @usableFromInline package let zone: ZoneName?
  /// Transition instants (seconds since epoch), ascending; `offsets[i]` holds from `starts[i]`.
  private let starts: [Int64]
  private let offsets: [Int32]
  /// The rules, for instants outside the table.
  private let rules: Rules?
  static let tableStart: Int64 = -2_208_988_800  // 1900-01-01
  static let tableEnd: Int64 = 7_258_118_400  // 2200-01-01

  /// Where the offsets outside the table come from.
  enum Rules: Sendable {
    case tzif(TZifZone)
    case foundation(TimeZone)

    func offset(atUTC seconds: Int64) -> Int64 {
      switch self {
      case .tzif(let zone): return Int64(zone.offset(atUTC: seconds))
      case .foundation(let zone): return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
      }
    }
  }

  /// A resolver that keeps dates as written.
  public static let asWritten = ZoneResolver(name: nil, starts: [], offsets: [], rules: nil)

  private init(name: ZoneName?, starts: [Int64], offsets: [Int32], rules: Rules?) {
    self.zone = name
    self.starts = starts
    self.offsets = offsets
    self.rules = rules
  }

  /// Creates a resolver from rules read from a TZif file, named `name`.
  init(name: ZoneName, tzif: TZifZone) {
    var starts: [Int64] = [Int64.min]
    var offsets: [Int32] = [tzif.initialOffset]
    for (instant, offset) in zip(tzif.transitions, tzif.offsets) {
      starts.append(instant)
      offsets.append(offset)
    }
    // After the last transition the footer's rule holds: spell it out up to the table's end.
    if let rule = tzif.rule {
      let from = tzif.transitions.last ?? Self.tableStart
      if let last = tzif.transitions.last, rule.offset(atUTC: last) != offsets[offsets.count - 1] {
        // The rule takes over at the last transition with an offset of its own.
        starts.append(last)
        offsets.append(rule.offset(atUTC: last))
      } else if tzif.transitions.isEmpty {
        // Without transitions the rule holds at every instant (RFC 9636 §3.2), not time type 0:
        // the table starts with the rule's offset, and the changes below follow it.
        offsets[0] = rule.offset(atUTC: Self.tableStart)
      }
      var year = CalendarMath.civilFromDays(Int(CalendarMath.floorDivide(max(from, Self.tableStart), 86_400))).year
      while year < 2200 {
        for change in rule.changes(in: year)
        where change.instant > starts[starts.count - 1] && change.instant < Self.tableEnd
          && change.offset != offsets[offsets.count - 1]
        {
          starts.append(change.instant)
          offsets.append(change.offset)
        }
        year += 1
      }
    }
    self.init(name: name, starts: starts, offsets: offsets, rules: .tzif(tzif))
  }

  /// Creates a resolver for a Foundation `zone` (`nil`: dates as written,
  /// offset-less times as UTC). The zone's identifier is taken as its name.
  public init(zone: TimeZone?) {
    guard let zone else {
      self.init(name: nil, starts: [], offsets: [], rules: nil)
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
    let name =
      zone.secondsFromGMT() == 0 && zone.nextDaylightSavingTimeTransition == nil && starts.count == 1
      ? "UTC" : zone.identifier
    self.init(name: ZoneName(identifier: name), starts: starts, offsets: offsets, rules: .foundation(zone))
  }

  /// The resolver for an IANA name such as `Europe/Amsterdam` or `UTC`.
  ///
  /// - Throws: `ZoneError` for a name that is not an IANA name (an offset such
  ///   as `GMT+2`, a path), or a zone the database does not have.
  public static func named(_ identifier: String) throws(ZoneError) -> ZoneResolver {
    #if os(Linux)
      return try named(identifier, directory: ZoneDatabase.directory)
    #else
      try ZoneDatabase.validate(identifier)
      guard let zone = TimeZone(identifier: identifier) else {
        throw .unknown(identifier, directory: "the system's time-zone database")
      }
      return ZoneResolver(zone: zone)
    #endif
  }

  /// The resolver for `identifier` read from the TZif database in `directory`.
  static func named(_ identifier: String, directory: String) throws(ZoneError) -> ZoneResolver {
    let tzif = try ZoneDatabase.load(identifier, directory: directory)
    return ZoneResolver(name: ZoneName(identifier: tzif.isUTC ? "UTC" : identifier), tzif: tzif)
  }

  /// Creates a resolver from an IANA name such as `Europe/Amsterdam` or `UTC`;
  /// `nil` when the name is refused or unknown (`named(_:)` says why).
  public init?(identifier: String) {
    guard let resolver = try? Self.named(identifier) else { return nil }
    self = resolver
  }

  /// Whether two zone names are one zone on this machine: equal, or with the
  /// same offsets at every instant (`US/Eastern` and `America/New_York`).
  public static func equivalent(_ first: String, _ second: String) -> Bool {
    if first == second { return true }
    #if os(Linux)
      return ZoneDatabase.equivalent(first, second)
    #else
      guard let lhs = TimeZone(identifier: first), let rhs = TimeZone(identifier: second) else { return false }
      return ZoneResolver(zone: lhs).sameTable(as: ZoneResolver(zone: rhs))
    #endif
  }

  func sameTable(as other: ZoneResolver) -> Bool { starts == other.starts && offsets == other.offsets }

  /// The zone's offset from UTC, in seconds, at an absolute instant.
  @inlinable
  public func offset(atUTC seconds: Int64) -> Int64 {
    offsetFromTable(seconds)
  }

  @usableFromInline
  func offsetFromTable(_ seconds: Int64) -> Int64 {
    guard let rules else { return 0 }
    if seconds >= Self.tableEnd { return rules.offset(atUTC: seconds) }
    // Before 1900 the rules answer too: a TZif rule may change the offset there (a zone
    // without transitions follows its footer's daylight-saving time), which the table does not hold.
    if seconds < Self.tableStart { return rules.offset(atUTC: seconds) }
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
    stamp._epochSeconds = instant
    return stamp.writtenDay
  }
}
