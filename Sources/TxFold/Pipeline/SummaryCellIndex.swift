/// A `summary` worker's cells of the current chunk by key and currency: an
/// open-addressing table (linear probing, at most half full) on the pair of
/// numbers, each entry stamped with the chunk its cell belongs to.
///
/// One hash and, nearly always, one comparison a record, where walking a
/// key's currencies compared each in turn (a mispredicted branch per
/// currency, and a category often holds several). Entries outlive
/// their chunk, so a new chunk costs no clearing: an entry whose stamp is
/// older has no cell yet. Memory grows with the distinct pairs, 16 bytes
/// each, twice over at most: a few hundred pairs take kilobytes, small
/// enough to stay in cache between the scanner's passes over a chunk.
///
/// Example: chunk 1 gives (key 0, currency 1) cell 0 and (0, 2) cell 1;
/// chunk 2 starts, and (0, 2) gets cell 0 of chunk 2 in its old entry.
struct SummaryCellIndex {
  private struct Entry {
    /// `key << 32 | currency`, or `empty`.
    var pair: UInt64
    /// The chunk `cell` belongs to.
    var stamp: UInt32
    var cell: Int32
  }

  private static let empty = UInt64.max
  private var entries: [Entry]
  private var pairs = 0
  /// 64 minus the table's bits: the hash's top bits pick the entry.
  private var shift: UInt64
  private var stamp: UInt32 = 1

  /// An empty index; `stamp` is the stamp of the chunk before the first (tests start near the wrap).
  init(stamp: UInt32 = 1) {
    entries = Array(repeating: Entry(pair: Self.empty, stamp: 0, cell: -1), count: 64)
    shift = 64 - 6
    self.stamp = stamp
  }

  /// Starts a chunk: no pair has a cell in it yet.
  mutating func startChunk() {
    if stamp == .max {
      // After 2^32 chunks: every entry is marked older than the next chunk again.
      for index in entries.indices { entries[index].stamp = 0 }
      stamp = 0
    }
    stamp += 1
  }

  /// The cell of `key` in `currency` in the current chunk; when it has none
  /// yet, it becomes `newCell` (the caller's next cell), which is returned.
  ///
  /// - Precondition: `key` and `currency` are not negative.
  /// - Complexity: amortised O(1).
  @inline(__always)
  mutating func cell(key: Int32, currency: Int32, newCell: Int32) -> Int32 {
    let pair = UInt64(UInt32(bitPattern: key)) << 32 | UInt64(UInt32(bitPattern: currency))
    let mask = entries.count - 1
    var at = Self.home(pair, shift)
    while true {
      let entry = entries[at]
      if entry.pair == pair {
        if entry.stamp == stamp { return entry.cell }
        entries[at].stamp = stamp
        entries[at].cell = newCell
        return newCell
      }
      if entry.pair == Self.empty { break }
      at = (at + 1) & mask
    }
    entries[at] = Entry(pair: pair, stamp: stamp, cell: newCell)
    pairs += 1
    if pairs * 2 > entries.count { grow() }
    return newCell
  }

  @inline(__always)
  private static func home(_ pair: UInt64, _ shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (pair &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// Doubles the table, keeping every entry.
  private mutating func grow() {
    let old = entries
    entries = Array(repeating: Entry(pair: Self.empty, stamp: 0, cell: -1), count: old.count * 2)
    shift -= 1
    let mask = entries.count - 1
    for entry in old where entry.pair != Self.empty {
      var at = Self.home(entry.pair, shift)
      while entries[at].pair != Self.empty { at = (at + 1) & mask }
      entries[at] = entry
    }
  }
}
