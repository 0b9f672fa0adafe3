/// One order's section of a run of index entries on disk
/// (`HTMLIndexEntries`), read through a `SpillReader` as a k-way merge takes
/// it: each entry handed out as a pointer to its bytes in the reader's buffer,
/// valid until the run is read on, with its key for that order.
final class HTMLIndexRunCursor: MergeCursor {
  /// An entry in place, and where it comes (`HTMLIndexEntryLayout.key(_:order:)`, then its arrival).
  struct Placed {
    let key: UInt64
    let arrival: UInt64
    let entry: UnsafeRawPointer
  }
  typealias Entry = Placed
  typealias Failure = SpillError

  private let reader: SpillReader
  /// The index page whose order the section holds (`HTMLAccountPages.indexFiles`).
  private let order: Int

  /// The entries of `section` of `file`, in index page number `order`'s order.
  init(file: SpillFile, section: Range<Int64>, order: Int, bufferSize: Int) {
    reader = SpillReader(file: file, range: section, bufferSize: bufferSize)
    self.order = order
  }

  /// The run's file name, for messages.
  var fileName: String { reader.file.name }

  func next() throws(SpillError) -> Placed? {
    guard let entry = try reader.nextLengthPrefixed(minimumLength: HTMLIndexEntryLayout.headerSize) else {
      return nil
    }
    return Placed(
      key: HTMLIndexEntryLayout.key(entry, order: order), arrival: HTMLIndexEntryLayout.arrival(entry), entry: entry)
  }

  @inline(__always)
  static func precedes(_ lhs: Placed, _ rhs: Placed) -> Bool {
    lhs.key != rhs.key ? lhs.key < rhs.key : lhs.arrival < rhs.arrival
  }
}
