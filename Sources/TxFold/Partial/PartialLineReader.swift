/// Hands out the lines of a byte source one at a time, numbered from 1, for
/// reading partial states.
///
/// Lines may be of any length (the buffer grows to hold the longest); a final
/// line without a newline is still a line; a `\r` before the newline is
/// dropped. Memory is the longest line plus the read size.
final class PartialLineReader {
  let source: any ByteSource
  /// The 1-based number of the line last returned.
  private(set) var lineNumber = 0
  private var storage: [UInt8]
  /// Unread bytes are `storage[head..<tail]`; `storage[head..<head + scanned]` has no newline.
  private var head = 0
  private var tail = 0
  private var scanned = 0
  private var atEnd = false
  static let readSize = 1 << 16

  init(_ source: any ByteSource) {
    self.source = source
    storage = Array(repeating: 0, count: Self.readSize)
  }

  /// The next line without its line end, or `nil` at the end of the input.
  func next() throws(InputError) -> [UInt8]? {
    while true {
      let found = storage.withUnsafeBufferPointer { buffer -> Int? in
        // Safe because head + scanned <= tail <= buffer.count.
        guard tail > head + scanned, let base = buffer.baseAddress,
          let hit = SystemCalls.findByte(.newline, in: base + head + scanned, count: tail - head - scanned)
        else { return nil }
        return hit - UnsafeRawPointer(base)
      }
      if let newline = found {
        return take(upTo: newline, skipping: 1)
      }
      scanned = tail - head
      if atEnd {
        return head < tail ? take(upTo: tail, skipping: 0) : nil
      }
      try fill()
    }
  }

  /// The next line that is not blank, or `nil` at the end of the input: the
  /// partial formats' readers skip blank lines, and fail as a partial does.
  func nextNonBlank() throws(PartialStateError) -> [UInt8]? {
    do throws(InputError) {
      while let line = try next() {
        if !line.allSatisfy(\.isJSONWhitespace) { return line }
      }
      return nil
    } catch {
      throw .input(error)
    }
  }

  /// The input's first `count` bytes (fewer when it is shorter), read but not taken: what
  /// `TxFoldFileFormat` tells one of TxFold's files by, before any line is, so that a binary state
  /// file is named as such and never read as one long line.
  func firstBytes(_ count: Int) throws(PartialStateError) -> [UInt8] {
    precondition(lineNumber == 0 && head == 0, "firstBytes is read before the first line")
    do throws(InputError) {
      while tail < count && !atEnd { try fill() }
    } catch {
      throw .input(error)
    }
    return Array(storage[0..<min(tail, count)])
  }

  private func take(upTo end: Int, skipping: Int) -> [UInt8] {
    var lineEnd = end
    if lineEnd > head && storage[lineEnd - 1] == .carriageReturn { lineEnd -= 1 }
    let line = Array(storage[head..<lineEnd])
    head = end + skipping
    scanned = 0
    lineNumber += 1
    return line
  }

  /// Moves the unread bytes to the front, grows the buffer when a line fills
  /// it, and reads more.
  private func fill() throws(InputError) {
    if head > 0 {
      let unread = tail - head
      storage.withUnsafeMutableBytes { raw in
        // Safe because head..<tail lies inside the buffer; memmove allows overlap.
        if let base = raw.baseAddress, unread > 0 { SystemCalls.moveBytes(to: base, from: base + head, count: unread) }
      }
      head = 0
      tail = unread
    }
    if storage.count - tail < Self.readSize {
      storage.append(contentsOf: repeatElement(0, count: max(storage.count, Self.readSize)))
    }
    let start = tail
    let result = storage.withUnsafeMutableBytes { raw -> Result<Int, InputError> in
      do throws(InputError) {
        return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])))
      } catch {
        return .failure(error)
      }
    }
    let read = try result.get()
    if read == 0 { atEnd = true } else { tail += read }
  }
}
