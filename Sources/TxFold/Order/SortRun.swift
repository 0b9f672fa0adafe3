/// One sorted run of the external sort as its merge reads it: a spill file
/// decoded record by record (`SpillRecordFormat`), or the run still in memory.
final class SortRun: MergeCursor {
  typealias Entry = SortEntry
  typealias Failure = SpillError
  private let reader: SpillReader?
  private var checkedHeader = false
  private var entries: [SortEntry]
  private var index = 0

  /// A run on disk, read through a buffer of `bufferSize` bytes.
  init(file: SpillFile, bufferSize: Int) {
    reader = SpillReader(file: file, bufferSize: bufferSize)
    entries = []
  }

  /// The run still in memory, sorted.
  init(entries: [SortEntry]) {
    reader = nil
    self.entries = entries
  }

  func next() throws(SpillError) -> SortEntry? {
    guard let reader else {
      guard index < entries.count else {
        entries = []
        return nil
      }
      defer { index += 1 }
      return entries[index]
    }
    if !checkedHeader {
      try SpillRecordFormat.readHeader(from: reader)
      checkedHeader = true
    }
    return try SpillRecordFormat.next(from: reader)
  }

  @inline(__always)
  static func precedes(_ lhs: SortEntry, _ rhs: SortEntry) -> Bool { SortEntry.precedes(lhs, rhs) }
}
