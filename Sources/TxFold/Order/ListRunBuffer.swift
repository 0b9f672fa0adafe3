/// One `list` worker's entries (`ListEntryLayout`) waiting to be sorted: the
/// entries' bytes back to back in blocks the buffer owns, and a small key
/// per entry (its instant and where it lies) that the sort moves instead of
/// the entries.
///
/// When the entries pass the worker's share of the memory limit the worker
/// sorts them and writes them out as one run (`spill(rank:)`), and collecting
/// starts again in the same blocks; at the end what is left is sorted and
/// read in place by the merge (`ListRunCursor`). Blocks of `blockSize`
/// bytes, not one growing arena: nothing is copied as the buffer grows, and
/// a huge budget reserves nothing it does not fill. Used by one thread at a
/// time: its worker while reading, then the merging thread.
final class ListRunBuffer {
  struct Key {
    /// The account's first sixteen bytes and its length (`ListEntryLayout.AccountKey`;
    /// zero outside per-account runs): accounts of one bank often share their first eight.
    var account: ListEntryLayout.AccountKey
    var nanosecond: UInt32
    var seconds: Int64
    var entry: UnsafeRawPointer
  }

  /// The bytes (entries and keys) past which the buffer should be spilled.
  let budget: Int
  /// Whether its runs give each account's count (a per-account list's):
  /// a count entry before each account's entries (`ListEntryLayout.writeCount`).
  let countsAccounts: Bool
  /// Where it spills, and what each run reader of a merge pass there buffers.
  private let store: SpillStore
  private let readBufferSize: Int
  /// The size of a block (an entry larger than that gets a block of its own size).
  static let blockSize = 1 << 22
  // Unchecked: one thread at a time uses a buffer (its worker, then the merge).
  @exclusivity(unchecked) private var blocks: [(start: UnsafeMutableRawPointer, size: Int)] = []
  /// The block being filled and the bytes used in it.
  @exclusivity(unchecked) private var block = -1
  @exclusivity(unchecked) private var blockUsed = 0
  /// Bytes of the entries held.
  @exclusivity(unchecked) private(set) var used = 0
  @exclusivity(unchecked) private(set) var keys: [Key] = []

  init(budget: Int, spillingTo store: SpillStore, readBufferSize: Int, countsAccounts: Bool = false) {
    self.budget = max(1, budget)
    self.countsAccounts = countsAccounts
    self.store = store
    self.readBufferSize = readBufferSize
  }

  deinit {
    for block in blocks { block.start.deallocate() }
  }

  /// Entries held.
  var count: Int { keys.count }

  /// Estimated bytes held: the entries and their keys.
  var heldBytes: Int { used + keys.count * MemoryLayout<Key>.stride }

  /// Whether the buffer is past its budget.
  var isFull: Bool { heldBytes > budget }

  /// Copies one entry in (its first field is its length).
  func append(_ entry: UnsafeRawBufferPointer) {
    guard let source = entry.baseAddress, entry.count >= ListEntryLayout.headerSize else { return }
    let target = room(entry.count)
    target.copyMemory(from: source, byteCount: entry.count)
    keys.append(
      Key(
        account: ListEntryLayout.AccountKey(ListEntryLayout.account(source)),
        nanosecond: ListEntryLayout.nanosecond(source), seconds: ListEntryLayout.seconds(source),
        entry: UnsafeRawPointer(target)))
    used += entry.count
  }

  /// Where the next `count` bytes go: in the current block, else the next
  /// one that can take them (a block kept from before a spill, or a new one).
  private func room(_ count: Int) -> UnsafeMutableRawPointer {
    if block >= 0 && blocks[block].size - blockUsed >= count {
      defer { blockUsed += count }
      return blocks[block].start + blockUsed
    }
    block += 1
    blockUsed = count
    if block < blocks.count && blocks[block].size >= count { return blocks[block].start }
    let size = max(Self.blockSize, count)
    let start = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    if block < blocks.count {
      // Too small for this entry: replaced (its entries were spilled or cut already).
      blocks[block].start.deallocate()
      blocks[block] = (start, size)
    } else {
      blocks.append((start, size))
    }
    return start
  }

  /// Sorts the keys in `ListEntryLayout.precedes` order.
  func sort() {
    keys.sort { lhs, rhs in
      let byAccount = lhs.account.compare(rhs.account) {
        (ListEntryLayout.account(lhs.entry), ListEntryLayout.account(rhs.entry))
      }
      if byAccount != 0 { return byAccount < 0 }
      if lhs.seconds != rhs.seconds { return lhs.seconds > rhs.seconds }
      if lhs.nanosecond != rhs.nanosecond { return lhs.nanosecond > rhs.nanosecond }
      return ListEntryLayout.tieBreak(lhs.entry, rhs.entry)
    }
    #if TXFOLD_INVARIANTS
      checkInvariants(sorted: true)
    #endif
  }

