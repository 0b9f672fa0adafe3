/// Reads a run of `list` entries (`ListEntryLayout`) back from its spill
/// file, front to back, through one read buffer; an entry longer than the
/// buffer grows it. Each entry is handed out in place, valid until the next call.
final class ListSpillReader {
  let file: SpillFile
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  private var start = 0
  private var end = 0
  private var fileOffset: Int64 = 0

  init(file: SpillFile, bufferSize: Int) {
    self.file = file
    capacity = max(bufferSize, 4096)
    buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// The next entry, or `nil` at the end of the run.
  func next() throws(SpillError) -> UnsafeRawPointer? {
    if end - start < 4 {
      try fill(atLeast: 4)
      if start == end { return nil }
      guard end - start >= 4 else { throw .corrupt(path: file.name, detail: "the file ends inside an entry") }
    }
    let length = ListEntryLayout.length(buffer + start)
    guard length >= ListEntryLayout.headerSize else {
      throw .corrupt(path: file.name, detail: "an entry of \(length) bytes")
    }
    if end - start < length {
      try fill(atLeast: length)
      guard end - start >= length else { throw .corrupt(path: file.name, detail: "the file ends inside an entry") }
    }
    let entry = UnsafeRawPointer(buffer + start)
    start += length
    return entry
  }

  /// Moves what is left to the front and reads until at least `minimum` bytes
  /// are buffered or the file ends, growing the buffer when it is too small.
  private func fill(atLeast minimum: Int) throws(SpillError) {
    if minimum > capacity {
      let grown = max(minimum, capacity * 2)
      let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
      bigger.copyMemory(from: buffer + start, byteCount: end - start)
      buffer.deallocate()
      buffer = bigger
      capacity = grown
      end -= start
      start = 0
    } else if start > 0 {
      buffer.copyMemory(from: buffer + start, byteCount: end - start)
      end -= start
      start = 0
    }
    while end < minimum && fileOffset < file.size {
      let read = try file.read(
        into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end), at: fileOffset)
      if read == 0 { throw .corrupt(path: file.name, detail: "the file is shorter than written") }
      end += read
      fileOffset += Int64(read)
    }
  }
}
