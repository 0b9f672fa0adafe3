/// Taking records out of a folded table again: `--dedupe`'s first pass folds
/// every record, the losers to a later version of their transaction
/// included, and when some lost, a second pass folds only those into a table
/// of their own, which `retract(_:reportingMembers:)` takes out of the first.
///
/// Counts and exact sums subtract. What a fold keeps as a maximum cannot: a
/// group's `latest` and its kept members are the first few of the group in
/// an order, and the ones after them were dropped. So a retractable table
/// keeps `RetractionReserve.extra` more of each than the report shows (its
/// member heaps are that much larger), and, for each sum, its largest scale
/// and how many amounts have it (`TopScale`). The losers' table keeps as
/// many: every loser among the first `n` of all its group's records is among
/// the first `n` of its group's losers. After the losers leave, the first
/// of what is left are the winners' first as long as at least as many are
/// left as the report shows (or the group never dropped one); otherwise, or
/// when a sum's scale is no longer known, `retract` says so and the run folds
/// the winners anew. The reserve is as large as what is shown (at least
/// eight): that takes more than half of a group's most recent records
/// losing at once, where a re-sent export's losers are a sixth or so of its
/// records, spread over every group.
extension GroupTable {
  /// Takes the records `losers` folded (a retractable table, as this one is)
  /// out of this table, leaves out the groups left empty and trims every
  /// group's members to `reported`. Returns `false` when some group's result
  /// is no longer known (see above), or `losers` holds a group or currency
  /// this table does not; the table is then to be dropped.
  ///
  /// - Complexity: O(groups of `losers` × their kept members²), plus O(groups × kept members).
  func retract(_ losers: GroupTable, reportingMembers reported: Int) -> Bool {
    guard reserve != nil, let theirs = losers.reserve, !perAccount, !losers.perAccount else { return false }
    let stateMap = losers.states.strings.map { states.intern($0) }
    let currencyMap = losers.currencies.strings.map { currencies.intern($0) }
    for (number, loser) in losers.groups.enumerated() {
      let key = Self.packKey(state: stateMap[loser.state], day: loser.day, indicator: loser.indicator)
      let target = index.find(key)
      guard target >= 0,
        retractTotals(of: loser, scales: theirs.scales[number], currencyMap: currencyMap, from: target),
        retractLatest(theirs.recent[number], from: target),
        retractMembers(of: loser, from: target, reported: reported)
      else { return false }
    }
    removeEmptyGroups()
    trimMembers(to: reported)
    self.reserve = nil
    checkInvariantsIfEnabled()
    return true
  }

  /// Keeps at most `reported` members in every group (the first in report
  /// order): what a retractable table shows once no record is to leave it.
  func trimMembers(to reported: Int) {
    reserve = nil
    for group in groups.indices where groups[group].members.limit > reported {
      var trimmed = MemberHeap(limit: reported)
      for member in groups[group].members.sorted().prefix(reported) { trimmed.offer(member) }
      groups[group].members = trimmed
    }
  }

  private func retractTotals(
    of loser: GroupAccumulator, scales theirScales: [TopScale], currencyMap: [Int], from target: Int
  ) -> Bool {
    guard let reserve else { return false }
    groups[target].count -= loser.count
    guard groups[target].count >= 0 else { return false }
    for total in loser.totals {
      let currency = currencyMap[total.currency]
      guard let position = groups[target].totals.firstIndex(where: { $0.currency == currency }),
        let sum = groups[target].totals[position].sum.subtracting(total.sum)
      else { return false }
      let left = groups[target].totals[position].count - total.count
      guard left >= 0, total.currency < theirScales.count,
        reserve.scales[target][currency].remove(theirScales[total.currency], leaving: left)
      else { return false }
      if left == 0 {
        groups[target].totals.remove(at: position)
      } else {
        groups[target].totals[position].sum = sum
        groups[target].totals[position].count = left
      }
    }
    return true
  }

