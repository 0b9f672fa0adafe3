/// One sorted run of the external sort as its merge reads it: a spill file
/// decoded record by record (`SpillRecordFormat`), or the run still in memory.
/// A per-account list's runs give each account's count entry before its
/// entries (`AccountCountingRun`): a run on disk holds them, a run in memory
/// makes one as it reaches an account, from the account's entries and the
/// count entries a cut left in their place (`ExternalSorter`), with the
/// first and last day of its transactions when it is given a zone.
final class SortRun: AccountCountingRun {
  typealias Entry = SortEntry
  typealias Failure = SpillError
  typealias Account = String
  private let reader: SpillReader?
  private var checkedHeader = false
  private var entries: [SortEntry]
  private var index = 0
  /// In memory, with counts: the index of the next account's first entry,
  /// where its count entry is made; `Int.max` without counts.
  private var nextAccountStart = Int.max
  /// In memory, with counts: the zone of the days its count entries carry (`nil`: none).
  private let dayZone: ZoneResolver?

  /// A run on disk, read through a buffer of `bufferSize` bytes.
  init(file: SpillFile, bufferSize: Int) {
    reader = SpillReader(file: file, bufferSize: bufferSize)
    entries = []
    dayZone = nil
  }

  /// The run still in memory, sorted; with `countingAccounts`, each
  /// account's count entry is handed out before its entries, with the first
  /// and last day of its transactions in `dayZone` when there is one.
  init(entries: [SortEntry], countingAccounts: Bool = false, dayZone: ZoneResolver? = nil) {
    reader = nil
    self.entries = entries
    if countingAccounts { nextAccountStart = 0 }
    self.dayZone = dayZone
  }

  func next() throws(SpillError) -> SortEntry? {
    guard let reader else {
      guard index < entries.count else {
        entries = []
        return nil
      }
      if index == nextAccountStart { return countOfNextAccount() }
      defer { index += 1 }
      return entries[index]
    }
    if !checkedHeader {
      try SpillRecordFormat.readHeader(from: reader)
      checkedHeader = true
    }
    return try SpillRecordFormat.next(from: reader)
  }

  /// The count entry of the account that starts at `index`: its entries and
  /// what the count entries among them (first in its order) stand for; reads
  /// past those, to its first entry of a transaction.
  private func countOfNextAccount() -> SortEntry {
    let account = entries[index].transaction.account ?? ""
    var end = index
    var counted = AccountTally(count: 0)
    while end < entries.count, Self.isOf(entries[end], account: account) {
      counted.add(Self.tally(of: entries[end], in: dayZone))
      end += 1
    }
    while index < end, entries[index].countedTally != nil { index += 1 }
    nextAccountStart = end
    return SortEntry.count(counted, account: account)
  }

  /// What `entry` adds to its account's count entry: a count entry's tally,
  /// or one transaction on its day in `dayZone` (no day without a zone).
  @inline(__always)
  static func tally(of entry: SortEntry, in dayZone: ZoneResolver?) -> AccountTally {
    if let counted = entry.countedTally { return counted }
    return AccountTally(count: 1, days: dayZone.map { DaySpan($0.day(of: entry.transaction.instant)) })
  }

  @inline(__always)
  static func precedes(_ lhs: SortEntry, _ rhs: SortEntry) -> Bool { SortEntry.precedes(lhs, rhs) }

  @inline(__always)
  static func tally(_ entry: SortEntry) -> AccountTally? { entry.countedTally }

  @inline(__always)
  static func hold(accountOf entry: SortEntry, in account: inout String) { account = entry.transaction.account ?? "" }

  @inline(__always)
  static func isOf(_ entry: SortEntry, account: String) -> Bool {
    SortEntry.sameAccount(entry.transaction.account ?? "", account)
  }
}
