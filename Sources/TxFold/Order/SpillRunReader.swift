/// Reads one `SpillFile` back, record by record, through a fixed buffer.
final class SpillRunReader {
  let file: SpillFile
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var fileOffset: Int64 = 0
  private var checkedHeader = false

  init(file: SpillFile, bufferSize: Int) {
    self.file = file
    buffer = Array(repeating: 0, count: max(bufferSize, 64))
  }

  /// The next record, or `nil` after the last.
  func next() throws(SpillError) -> SortEntry? {
    if !checkedHeader {
      try fill(atLeast: SpillRecordFormat.header.count)
      guard end - start >= SpillRecordFormat.header.count,
        Array(buffer[start..<(start + SpillRecordFormat.header.count)]) == SpillRecordFormat.header
      else { throw .corrupt(path: file.name, detail: "not a version \(SpillRecordFormat.version) sort file") }
      start += SpillRecordFormat.header.count
      checkedHeader = true
    }
    while true {
      if start == end && fileOffset >= file.size { return nil }
      let decoded: (transaction: Transaction, position: Int, next: Int)?
      do throws(SpillRecordFormat.DecodeError) {
        decoded = try buffer.withUnsafeBufferPointer { (bytes) throws(SpillRecordFormat.DecodeError) in
          try SpillRecordFormat.read(UnsafeBufferPointer(rebasing: bytes[..<end]), at: start)
        }
      } catch {
        throw .corrupt(path: file.name, detail: "\(error)")
      }
      if let decoded {
        start = decoded.next
        return SortEntry(transaction: decoded.transaction, position: decoded.position)
      }
      // The record goes on past the buffer: read more (growing the buffer for a long record).
      guard fileOffset < file.size else {
        throw .corrupt(path: file.name, detail: "the file ends inside a record")
      }
      if start == 0 && end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
      try fill(atLeast: end - start + 1)
    }
  }

  /// Moves the unread bytes to the front and reads until at least `minimum`
  /// are buffered or the file ends.
  private func fill(atLeast minimum: Int) throws(SpillError) {
    if start > 0 {
      buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
      end -= start
      start = 0
    }
    while end < minimum && fileOffset < file.size {
      let count = buffer.count - end
      let result = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(SpillError) -> Int in
          try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end..<(end + count)]), at: fileOffset)
        }
      }
      let read = try result.get()
      if read == 0 { throw .corrupt(path: file.name, detail: "the file is shorter than written") }
      end += read
      fileOffset += Int64(read)
    }
  }
}