  /// Where the sorted keys of the account whose first key is at `start` end:
  /// the index of the next account's first key, or the end of the keys.
  ///
  /// - Complexity: O(the account's keys); the entries' bytes are read only for
  ///   accounts longer than sixteen bytes that share their first sixteen.
  func accountEnd(from start: Int) -> Int {
    guard start < keys.count else { return keys.count }
    let first = keys[start]
    var end = start + 1
    while end < keys.count {
      let key = keys[end]
      let same =
        key.account.compare(first.account) {
          (ListEntryLayout.account(key.entry), ListEntryLayout.account(first.entry))
        } == 0
      guard same else { break }
      end += 1
    }
    return end
  }

  /// Sorts and keeps only the first `count` entries (moved to the front of the blocks).
  func keepFirst(_ count: Int) {
    sort()
    guard keys.count > count else { return }
    var kept: [UInt8] = []
    for key in keys.prefix(count) {
      kept.append(contentsOf: UnsafeRawBufferPointer(start: key.entry, count: ListEntryLayout.length(key.entry)))
    }
    removeAll()
    kept.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count, let base = raw.baseAddress {
        let length = ListEntryLayout.length(base + offset)
        append(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]))
        offset += length
      }
    }
  }

  /// Sorts the entries and writes them as one run of its store (with
  /// `countsAccounts`, each account's count entry before its entries), then empties
  /// the buffer (keeping its memory). `rank` ranks the run among the others
  /// only to hand the runs back in the same order on every run of the
  /// program; the merge does not depend on it.
  func spill(rank: Int) throws(SpillError) {
    sort()
    let file = try store.makeFile()
    var start = 0
    while start < keys.count {
      let end = countsAccounts ? accountEnd(from: start) : keys.count
      if countsAccounts {
        let account = ListEntryLayout.account(keys[start].entry)
        try file.append { ListEntryLayout.appendCount(account: account, count: end - start, to: &$0) }
      }
      for key in keys[start..<end] {
        try file.append(raw: UnsafeRawBufferPointer(start: key.entry, count: ListEntryLayout.length(key.entry)))
      }
      start = end
    }
    try file.finishWriting()
    removeAll()
    try store.add(file, rank: rank) { (batch) throws(SpillError) in
      try ListRunCursor.merge(batch, into: store, keepFirst: nil, readBufferSize: readBufferSize)
    }
  }

  /// Empties the buffer, keeping its blocks.
  func removeAll() {
    keys.removeAll(keepingCapacity: true)
    used = 0
    block = -1
    blockUsed = 0
  }
}

extension ListRunBuffer {
  /// Traps unless the buffer's pointer rules hold: every key points at an
  /// entry inside a block in use (the blocks up to the one being filled,
  /// within the bytes filled in that one), its instant is its entry's, the
  /// entries' lengths add up to `used`, and the filled block is not
  /// overrun; with `sorted`, also that no key comes before the one ahead of
  /// it. Tests call it directly; a `TXFOLD_INVARIANTS` build (debug,
  /// fuzzing) after every sort, so each spill and merge is checked.
  ///
  /// - Complexity: O(entries × blocks in use).
  func checkInvariants(sorted: Bool = false) {
    precondition(block < blocks.count, "block \(block) of \(blocks.count)")
    precondition(block >= 0 || (keys.isEmpty && used == 0 && blockUsed == 0), "entries held without a block")
    if block >= 0 { precondition(blockUsed <= blocks[block].size, "block \(block) filled past its size") }
    var lengths = 0
    for key in keys {
      let length = ListEntryLayout.length(key.entry)
      precondition(length >= ListEntryLayout.headerSize, "an entry of \(length) bytes")
      let inUse = blocks.prefix(block + 1).enumerated().contains { number, candidate in
        let start = UnsafeRawPointer(candidate.start)
        let end = start + (number == block ? blockUsed : candidate.size)
        return key.entry >= start && key.entry + length <= end
      }
      precondition(inUse, "a key points outside the blocks in use")
      precondition(
        key.seconds == ListEntryLayout.seconds(key.entry) && key.nanosecond == ListEntryLayout.nanosecond(key.entry),
        "a key's instant is not its entry's")
      precondition(
        key.account == ListEntryLayout.AccountKey(ListEntryLayout.account(key.entry)),
        "a key's account is not its entry's")
      lengths += length
    }
    precondition(lengths == used, "entries of \(lengths) bytes, \(used) counted")
    guard sorted else { return }
    for (earlier, later) in zip(keys, keys.dropFirst()) {
      precondition(!ListEntryLayout.precedes(later.entry, earlier.entry), "keys out of order")
    }
  }
}
