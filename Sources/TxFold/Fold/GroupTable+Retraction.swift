/// Taking records out of a folded table again: `--dedupe`'s first pass folds
/// every record, the losers to a later version of their transaction
/// included, and when some lost, a second pass folds only those into a table
/// of their own, which `retract(_:reportingMembers:)` takes out of the first.
///
/// Counts and exact sums subtract. What a fold keeps as a maximum cannot: a
/// group's `latest` and its kept members are the first few of the group in
/// an order, and the ones after them were dropped; a total prints with its
/// amounts' largest scale. So a retractable table keeps more of each than
/// the report shows (`RetractionReserve`): each group's `extra + 1` most
/// recent instants, twice the members shown (its member heaps are larger),
/// and for each total its two largest scales and how many amounts have each
/// (`ScaleTally`). The losers' table keeps as many: every loser among the
/// first `n` of all its group's records is among the first `n` of its
/// group's losers. After the losers leave, the first of what is left are
/// the winners' first as long as at least as many are left as the report
/// shows (or the group never dropped one); otherwise, or when a total's scale
/// is no longer known, `retract` says so and the run folds the winners anew.
/// A re-sent export's losers are a sixth or so of its records, spread over
/// every group; a re-sent day puts both copies of a record in one group, so
/// up to half of its most recent records lose — which twice the members
/// shown still covers.
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
        retractTotals(of: loser, number: number, losers: theirs, currencyMap: currencyMap, from: target),
        retractLatest(theirs.recent(number), from: target),
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
      let members = groups[group].members
      groups[group].members = members.keeping(members.reportOrder(), limit: reported)
    }
  }

  private func retractTotals(
    of loser: GroupAccumulator, number: Int, losers theirs: RetractionReserve, currencyMap: [Int], from target: Int
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
      guard left >= 0 else { return false }
      if left == 0 {
        groups[target].totals.remove(at: position)
        continue
      }
      var tally = reserve.scales(group: target, currency: currency)
      guard let scale = tally.remove(theirs.scales(group: number, currency: total.currency)) else { return false }
      reserve.setScales(tally, group: target, currency: currency)
      // What is left has no amount of a larger scale: its sum divides exactly.
      guard let reduced = sum.reduced(toScale: scale) else { return false }
      groups[target].totals[position].sum = reduced
      groups[target].totals[position].count = left
    }
    return true
  }

  /// The losers' most recent instants leave the group's; the latest is the
  /// most recent left (or none, when no record is).
  private func retractLatest(_ theirs: ArraySlice<Timestamp>, from target: Int) -> Bool {
    guard let reserve else { return false }
    for instant in theirs { reserve.remove(instant, group: target) }
    if groups[target].count == 0 {
      groups[target].latest = nil
      return true
    }
    guard let latest = reserve.recent(target).last else { return false }
    groups[target].latest = latest
    return true
  }

  /// The losers' kept members leave the group's; the heap keeps the others,
  /// at most `reported`.
  private func retractMembers(of loser: GroupAccumulator, from target: Int, reported: Int) -> Bool {
    let heap = groups[target].members
    let droppedNone = groups[target].count + loser.count <= heap.limit
    let kept = heap.reportOrder(leavingOutMembersOf: loser.members)
    guard droppedNone || kept.count >= min(reported, groups[target].count) else { return false }
    groups[target].members = heap.keeping(kept, limit: reported)
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
///
/// Per record it touches one small value per group (`GroupReserve`, in one
/// array: on a shuffled dump the group a record lands in changes every
/// record, and a separate allocation per group would cost a cache miss
/// each); a group's list of most recent instants only when a record is
/// among them.
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

  /// Per group: the scales of its first currencies' totals, the oldest of its recent instants and how many it has.
  @exclusivity(unchecked) var groups: [GroupReserve] = []
  /// Per group, `window` slots in one array: its most recent instants (total order), oldest first, the
  /// first `GroupReserve.recentCount` set. One array, not one per group: a record that lands among its
  /// group's most recent (most records, in a group of a few dozen) then touches no second allocation.
  @exclusivity(unchecked) private var recentSlots: [Timestamp] = []
  /// The slots a group has for its most recent instants.
  static let window = extra + 1
  /// Per group, by currency number from `GroupReserve.inline` on: the scales of its totals.
  @exclusivity(unchecked) var moreScales: [[ScaleTally]] = []

  init() {}

  /// Notes a record folded into `group`.
  @usableFromInline
  func note(group: Int, currency: Int, instant: Timestamp, scale: UInt8) {
    if group >= groups.count { grow(to: group) }
    if currency < GroupReserve.inline {
      groups[group][currency].add(scale)
    } else {
      var tally = scales(group: group, currency: currency)
      tally.add(scale)
      setScales(tally, group: group, currency: currency)
    }
    if groups[group].admits(instant) { insert(instant, group: group) }
  }

  /// `group`'s most recent instants (total order), oldest first: at most `extra + 1`.
  func recent(_ group: Int) -> ArraySlice<Timestamp> {
    guard group < groups.count else { return [] }
    let start = group * Self.window
    return recentSlots[start..<(start + Int(groups[group].recentCount))]
  }

  /// The scales of `group`'s total in `currency`.
  func scales(group: Int, currency: Int) -> ScaleTally {
    if currency < GroupReserve.inline { return groups[group][currency] }
    let more = currency - GroupReserve.inline
    return more < moreScales[group].count ? moreScales[group][more] : ScaleTally()
  }

  func setScales(_ tally: ScaleTally, group: Int, currency: Int) {
    if currency < GroupReserve.inline {
      groups[group][currency] = tally
      return
    }
    let more = currency - GroupReserve.inline
    while moreScales[group].count <= more { moreScales[group].append(ScaleTally()) }
    moreScales[group][more] = tally
  }

  /// Adds what `other` noted of its group `source` to `group`, whose
  /// currency numbers `currencyMap` translates.
  func absorb(_ other: RetractionReserve, group source: Int, into group: Int, currencyMap: [Int]) {
    if group >= groups.count { grow(to: group) }
    guard source < other.groups.count else { return }
    for currency in 0..<min(currencyMap.count, GroupReserve.inline + other.moreScales[source].count) {
      let tally = other.scales(group: source, currency: currency)
      guard tally.topCount > 0 else { continue }
      var merged = scales(group: group, currency: currencyMap[currency])
      merged.add(tally)
      setScales(merged, group: group, currency: currencyMap[currency])
    }
    for instant in other.recent(source) where groups[group].admits(instant) { insert(instant, group: group) }
  }

  private func grow(to group: Int) {
    let count = group + 1 - groups.count
    guard count > 0 else { return }
    groups.append(contentsOf: repeatElement(GroupReserve(), count: count))
    recentSlots.append(contentsOf: repeatElement(Timestamp.epoch, count: count * Self.window))
    moreScales.append(contentsOf: repeatElement([], count: count))
  }

  /// Keeps `instant` among the most recent `extra + 1` of `group`, in order.
  private func insert(_ instant: Timestamp, group: Int) {
    let start = group * Self.window
    var count = Int(groups[group].recentCount)
    recentSlots.withUnsafeMutableBufferPointer { slots in
      guard let base = slots.baseAddress else { return }
      // Safe because the group's slots are start..<(start + window) and count <= window.
      let recent = base + start
      if count == Self.window {
        guard instant.compareTotal(recent[0]) > 0 else { return }
        // The oldest leaves: the others move down one slot until the new one's place (after its equals).
        var position = 0
        while position + 1 < count && recent[position + 1].compareTotal(instant) <= 0 {
          recent[position] = recent[position + 1]
          position += 1
        }
        recent[position] = instant
      } else {
        var position = count
        while position > 0 && recent[position - 1].compareTotal(instant) > 0 {
          recent[position] = recent[position - 1]
          position -= 1
        }
        recent[position] = instant
        count += 1
      }
    }
    groups[group].recentCount = UInt8(truncatingIfNeeded: count)
    if count == Self.window { groups[group].floor = recentSlots[start] }
  }

  /// Takes `instant` (a loser's) out of `group`'s most recent instants, when it is among them.
  func remove(_ instant: Timestamp, group: Int) {
    guard group < groups.count else { return }
    let start = group * Self.window
    let count = Int(groups[group].recentCount)
    guard let found = recentSlots[start..<(start + count)].lastIndex(where: { $0.compareTotal(instant) == 0 }) else {
      return
    }
    for slot in found..<(start + count - 1) { recentSlots[slot] = recentSlots[slot + 1] }
    groups[group].recentCount = UInt8(truncatingIfNeeded: count - 1)
  }
}

/// What a retractable table keeps of one group on the per-record path.
struct GroupReserve {
  /// Currencies (by number) whose scales are kept here; the others in `RetractionReserve.moreScales`.
  static let inline = 3
  /// The scales of the totals in the first currencies.
  var first = ScaleTally()
  var second = ScaleTally()
  var third = ScaleTally()
  /// The oldest of the group's recent instants once they are `extra + 1`: an
  /// instant before it is not kept.
  var floor: Timestamp?
  /// How many of the group's recent instants are kept (`RetractionReserve.recent(_:)`).
  var recentCount: UInt8 = 0

  /// The scales of the total in currency number `currency` (below `inline`).
  subscript(currency: Int) -> ScaleTally {
    @inline(__always) get {
      switch currency {
      case 0: first
      case 1: second
      default: third
      }
    }
    @inline(__always) set {
      switch currency {
      case 0: first = newValue
      case 1: second = newValue
      default: third = newValue
      }
    }
  }

  /// Whether `instant` may be among the group's most recent (judged on its seconds first).
  @inline(__always)
  func admits(_ instant: Timestamp) -> Bool {
    guard let floor else { return true }
    return instant.epochSeconds >= floor.epochSeconds
  }
}
