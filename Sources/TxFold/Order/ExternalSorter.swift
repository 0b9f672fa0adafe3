/// Sorts transactions newest first (`TransactionOrder`) in bounded memory:
/// the external sort behind `txfold list` (Documentation/Guide.md, "`txfold list`").
/// Transactions that carry an account (per-account runs) are ordered by it
/// first, byte-wise (`SortEntry.precedes`), so the merge hands out one
/// account after another; `keepFirst` must then be `nil` (a page is per account)
/// and `keepFirstPerAccount` does the same job per account: whenever the
/// buffer passes its budget it is sorted and each account cut to its first
/// `keepFirstPerAccount` entries, before anything is spilled (an entry beyond
/// its account's first n in a run cannot be among that account's first n
/// overall). With `countsAccounts` (a list prints each account's count),
/// every run carries each account's count as a count entry before its
/// entries (`AccountCountingRun`): a cut leaves one in the buffer for what it
/// dropped, a run counts its entries and those, a merge adds them up.
///
/// Design: entries collect in a run buffer until their estimated size
/// (`SortEntry.estimatedBytes`) passes `memoryLimit`; the buffer is then
/// sorted and written to a temporary file as one sorted run
/// (`SpillRecordFormat`), and collecting starts again. `finish()` sorts what
/// is left in memory and k-way merges it with the runs on disk (`KWayMerge`
/// over `SortRun`s). With more runs than `maxFanIn`, the first `maxFanIn` are
/// merged into one longer run first, as often as needed, so open files and
/// read buffers stay bounded however large the input. An input that fits in
/// `memoryLimit` never touches the disk.
///
/// Every entry carries its input position, the order's last tie-break, so the
/// order is total: the merged output is identical, entry for entry, to an
/// in-memory sort of the same entries.
///
/// When only the first `keepFirst` entries will ever be read (a list with
/// `--limit` and no `--dedupe`), the buffer is sorted and cut to that many
/// whenever it holds `keepFirst + max(keepFirst, 4096)` entries (or its
/// budget is spent), before anything is spilled: no entry beyond a run's
/// first `keepFirst` can be among the first `keepFirst` overall. Small pages
/// of huge inputs then sort in memory proportional to the page.
///
/// Worked example, `memoryLimit` = two entries: adding e1…e5 spills run A
/// (e1, e2 sorted) and run B (e3, e4 sorted); `finish()` keeps e5 in memory
/// and merges A, B and [e5], reading one entry of each at a time.
///
/// Runs live in a `SpillStore`, whose directory is created on the first
/// spill; they have no name on disk (see `SpillDirectory`) and the directory
/// is removed by `close()`, `deinit`, or any error.
package final class ExternalSorter {
  /// The estimated bytes of the run buffer that trigger a spill.
  package let memoryLimit: Int
  /// The most runs merged at once.
  package let maxFanIn: Int
  /// When set, only this many entries from the front will be read.
  package let keepFirst: Int?
  /// When set, only this many entries from the front of each account will be read.
  package let keepFirstPerAccount: Int?
  /// Whether the runs carry each account's count (`AccountCountingRun`).
  package let countsAccounts: Bool
  /// With `countsAccounts`: the zone of the first and last day of an
  /// account's transactions its count entries carry (`nil`: no days).
  package let accountDayZone: ZoneResolver?
  /// Where the spill directory is created.
  package let temporaryParent: String
  /// Called with the spill directory's path when it is created (with SIGINT
  /// and SIGTERM blocked), so a signal handler can remove it.
  package var onTemporaryDirectory: ((String) -> Void)?

  /// The buffer size at which it is cut to `keepFirst`.
  private let cutCount: Int?
  private var buffer: [SortEntry] = []
  private var bufferBytes = 0
  /// Made on the first spill, when `onTemporaryDirectory` is final.
  private var store: SpillStore?
  /// Entries added so far.
  package private(set) var count = 0
  /// Sorted runs written to disk so far, intermediate merges included.
  package var spilledRuns: Int { store?.filesMade ?? 0 }

  /// A sorter that spills past `memoryLimit` estimated bytes.
  ///
  /// - Parameters:
  ///   - memoryLimit: the run buffer's budget in bytes (at least one entry is always held).
  ///   - temporaryParent: where to create the spill directory (default `$TMPDIR`, else `/tmp`).
  ///   - keepFirst: promise that only this many entries will be read from the front.
  ///   - maxFanIn: the most runs merged at once (at least 2).
  ///   - keepFirstPerAccount: promise that only this many entries will be read
  ///     from the front of each account (with `keepFirst` `nil`).
  ///   - countsAccounts: lead each account with its count entry, counting the
  ///     entries `keepFirstPerAccount` cuts too (entries with an account only).
  ///   - accountDayZone: with `countsAccounts`, the count entries also carry
  ///     the first and last day of the account's transactions in this zone,
  ///     those cut included.
  package init(
    memoryLimit: Int, temporaryParent: String? = nil, keepFirst: Int? = nil, maxFanIn: Int = 64,
    keepFirstPerAccount: Int? = nil, countsAccounts: Bool = false, accountDayZone: ZoneResolver? = nil
  ) {
    self.countsAccounts = countsAccounts
    self.accountDayZone = countsAccounts ? accountDayZone : nil
    self.memoryLimit = max(1, memoryLimit)
    self.temporaryParent = temporaryParent ?? SpillDirectory.defaultParent
    self.keepFirst = keepFirst
    self.keepFirstPerAccount = keepFirst == nil ? keepFirstPerAccount : nil
    self.maxFanIn = max(2, maxFanIn)
    cutCount = keepFirst.map { $0 + max($0, 4096) }
  }

  /// Adds one entry; may write a sorted run.
  ///
  /// - Complexity: amortised O(log n) comparisons; O(entries) bytes written per spill.
  package func add(_ transaction: Transaction, position: Int) throws(SpillError) {
    if keepFirst == 0 {
      count += 1
      return
    }
    buffer.append(SortEntry(transaction: transaction, position: position))
    bufferBytes += SortEntry.estimatedBytes(transaction)
    count += 1
    if bufferBytes > memoryLimit || buffer.count == cutCount { try relieve() }
  }

  /// Sorts the full buffer, and cuts it to `keepFirst` or writes it out as a run.
  private func relieve() throws(SpillError) {
    sortBuffer()
    if let keepFirst, buffer.count > keepFirst {
      buffer.removeSubrange(keepFirst...)
      bufferBytes = buffer.reduce(0) { $0 + SortEntry.estimatedBytes($1.transaction) }
      // Keep collecting in memory while the cut buffer leaves room.
      if bufferBytes <= memoryLimit / 2 { return }
    } else if let keepFirstPerAccount, cutPerAccount(keepFirstPerAccount) {
      bufferBytes = buffer.reduce(0) { $0 + SortEntry.estimatedBytes($1.transaction) }
      if bufferBytes <= memoryLimit / 2 { return }
    }
    try spill(buffer)
    buffer.removeAll(keepingCapacity: true)
    bufferBytes = 0
  }

  /// Sorts the buffer in the total order.
  ///
  /// Entries are large (six strings), so moving them around n log n times
  /// costs more than comparing them: this sorts small keys — the instant, and
  /// the index for the rest of the order — then applies the permutation in
  /// place, cycle by cycle, so each entry moves about once and no second
  /// buffer is needed.
  private func sortBuffer() {
    struct Key {
      var account: Int32
      var seconds: Int64
      var nanosecond: UInt32
      var index: Int32
    }
    guard buffer.count > 1 else { return }
    let accountRanks = rankAccounts()
    var keys = buffer.indices.map { index in
      let transaction = buffer[index].transaction
      let instant = transaction.instant
      return Key(
        account: transaction.account.flatMap { accountRanks[UTF8Key($0)] } ?? -1, seconds: instant.epochSeconds,
        nanosecond: instant.nanosecond, index: Int32(truncatingIfNeeded: index))
    }
    keys.sort { lhs, rhs in
      if lhs.account != rhs.account { return lhs.account < rhs.account }
      if lhs.seconds != rhs.seconds { return lhs.seconds > rhs.seconds }
      if lhs.nanosecond != rhs.nanosecond { return lhs.nanosecond > rhs.nanosecond }
      return SortEntry.precedes(buffer[Int(lhs.index)], buffer[Int(rhs.index)])
    }
    // Position i must receive the entry now at keys[i].index.
    var placed = [Bool](repeating: false, count: keys.count)
    for start in keys.indices where !placed[start] {
      var current = start
      while true {
        placed[current] = true
        let source = Int(keys[current].index)
        if source == start { break }
        buffer.swapAt(current, source)
        current = source
      }
    }
  }

  /// Keeps the first `count` entries of each account in the sorted buffer;
  /// returns whether any was dropped. With `countsAccounts`, an account that
  /// lost entries keeps one count entry first for them (and for those its
  /// count entries stood for), so its runs still count every entry.
  private func cutPerAccount(_ count: Int) -> Bool {
    var write = 0
    var start = 0
    while start < buffer.count {
      // The account's entries: its count entries first (the latest instant), then its transactions.
      let account = buffer[start].transaction.account ?? ""
      let accountWrite = write
      var kept = 0
      var counted = AccountTally(count: 0)
      var read = start
      while read < buffer.count, SortRun.isOf(buffer[read], account: account) {
        if buffer[read].countedTally == nil && kept < count {
          // Everything between `write` and `read` was dropped: swap a dropped entry out.
          if write != read { buffer.swapAt(write, read) }
          write += 1
          kept += 1
        } else if countsAccounts {
          counted.add(SortRun.tally(of: buffer[read], in: accountDayZone))
        }
        read += 1
      }
      start = read
      guard countsAccounts, counted.count > 0 else { continue }
      // A count entry or a dropped entry of the account left `write` free: the
      // count entry goes there, then moves before the account's kept entries.
      buffer[write] = SortEntry.count(counted, account: account)
      for index in stride(from: write, to: accountWrite, by: -1) { buffer.swapAt(index, index - 1) }
      write += 1
    }
    guard write < buffer.count else { return false }
    buffer.removeSubrange(write...)
    return true
  }

  /// Each distinct account in the buffer numbered in byte-wise order (empty
  /// outside per-account runs), so the sort compares small numbers, not strings.
  private func rankAccounts() -> [UTF8Key: Int32] {
    var accounts = Set<UTF8Key>()
    for entry in buffer {
      if let account = entry.transaction.account { accounts.insert(UTF8Key(account)) }
    }
    guard !accounts.isEmpty else { return [:] }
    let sorted = accounts.sorted { TransactionOrder.compareUTF8($0.string, $1.string) < 0 }
    return Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, Int32(truncatingIfNeeded: $0)) })
  }

  /// Writes sorted entries as one run; the store merges the smallest half of
  /// its runs into one past its limit (`SpillStore.add`), so the open
  /// descriptors stay bounded however many runs the input makes.
  private func spill(_ entries: [SortEntry]) throws(SpillError) {
    let store =
      self.store
      ?? SpillStore(
        temporaryParent: temporaryParent, openRunLimit: max(4, min(SpillDirectory.openRunLimit, 2 * maxFanIn))
      ) { [onTemporaryDirectory] in onTemporaryDirectory?($0) }
    self.store = store
    let sorted = SortRun(entries: entries, countingAccounts: countsAccounts, dayZone: accountDayZone)
    let file = try write(to: store) { (append) throws(SpillError) in
      while let entry = try sorted.next() { try append(entry) }
    }
    try store.add(file) { (batch) throws(SpillError) in try mergeRuns(batch, in: store) }
  }

  /// Merges `batch` into one new run of `store`, the runs' count entries of
  /// an account added into one.
  private func mergeRuns(_ batch: [SpillFile], in store: SpillStore) throws(SpillError) -> SpillFile {
    let merge = KWayMerge(cursors: batch.map { SortRun(file: $0, bufferSize: readBufferSize) })
    return try write(to: store) { (append) throws(SpillError) in
      try SortRun.copyAddingCounts(merge, empty: "", keepFirst: nil, write: append) {
        (account, tally) throws(SpillError) in try append(SortEntry.count(tally, account: account))
      }
    }
  }

  /// Writes the entries `body` hands to its argument, in order, as one new run of `store`.
  private func write(
    to store: SpillStore, _ body: ((SortEntry) throws(SpillError) -> Void) throws(SpillError) -> Void
  ) throws(SpillError) -> SpillFile {
    let file = try store.makeFile()
    var header = SpillRecordFormat.header
    try file.append(bytes: &header)
    try body { (entry) throws(SpillError) in
      try file.append { SpillRecordFormat.append(entry.transaction, position: entry.position, to: &$0) }
    }
    try file.finishWriting()
    return file
  }

  /// The bytes each run reader buffers: the memory budget shared by the runs
  /// merged at once, within 4 KiB … 1 MiB.
  var readBufferSize: Int { min(1 << 20, max(4096, memoryLimit / (maxFanIn + 1))) }

  /// Ends adding and returns the entries in order. The sorter must not be
  /// used afterwards (except `close()`).
  ///
  /// - Complexity: O(n log n) comparisons over all passes; each entry is
  ///   written and read once per merge pass (one pass unless there are more
  ///   than `maxFanIn` runs).
  package func finish() throws(SpillError) -> SortedEntries {
    sortBuffer()
    if let keepFirst, buffer.count > keepFirst { buffer.removeSubrange(keepFirst...) }
    if let keepFirstPerAccount { _ = cutPerAccount(keepFirstPerAccount) }
    var runs: [SortRun] = []
    if let store {
      // At most maxFanIn - 1 runs on disk, leaving a place for the buffer.
      let files = try store.takeRuns(mergingDownTo: maxFanIn - 1, fanIn: maxFanIn) { (batch) throws(SpillError) in
        try mergeRuns(batch, in: store)
      }
      runs = files.map { SortRun(file: $0, bufferSize: readBufferSize) }
    }
    runs.append(SortRun(entries: buffer, countingAccounts: countsAccounts, dayZone: accountDayZone))
    buffer = []
    bufferBytes = 0
    return SortedEntries(merge: KWayMerge(cursors: runs), store: store, limit: keepFirst)
  }

  /// Removes the temporary files and directory.
  package func close() {
    buffer.removeAll()
    store?.remove()
  }

  deinit { close() }
}
