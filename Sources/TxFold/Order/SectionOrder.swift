/// The total order of sections and groups in every report (Documentation/Formats.md, "`group` reports").
///
/// Sections: `PENDING`, then `COMPLETED`, then other states alphabetically
/// (byte-wise). Groups in a section: day descending, then latest instant
/// descending, then `CRDT` before `DBIT`. Within a state, day and indicator
/// identify a group, so no two groups tie and the output is the same on every
/// run and thread count.
enum SectionOrder {
  /// True when a section for `lhs` comes before one for `rhs`.
  static func stateComesFirst(_ lhs: String, _ rhs: String) -> Bool {
    let left = rank(lhs)
    let right = rank(rhs)
    if left != right { return left < right }
    return ByteOrder.precedes(Array(lhs.utf8), Array(rhs.utf8))
  }

  static func rank(_ state: String) -> Int {
    switch state {
    case KnownState.pending: return 0
    case KnownState.completed: return 1
    default: return 2
    }
  }

  /// True when group `lhs` comes before group `rhs` in the same section.
  static func groupComesFirst(_ lhs: TransactionGroup, _ rhs: TransactionGroup) -> Bool {
    groupComesFirst(
      (lhs.date, lhs.latest, lhs.creditDebitIndicator), (rhs.date, rhs.latest, rhs.creditDebitIndicator))
  }

  /// The same rule on a group's parts, for writers that sort a fold's
  /// groups in place rather than report values.
  static func groupComesFirst(
    _ lhs: (day: CalendarDay, latest: Timestamp, indicator: CreditDebitIndicator),
    _ rhs: (day: CalendarDay, latest: Timestamp, indicator: CreditDebitIndicator)
  ) -> Bool {
    if lhs.day != rhs.day { return lhs.day > rhs.day }
    let byLatest = lhs.latest.compareInstant(rhs.latest)
    if byLatest != 0 { return byLatest > 0 }
    return lhs.indicator.rawValue < rhs.indicator.rawValue
  }

  /// Puts groups into sections in report order.
  static func sections(of groups: [TransactionGroup]) -> [ReportSection] {
    // States are their bytes, as the fold keys them: `String`'s `==` would join two states
    // that differ only in Unicode normalisation into one section.
    var byState: [UTF8Key: [TransactionGroup]] = [:]
    for group in groups { byState[UTF8Key(group.state), default: []].append(group) }
    return byState.keys.sorted { stateComesFirst($0.string, $1.string) }.map { state in
      ReportSection(state: state.string, groups: (byState[state] ?? []).sorted(by: groupComesFirst))
    }
  }
}
