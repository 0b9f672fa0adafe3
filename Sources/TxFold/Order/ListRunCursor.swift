/// One sorted run of `list` entries (`ListEntryLayout`) as the parallel
/// list's merge reads it: a worker's sorted `ListRunBuffer`, read in place,
/// or a run on disk, read through a `SpillReader`. Either way an entry is
/// handed out as a pointer to its bytes where the run holds them, valid until
/// the run is read on: nothing is copied. A per-account list's runs give each
/// account's count entry before its entries (`ListEntryLayout.writeCount`):
/// a run on disk holds them, a buffer's are made as its accounts are reached.
final class ListRunCursor: AccountCountingRun {
  typealias Entry = UnsafeRawPointer
  typealias Failure = SpillError
  typealias Account = [UInt8]
  /// A sorted buffer's entries, in order (copied from its keys once, so reading
  /// them touches no object), and the buffer that holds them.
  private let entries: UnsafeMutableBufferPointer<UnsafeRawPointer>?
  private let buffer: ListRunBuffer?
  private let reader: SpillReader?
  // Unchecked: a run is read by one thread.
  @exclusivity(unchecked) private var index = 0
  /// With a buffer that counts accounts: the index of the next account's
  /// first entry, whose count entry comes first, and where that is written.
  @exclusivity(unchecked) private var nextAccountStart = 0
  @exclusivity(unchecked) private var countEntry: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var countEntryCapacity = 0

  /// A sorted buffer, read in place.
  init(memory buffer: ListRunBuffer) {
    let entries = UnsafeMutableBufferPointer<UnsafeRawPointer>.allocate(capacity: buffer.keys.count)
    for (index, key) in buffer.keys.enumerated() { entries[index] = key.entry }
    self.entries = entries
    self.buffer = buffer
    reader = nil
    nextAccountStart = buffer.countsAccounts ? 0 : Int.max
  }

  /// A run on disk.
  init(file: SpillFile, bufferSize: Int) {
    entries = nil
    buffer = nil
    reader = SpillReader(file: file, bufferSize: bufferSize)
  }

  deinit {
    entries?.deallocate()
    countEntry?.deallocate()
  }

  @inline(__always)
  func next() throws(SpillError) -> UnsafeRawPointer? {
    if let entries {
      guard index < entries.count else { return nil }
      if index == nextAccountStart { return countOfNextAccount() }
      defer { index += 1 }
      return entries[index]
    }
    return try reader?.nextLengthPrefixed(minimumLength: ListEntryLayout.headerSize)
  }

  /// The count entry of the buffer's account that starts at `index`, written
  /// in the cursor's own storage (valid until the run is read on, as an entry).
  private func countOfNextAccount() -> UnsafeRawPointer? {
    guard let buffer, let entries else { return nil }
    let end = buffer.accountEnd(from: index)
    nextAccountStart = end
    let account = ListEntryLayout.account(entries[index])
    let length = ListEntryLayout.countEntryLength(accountCount: account.count)
    if length > countEntryCapacity {
      countEntry?.deallocate()
      countEntry = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
      countEntryCapacity = length
    }
    guard let countEntry else { return nil }
    ListEntryLayout.writeCount(countEntry, account: account, count: end - index)
    return UnsafeRawPointer(countEntry)
  }

  @inline(__always)
  static func precedes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    ListEntryLayout.precedes(lhs, rhs)
  }

  /// A count entry's count; no days: the parallel list writes csv, json and jsonl, which name no period.
  @inline(__always)
  static func tally(_ entry: UnsafeRawPointer) -> AccountTally? {
    ListEntryLayout.isCount(entry) ? AccountTally(count: ListEntryLayout.count(entry)) : nil
  }

  static func hold(accountOf entry: UnsafeRawPointer, in account: inout [UInt8]) {
    account.removeAll(keepingCapacity: true)
    account.append(contentsOf: ListEntryLayout.account(entry))
  }

  @inline(__always)
  static func isOf(_ entry: UnsafeRawPointer, account: [UInt8]) -> Bool {
    ListEntryLayout.account(entry).elementsEqual(account)
  }

  /// Merges `batch` into one new run of `store`, of at most `keepFirst`
  /// entries (only plain lists cut, and their runs hold no count entries);
  /// the runs' count entries of an account are added into one.
  static func merge(
    _ batch: [SpillFile], into store: SpillStore, keepFirst: Int?, readBufferSize: Int
  ) throws(SpillError) -> SpillFile {
    let merge = KWayMerge(cursors: batch.map { ListRunCursor(file: $0, bufferSize: readBufferSize) })
    let file = try store.makeFile()
    try copyAddingCounts(merge, empty: [], keepFirst: keepFirst) { (entry) throws(SpillError) in
      try file.append(raw: UnsafeRawBufferPointer(start: entry, count: ListEntryLayout.length(entry)))
    } writeCount: { (account, tally) throws(SpillError) in
      try file.append { out in
        account.withUnsafeBytes { ListEntryLayout.appendCount(account: $0, count: tally.count, to: &out) }
      }
    }
    try file.finishWriting()
    return file
  }
}
