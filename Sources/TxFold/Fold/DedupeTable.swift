/// Keeps one transaction per id for `--dedupe`: the one with the latest
/// instant, and on a tie the one later in the input.
///
/// This is how a `PENDING` line later re-exported as `COMPLETED` counts once,
/// in its final state. Memory grows with the number of distinct ids: the
/// winners are folded into a `GroupTable` only after the whole input is read.
final class DedupeTable {
  /// The winner for one id.
  struct Entry: Sendable {
    /// The winner's upper-cased state, which places it in a section.
    var state: [UInt8]
    /// The winner's day, after `--timezone`.
    var day: CalendarDay
    /// Whether the winner is money in or out.
    var indicator: CreditDebitIndicator
    /// What the reports show of the winner.
    var member: KeptMember
    /// Position in the input: chunk sequence, then record within the chunk.
    var position: UInt64
    /// Whether the run's selection keeps it: a winner outside the selection
    /// still beats its id's earlier records, and is then left out.
    var selected = true
  }

  /// The winner per id so far.
  private(set) var entries: [[UInt8]: Entry] = [:]
  /// Records offered so far.
  private(set) var offered = 0

  /// Creates an empty table.
  init() {}

  /// Offers a record; it replaces the current winner for its id when later.
  func offer(id: [UInt8], entry: Entry) {
    offered += 1
    if let current = entries[id], !Self.replaces(entry, current) { return }
    entries[id] = entry
  }

  /// Merges another worker's table.
  func merge(_ other: DedupeTable) {
    offered += other.offered
    for (id, entry) in other.entries {
      if let current = entries[id], !Self.replaces(entry, current) { continue }
      entries[id] = entry
    }
  }

  static func replaces(_ candidate: Entry, _ current: Entry) -> Bool {
    let order = candidate.member.instant.compareInstant(current.member.instant)
    if order != 0 { return order > 0 }
    return candidate.position > current.position
  }

  /// Accepted records that were replaced by another with the same id.
  var duplicates: Int { offered - entries.count }

  /// The winners the selection keeps.
  var selectedCount: Int { entries.values.reduce(0) { $0 + ($1.selected ? 1 : 0) } }

  /// Folds the selected winners into `table`; `false` when a total overflows.
  func fold(into table: GroupTable) -> Bool {
    // Fold in id order so the work is the same on every run (the result is
    // order-independent anyway).
    for id in entries.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      guard let entry = entries[id], entry.selected else { continue }
      let state = table.states.intern(entry.state)
      let currency = entry.member.currency.withUnsafeBufferPointer { table.currencies.intern($0) }
      guard
        table.fold(state: state, day: entry.day, indicator: entry.indicator, currency: currency, member: entry.member)
      else { return false }
    }
    return true
  }
}
