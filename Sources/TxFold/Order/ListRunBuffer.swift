/// One `list` worker's entries (`ListEntryLayout`) waiting to be sorted: the
/// entries' bytes back to back in one arena the buffer owns, and a small key
/// per entry (instant and arena offset) that the sort moves instead of the entries.
///
/// When the entries pass the worker's share of the memory limit the worker
/// sorts them and writes them out as one run (`spill(to:)`), and collecting
/// starts again in the same memory; at the end what is left is sorted and
/// read in place by the merge (`ListEntryMerger`). Used by one thread at a
/// time: its worker while reading, then the merging thread.
final class ListRunBuffer {
  struct Key {
    var seconds: Int64
    var nanosecond: UInt32
    var offset: Int
  }

  /// The bytes (arena and keys) past which the buffer should be spilled.
  let budget: Int
  // Unchecked: one thread at a time uses a buffer (its worker, then the merge).
  @exclusivity(unchecked) private var arena: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var capacity = 0
  @exclusivity(unchecked) private(set) var used = 0
  @exclusivity(unchecked) private(set) var keys: [Key] = []

  init(budget: Int) {
    self.budget = max(1, budget)
  }

  deinit { arena?.deallocate() }

  /// Entries held.
  var count: Int { keys.count }

  /// Estimated bytes held: the entries and their keys.
  var heldBytes: Int { used + keys.count * MemoryLayout<Key>.stride }

  /// Whether the buffer is past its budget.
  var isFull: Bool { heldBytes > budget }

  /// Copies one entry in (its first field is its length).
  func append(_ entry: UnsafeRawBufferPointer) {
    guard let source = entry.baseAddress, entry.count >= ListEntryLayout.headerSize else { return }
    reserve(entry.count)
    guard let arena else { return }
    (arena + used).copyMemory(from: source, byteCount: entry.count)
    keys.append(
      Key(
        seconds: ListEntryLayout.seconds(source), nanosecond: ListEntryLayout.nanosecond(source), offset: used))
    used += entry.count
  }

  /// Grows the arena to hold `more` bytes after `used`. The first arena is
  /// the whole budget at once: its pages become resident only as entries
  /// fill them, and no doubling copy ever holds two arenas; past the budget
  /// (an entry larger than it, or a buffer cut to `keepFirst`) it doubles.
  private func reserve(_ more: Int) {
    let needed = used + more
    guard needed > capacity else { return }
    let grown = max(needed, arena == nil ? max(budget, 1 << 16) : capacity * 2)
    let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
    if let arena {
      bigger.copyMemory(from: arena, byteCount: used)
      arena.deallocate()
    }
    arena = bigger
    capacity = grown
  }

  /// The start of the arena the keys' offsets count from (`nil` before the first entry).
  var base: UnsafeRawPointer? { arena.map { UnsafeRawPointer($0) } }

  /// Sorts the keys in `ListEntryLayout.precedes` order.
  func sort() {
    guard let arena else { return }
    let base = UnsafeRawPointer(arena)
    keys.sort { lhs, rhs in
      if lhs.seconds != rhs.seconds { return lhs.seconds > rhs.seconds }
      if lhs.nanosecond != rhs.nanosecond { return lhs.nanosecond > rhs.nanosecond }
      return ListEntryLayout.tieBreak(base + lhs.offset, base + rhs.offset)
    }
  }

  /// Sorts and keeps only the first `count` entries (compacting the arena).
  func keepFirst(_ count: Int) {
    sort()
    guard keys.count > count, let arena else { return }
    keys.removeSubrange(count...)
    // Move the kept entries to the front of a fresh arena, in order.
    let total = keys.reduce(0) { $0 + ListEntryLayout.length(UnsafeRawPointer(arena) + $1.offset) }
    let compact = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1 << 16), alignment: 16)
    var written = 0
    for index in keys.indices {
      let source = UnsafeRawPointer(arena) + keys[index].offset
      let length = ListEntryLayout.length(source)
      (compact + written).copyMemory(from: source, byteCount: length)
      keys[index].offset = written
      written += length
    }
    arena.deallocate()
    self.arena = compact
    capacity = max(total, 1 << 16)
    used = written
  }

  /// Sorts the entries and writes them to `file` in order, then empties the buffer (keeping its memory).
  func spill(to file: SpillFile) throws(SpillError) {
    sort()
    if let arena {
      for key in keys {
        let entry = UnsafeRawPointer(arena) + key.offset
        try file.append(raw: UnsafeRawBufferPointer(start: entry, count: ListEntryLayout.length(entry)))
      }
    }
    try file.finishWriting()
    removeAll()
  }

  /// Empties the buffer, keeping its memory.
  func removeAll() {
    keys.removeAll(keepingCapacity: true)
    used = 0
  }
}
