/// Merges sorted runs of `list` entries (`ListEntryLayout`) into one
/// sequence in `ListEntryLayout.precedes` order: runs in memory (a worker's
/// sorted `ListRunBuffer`) and runs on disk, through a binary heap of the
/// runs' current entries.
///
/// `next()` hands out a pointer to the next entry's bytes, valid until the
/// following call: the entry stays where its run holds it (the buffer's
/// blocks, or a run reader's read buffer), nothing is copied.
///
/// - Complexity: O(log runs) comparisons per entry; memory one read buffer per run on disk.
final class ListEntryMerger {
  /// One sorted run being read.
  final class Run {
    /// A sorted buffer's entries, in order (copied from its keys once, so reading
    /// them touches no object), and the buffer that holds them.
    private let entries: UnsafeMutableBufferPointer<UnsafeRawPointer>?
    private let buffer: ListRunBuffer?
    private let reader: ListSpillReader?
    @exclusivity(unchecked) fileprivate var index = 0
    @exclusivity(unchecked) fileprivate var current: UnsafeRawPointer?

    /// A sorted buffer, read in place.
    init(memory buffer: ListRunBuffer) {
      let entries = UnsafeMutableBufferPointer<UnsafeRawPointer>.allocate(capacity: buffer.keys.count)
      for (index, key) in buffer.keys.enumerated() { entries[index] = key.entry }
      self.entries = entries
      self.buffer = buffer
      reader = nil
    }

    /// A run on disk.
    init(file: SpillFile, bufferSize: Int) {
      entries = nil
      buffer = nil
      reader = ListSpillReader(file: file, bufferSize: bufferSize)
    }

    deinit { entries?.deallocate() }

    /// Moves to the run's next entry (`current` `nil` at its end).
    @inline(__always)
    fileprivate func advance() throws(SpillError) {
      if let entries {
        guard index < entries.count else {
          current = nil
          return
        }
        current = entries[index]
        index += 1
      } else {
        current = try reader?.next()
      }
    }
  }

  private let runs: [Run]
  /// Indices of runs with a current entry, as a binary heap (first entry at the top).
  // Unchecked: a merger is used by one thread.
  @exclusivity(unchecked) private var heap: [Int] = []
  @exclusivity(unchecked) private var started = false
  /// The run whose entry was handed out last, advanced on the next call.
  @exclusivity(unchecked) private var last: Int?

  init(runs: [Run]) {
    self.runs = runs
  }

  /// Each run's current entry, by run index (a flat array: no object loads while comparing).
  @exclusivity(unchecked) private var currents: [UnsafeRawPointer?] = []

  @inline(__always)
  private func less(_ lhs: Int, _ rhs: Int) -> Bool {
    // Only runs with a current entry are in the heap.
    guard let left = currents[lhs], let right = currents[rhs] else { return false }
    return ListEntryLayout.precedes(left, right)
  }

  /// The next entry in order, or `nil` after the last.
  func next() throws(SpillError) -> UnsafeRawPointer? {
    if !started {
      started = true
      currents = Array(repeating: nil, count: runs.count)
      for index in runs.indices {
        try runs[index].advance()
        currents[index] = runs[index].current
        if runs[index].current != nil {
          heap.append(index)
          siftUp(heap.count - 1)
        }
      }
    } else if let last {
      try runs[last].advance()
      currents[last] = runs[last].current
      if currents[last] == nil {
        let end = heap.removeLast()
        if !heap.isEmpty {
          heap[0] = end
          siftDown(0)
        }
      } else {
        siftDown(0)
      }
      self.last = nil
    }
    guard let top = heap.first else { return nil }
    last = top
    return currents[top]
  }

  private func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard less(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func siftDown(_ start: Int) {
    var parent = start
    let count = heap.count
    while true {
      let left = 2 * parent + 1
      guard left < count else { return }
      var best = left
      if left + 1 < count && less(heap[left + 1], heap[left]) { best = left + 1 }
      guard less(heap[best], heap[parent]) else { return }
      heap.swapAt(best, parent)
      parent = best
    }
  }
}
