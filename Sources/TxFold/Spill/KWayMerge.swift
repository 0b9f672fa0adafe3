/// A sorted run being read one entry at a time — a run on disk through its
/// job's codec, or one still in memory — as a k-way merge takes it.
protocol MergeCursor: AnyObject {
  /// What the run hands out: a value, or a pointer to bytes valid until the run is read on.
  associatedtype Entry
  associatedtype Failure: Error
  /// The next entry, or `nil` after the last.
  func next() throws(Failure) -> Entry?
  /// The job's order on entries: total across the runs merged together (a
  /// job breaks its ties, by input position or by run), so the merged
  /// sequence never depends on the heap's shape.
  static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool
}

/// The k-way merge of sorted runs: each cursor's current entry, and a binary
/// heap (`IndexHeap`) of the cursors by it, so each entry out costs
/// O(log k) comparisons. Every spilling job merges through it: the external
/// sort, the parallel list and the per-account fold.
///
/// An entry handed out by `next()` stays in its run until the following
/// call, which reads that run on: one held in place is valid until then.
///
/// Worked example, runs A = [1, 4], B = [2, 3]: the heap holds A (1) and
/// B (2); `next()` gives 1, then reads A on (4) and gives 2, reads B on (3)
/// and gives 3, then 4, then `nil`.
final class KWayMerge<Cursor: MergeCursor> {
  let cursors: [Cursor]
  /// Each cursor's current entry by cursor number (a flat array: comparing touches no cursor).
  // Unchecked: a merge is read by one thread, and these are touched for every comparison.
  @exclusivity(unchecked) private(set) var heads: [Cursor.Entry?]
  @exclusivity(unchecked) private var heap = IndexHeap()
  @exclusivity(unchecked) private var started = false
  /// Whether the first cursor's entry was handed out by `next()` and is to be read past.
  @exclusivity(unchecked) private var handedOut = false

  init(cursors: [Cursor]) {
    self.cursors = cursors
    heads = Array(repeating: nil, count: cursors.count)
  }

  @inline(__always)
  private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
    // Only cursors with a current entry are in the heap.
    guard let left = heads[lhs], let right = heads[rhs] else { return false }
    return Cursor.precedes(left, right)
  }

  /// Reads every cursor's first entry; later calls do nothing.
  func start() throws(Cursor.Failure) {
    guard !started else { return }
    started = true
    for index in cursors.indices {
      heads[index] = try cursors[index].next()
      if heads[index] != nil { heap.push(index) { precedes($0, $1) } }
    }
    checkHeapIfEnabled()
  }

  /// The cursor whose entry comes first, `nil` when every run has ended (after `start()`).
  @inline(__always)
  var first: Int? { heap.first }

  /// Reads the first cursor on and places it by its new entry.
  func advanceFirst() throws(Cursor.Failure) {
    guard let index = heap.first else { return }
    heads[index] = try cursors[index].next()
    if heads[index] == nil {
      heap.removeFirst { precedes($0, $1) }
    } else {
      heap.firstChanged { precedes($0, $1) }
    }
    checkHeapIfEnabled()
  }

  /// `IndexHeap.checkInvariants` over the current entries in a
  /// `TXFOLD_INVARIANTS` build (debug, fuzzing); nothing otherwise.
  @inline(__always)
  private func checkHeapIfEnabled() {
    #if TXFOLD_INVARIANTS
      heap.checkInvariants { precedes($0, $1) }
      for index in heap.items { precondition(heads[index] != nil, "run \(index) is in the heap without an entry") }
    #endif
  }

  /// The next entry in order (the run of the one before is read on first), or `nil` after the last.
  func next() throws(Cursor.Failure) -> Cursor.Entry? {
    if !started {
      try start()
    } else if handedOut {
      handedOut = false
      try advanceFirst()
    }
    guard let index = heap.first else { return nil }
    handedOut = true
    return heads[index]
  }
}
