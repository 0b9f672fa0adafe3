/// How far `PartialMerger` has read into one partial: where it started, the
/// groups and transactions so far, and the last group's key, so that a key
/// given twice or out of order is refused.
struct PartialProgress {
  /// The line of the partial's header.
  let start: Int
  /// Group lines so far.
  private(set) var groups = 0
  /// Transactions the groups so far count.
  private(set) var counted = 0
  /// The previous group's key and line.
  private var last: (state: [UInt8], day: CalendarDay, indicator: CreditDebitIndicator, line: Int)?

  init(start: Int) { self.start = start }

  /// Counts `group` (on `line`), which must come strictly after the previous
  /// group in the partial's order: state (byte-wise), day, indicator.
  mutating func add(_ group: PartialGroup, line: Int) throws(PartialMerger.PartialLineError) {
    if let last {
      let order: Int
      if last.state != group.state {
        order = last.state.lexicographicallyPrecedes(group.state) ? -1 : 1
      } else if last.day != group.day {
        order = last.day < group.day ? -1 : 1
      } else if last.indicator != group.indicator {
        order = last.indicator.rawValue < group.indicator.rawValue ? -1 : 1
      } else {
        order = 0
      }
      let key = "\(String(decoding: group.state, as: UTF8.self)) \(group.day) \(group.indicator.code)"
      if order == 0 {
        throw .malformed("the group \(key) appears twice in one partial (first on line \(last.line))")
      }
      if order > 0 {
        throw .malformed(
          "groups out of order: \(key) comes after the group on line \(last.line); groups are ordered by state "
            + "(byte-wise), date and indicator")
      }
    }
    let (total, overflow) = counted.addingReportingOverflow(group.count)
    if overflow { throw .malformed("the counts of this partial's groups overflow") }
    counted = total
    groups += 1
    last = (group.state, group.day, group.indicator, line)
  }
}
