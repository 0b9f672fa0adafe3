/// A time zone's rules as a TZif file (RFC 8536) gives them: the UTC offset
/// before the first transition, each transition instant with the offset from
/// it on, and the footer's POSIX TZ rule for instants after the last one.
///
/// Only offsets are kept: a day depends on nothing else, so two zones with the
/// same offsets at every instant (`UTC` and `Etc/UTC`, and also `GMT`) are
/// equal values.
struct TZifZone: Sendable, Hashable {
  /// The offset (seconds east of UTC) before the first transition: time type 0.
  var initialOffset: Int32
  /// Transition instants (seconds since 1970 UTC), ascending.
  var transitions: [Int64]
  /// `offsets[i]` holds from `transitions[i]` on.
  var offsets: [Int32]
  /// The footer's rule for instants after the last transition; `nil` when the
  /// file has none (version 1) or it is empty: the last offset then holds.
  var rule: POSIXZoneRule?

  /// The offset at `seconds` since 1970 UTC, by binary search, then the rule.
  func offset(atUTC seconds: Int64) -> Int32 {
    guard let last = transitions.last else { return rule?.offset(atUTC: seconds) ?? initialOffset }
    if seconds >= last, let rule { return rule.offset(atUTC: seconds) }
    if seconds < transitions[0] { return initialOffset }
    var low = 0
    var high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
    }
    return offsets[low]
  }

  /// Whether the zone is UTC at every instant.
  var isUTC: Bool {
    initialOffset == 0 && offsets.allSatisfy { $0 == 0 }
      && (rule.map { $0.dst == nil && $0.standardOffset == 0 } ?? true)
  }
}
