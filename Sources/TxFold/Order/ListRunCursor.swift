/// One sorted run of `list` entries (`ListEntryLayout`) as the parallel
/// list's merge reads it: a worker's sorted `ListRunBuffer`, read in place,
/// or a run on disk, read through a `SpillReader`. Either way an entry is
/// handed out as a pointer to its bytes where the run holds them, valid until
/// the run is read on: nothing is copied.
final class ListRunCursor: MergeCursor {
  typealias Entry = UnsafeRawPointer
  typealias Failure = SpillError
  /// A sorted buffer's entries, in order (copied from its keys once, so reading
  /// them touches no object), and the buffer that holds them.
  private let entries: UnsafeMutableBufferPointer<UnsafeRawPointer>?
  private let buffer: ListRunBuffer?
  private let reader: SpillReader?
  // Unchecked: a run is read by one thread.
  @exclusivity(unchecked) private var index = 0

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
    reader = SpillReader(file: file, bufferSize: bufferSize)
  }

  deinit { entries?.deallocate() }

  @inline(__always)
  func next() throws(SpillError) -> UnsafeRawPointer? {
    if let entries {
      guard index < entries.count else { return nil }
      defer { index += 1 }
      return entries[index]
    }
    guard let reader else { return nil }
    guard try reader.request(4) else {
      if reader.available == 0 { return nil }
      throw .corrupt(path: reader.file.name, detail: "the file ends inside an entry")
    }
    let length = ListEntryLayout.length(reader.pointer)
    guard length >= ListEntryLayout.headerSize else {
      throw .corrupt(path: reader.file.name, detail: "an entry of \(length) bytes")
    }
    guard try reader.request(length) else {
      throw .corrupt(path: reader.file.name, detail: "the file ends inside an entry")
    }
    let entry = reader.pointer
    reader.consume(length)
    return entry
  }

  @inline(__always)
  static func precedes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    ListEntryLayout.precedes(lhs, rhs)
  }

  /// Merges `batch` into one new run of `store`, of at most `keepFirst` entries.
  static func merge(
    _ batch: [SpillFile], into store: SpillStore, keepFirst: Int?, readBufferSize: Int
  ) throws(SpillError) -> SpillFile {
    let merge = KWayMerge(cursors: batch.map { ListRunCursor(file: $0, bufferSize: readBufferSize) })
    let file = try store.makeFile()
    var kept = 0
    while let entry = try merge.next() {
      if let keepFirst, kept >= keepFirst { break }
      kept += 1
      try file.append(raw: UnsafeRawBufferPointer(start: entry, count: ListEntryLayout.length(entry)))
    }
    try file.finishWriting()
    return file
  }
}