  /// The losers' most recent instants leave the group's; the latest is the
  /// most recent left (or none, when no record is).
  private func retractLatest(_ theirs: [Timestamp], from target: Int) -> Bool {
    guard let reserve else { return false }
    for instant in theirs {
      if let found = reserve.recent[target].lastIndex(where: { $0.compareTotal(instant) == 0 }) {
        reserve.recent[target].remove(at: found)
      }
    }
    if groups[target].count == 0 {
      groups[target].latest = nil
      return true
    }
    guard let latest = reserve.recent[target].last else { return false }
    groups[target].latest = latest
    return true
  }

  /// The losers' kept members leave the group's; the heap keeps the others,
  /// at most `reported`.
  private func retractMembers(of loser: GroupAccumulator, from target: Int, reported: Int) -> Bool {
    let heap = groups[target].members
    let droppedNone = groups[target].count + loser.count <= heap.limit
    var kept = heap.sorted()
    for member in loser.members.sorted() {
      // Equal in report order means equal in every field a report prints.
      if let found = kept.firstIndex(where: { $0.compareReportOrder(member) == 0 }) { kept.remove(at: found) }
    }
    guard droppedNone || kept.count >= min(reported, groups[target].count) else { return false }
    var left = MemberHeap(limit: reported)
    for member in kept.prefix(reported) { left.offer(member) }
    groups[target].members = left
    return true
  }

  /// Leaves out the groups no record is left in, renumbering the others.
  private func removeEmptyGroups() {
    guard groups.contains(where: { $0.count == 0 }) else { return }
    groups.removeAll { $0.count == 0 }
    index = GroupIndex()
    for (number, group) in groups.enumerated() {
      index.insert(Self.packKey(state: group.state, day: group.day, indicator: group.indicator), number)
    }
    lastKey = .max
    lastGroup = -1
  }
}

/// What a retractable table keeps beyond its groups (see `GroupTable+Retraction.swift`).
@usableFromInline
final class RetractionReserve {
  /// How many more of a group's most recent instants are kept than the one shown.
  static let extra = 8

  /// The members a group keeps when it shows `reported`: twice as many, at
  /// least `extra` more (all stays all, none stays none).
  static func memberLimit(reporting reported: Int) -> Int {
    if reported == 0 || reported == .max { return reported }
    let (doubled, overflow) = reported.multipliedReportingOverflow(by: 2)
    return overflow ? .max : max(doubled, reported + extra)
  }

  /// Per group: its `extra + 1` most recent instants (total order), oldest first.
  @exclusivity(unchecked) var recent: [[Timestamp]] = []
  /// Per group, by currency number: the largest scale of its sum and how many amounts have it.
  @exclusivity(unchecked) var scales: [[TopScale]] = []

  init() {}

  /// Notes a record folded into `group`.
  @usableFromInline
  func note(group: Int, currency: Int, instant: Timestamp, scale: UInt8) {
    while recent.count <= group {
      recent.append([])
      scales.append([])
    }
    Self.insert(instant, into: &recent[group])
    while scales[group].count <= currency { scales[group].append(TopScale()) }
    scales[group][currency].add(scale: scale)
  }

  /// Adds what `other` noted of its group `source` to `group`, whose
  /// currency numbers `currencyMap` translates.
  func absorb(_ other: RetractionReserve, group source: Int, into group: Int, currencyMap: [Int]) {
    while recent.count <= group {
      recent.append([])
      scales.append([])
    }
    guard source < other.recent.count else { return }
    for instant in other.recent[source] { Self.insert(instant, into: &recent[group]) }
    for (currency, top) in other.scales[source].enumerated() where top.count > 0 {
      let mapped = currencyMap[currency]
      while scales[group].count <= mapped { scales[group].append(TopScale()) }
      scales[group][mapped].add(top)
    }
  }

  /// Keeps `instant` among the most recent `extra + 1`, in order.
  private static func insert(_ instant: Timestamp, into recent: inout [Timestamp]) {
    if recent.count > extra {
      guard instant.compareTotal(recent[0]) > 0 else { return }
      recent.removeFirst()
    }
    var position = recent.count
    while position > 0 && recent[position - 1].compareTotal(instant) > 0 { position -= 1 }
    recent.insert(instant, at: position)
  }
}
