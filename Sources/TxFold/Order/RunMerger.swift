/// Something that hands out sorted entries one at a time: a run on disk or
/// the last run still in memory.
protocol EntrySource: AnyObject {
  func next() throws(SpillError) -> SortEntry?
}

extension SpillRunReader: EntrySource {}

/// The run still in memory.
final class BufferSource: EntrySource {
  private var entries: [SortEntry]
  private var index = 0
  init(entries: [SortEntry]) { self.entries = entries }
  func next() throws(SpillError) -> SortEntry? {
    guard index < entries.count else {
      entries = []
      return nil
    }
    defer { index += 1 }
    return entries[index]
  }
}

/// The k-way merge of sorted sources: a binary heap holding the next entry
/// of each source, so each entry out costs O(log k) comparisons.
final class RunMerger {
  private var sources: [any EntrySource]
  /// (entry, source index), heap-ordered by `SortEntry.precedes`.
  private var heap: [(entry: SortEntry, source: Int)] = []
  private var primed = false

  init(sources: [any EntrySource]) {
    self.sources = sources
  }

  func next() throws(SpillError) -> SortEntry? {
    if !primed {
      primed = true
      for index in sources.indices {
        if let entry = try sources[index].next() { push((entry, index)) }
      }
    }
    guard let top = heap.first else {
      sources = []
      return nil
    }
    if let following = try sources[top.source].next() {
      heap[0] = (following, top.source)
      siftDown(0)
    } else {
      let last = heap.removeLast()
      if !heap.isEmpty {
        heap[0] = last
        siftDown(0)
      }
    }
    return top.entry
  }

  private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
    SortEntry.precedes(heap[lhs].entry, heap[rhs].entry)
  }

  private func push(_ item: (entry: SortEntry, source: Int)) {
    heap.append(item)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var best = left
      if left + 1 < heap.count && precedes(left + 1, left) { best = left + 1 }
      guard precedes(best, parent) else { return }
      heap.swapAt(best, parent)
      parent = best
    }
  }
}
