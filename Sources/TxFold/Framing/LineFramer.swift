/// Cuts one input's bytes into chunks of whole JSON lines.
///
/// Reads up to `chunkSize` bytes at a time into a chunk, hands over everything
/// up to the last newline, and carries the unfinished line into the next
/// chunk. A line that grows past `maxRecordBytes` without a newline is handed
/// over as an `.oversized` chunk (its first 4 KiB, for the rejects file) and
/// the rest of it is read and dropped, so memory stays bounded by
/// `chunkSize + maxRecordBytes` per chunk whatever the input.
///
/// `InputFramer` decides that an input is JSON lines and hands over the bytes
/// it has read so far (without the byte-order mark and leading blank lines).
struct LineFramer {
  /// Bytes read per `read` call, and the longest line kept whole.
  let limits: RecordLimits
  var chunkSize: Int { limits.chunkSize }
  var maxRecordBytes: Int { limits.maxRecordBytes }
  /// What a chunk buffer must hold.
  var chunkCapacity: Int { limits.chunkCapacity }

  init(limits: RecordLimits) {
    self.limits = limits
  }

  /// Reads `source` to its end, starting with the bytes already in
  /// `firstChunk`, calling `emit` with each filled chunk and `nextChunk` for
  /// an empty one to fill next.
  ///
  /// - Parameters:
  ///   - linesBefore: lines of the input before `firstChunk`'s bytes (dropped blank lines).
  ///   - offset: where `firstChunk`'s bytes begin in the input (after the bytes dropped).
  ///   - ended: the source has already reported its end.
  /// `emit` takes ownership of the chunk it is given.
  func frame<Failure: FramingFailure>(
    _ source: any ByteSource, fileIndex: Int, firstChunk: RecordChunk, linesBefore: Int = 0, offset: Int64 = 0,
    ended: Bool = false, nextChunk: () throws(Failure) -> RecordChunk,
    emit: (RecordChunk) throws(Failure) -> Void
  ) throws(Failure) {
    var chunk = firstChunk
    let carried = chunk.count
    chunk.reset(kind: .lines, fileIndex: fileIndex)
    chunk.count = carried
    chunk.linesBefore = linesBefore
    chunk.inputOffset = offset
    var ended = ended
    // Bytes already scanned for a newline at the front of `chunk`.
    var scanned = 0
    while true {
      // Safe because `scanned` <= `count` <= the buffer's size.
      let base = chunk.base
      if let lastNewline = Self.lastIndex(of: .newline, in: base + scanned, count: chunk.count - scanned) {
        let end = scanned + lastNewline + 1
        let next = try nextChunk()
        // The tail fits: it is shorter than a line limit plus one read.
        chunk.moveTail(from: end, to: next, kind: .lines, fileIndex: fileIndex)
        try emit(chunk)
        chunk = next
        // The carried tail holds no newline; only bytes read next need scanning.
        scanned = chunk.count
      } else {
        scanned = chunk.count
        // The chunk is one unfinished line; a line of the limit may already hold its CRLF's CR.
        // Safe because the index is read only when it is count - 1.
        if chunk.count > maxRecordBytes
          && !(chunk.count == maxRecordBytes + 1 && chunk.base[maxRecordBytes] == .carriageReturn)
        {
          chunk = try emitOversized(chunk, source: source, nextChunk: nextChunk, emit: emit, fileIndex: fileIndex)
          scanned = 0
          continue
        }
      }
      if ended {
        if chunk.count > 0 {
          // The last line has no newline: complete JSON is a record like any other,
          // anything else means the input was cut off inside it.
          chunk.endsInsideRecord = Self.endsInsideValue(UnsafeBufferPointer(start: chunk.base, count: chunk.count))
          try emit(chunk)
        }
        return
      }
      if try !Failure.catchingRead(try chunk.fill(from: source, upTo: chunkSize)) { ended = true }
    }
  }

  /// Hands over an oversized line and skips the rest of it. Returns the chunk
  /// holding what follows the line (empty when the input ended inside it).
  func emitOversized<Failure: FramingFailure>(
    _ chunk: RecordChunk, source: any ByteSource, nextChunk: () throws(Failure) -> RecordChunk,
    emit: (RecordChunk) throws(Failure) -> Void, fileIndex: Int
  ) throws(Failure) -> RecordChunk {
    var length = Int64(chunk.count)
    // The line's last byte so far: a CR right before the newline is the line end, not the record's.
    // Safe because an oversized chunk holds more than maxRecordBytes >= 1 bytes.
    var last = chunk.base[chunk.count - 1]
    let keep = min(chunk.count, RecordRejection.rawLimit)
    let follow = try nextChunk()
    follow.reset(kind: .lines, fileIndex: fileIndex)
    // What follows the line starts after all of its bytes, whatever is kept of them.
    follow.inputOffset = chunk.inputOffset + length
    // Read on into `follow` until the line ends.
    while true {
      let read = try Failure.catchingRead(try follow.read(from: source, at: 0, upTo: chunkSize))
      if read == 0 {
        if last == .carriageReturn { length -= 1 }
        chunk.count = keep
        chunk.kind = .oversized
        chunk.oversizedLength = length
        try emit(chunk)
        return follow
      }
      let base = follow.base
      if let newline = Self.firstIndex(of: .newline, in: base, count: read) {
        follow.inputOffset += Int64(newline + 1)
        length += Int64(newline)
        // Safe because newline - 1 is read only when newline > 0.
        if (newline > 0 ? base[newline - 1] : last) == .carriageReturn { length -= 1 }
        chunk.count = keep
        chunk.kind = .oversized
        chunk.oversizedLength = length
        try emit(chunk)
        let rest = read - newline - 1
        if rest > 0 { base.update(from: base + newline + 1, count: rest) }
        follow.count = rest
        return follow
      }
      length += Int64(read)
      follow.inputOffset += Int64(read)
      // Safe because read > 0 here.
      last = base[read - 1]
    }
  }

  /// Whether `bytes` (a last line without its newline) end inside a JSON
  /// value: inside a string, or with an object or array still open. Only the
  /// structure is followed — `{"a":1` and `{"a":"x` are cut short, while
  /// `{"a":}` is complete (and rejected by the decoder as invalid JSON), as
  /// is a line that closes more than it opens.
  ///
  /// A line that is not the start of a JSON value is no record cut short,
  /// whatever its quotes and brackets leave open: binary data, a file
  /// compressed twice, CSV or a log line is rejected like any other line. So
  /// the line must open with `{`, `[` or `"`, hold no control byte inside a
  /// string and, outside one, nothing but whitespace, punctuation and the
  /// characters of numbers and literals, and must not go on after its value
  /// has closed.
  ///
  /// - Complexity: O(n), once per input.
  static func endsInsideValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    // A line's byte-order mark is skipped before the record (`RecordChunk.forEachRecord`).
    if bytes.count >= 3 && bytes[0] == UInt8.bom.0 && bytes[1] == UInt8.bom.1 && bytes[2] == UInt8.bom.2 {
      index = 3
    }
    while index < bytes.count && bytes[index].isJSONWhitespace { index += 1 }
    guard index < bytes.count, [.openBrace, .openBracket, .quote].contains(bytes[index]) else { return false }
    var depth = 0
    var inString = false
    var escaped = false
    for byte in bytes[index...] {
      if inString {
        if byte < .space { return false }
        if escaped {
          escaped = false
        } else if byte == .backslash {
          escaped = true
        } else if byte == .quote {
          inString = false
          if depth == 0 { return false }
        }
        continue
      }
      switch byte {
      case .quote: inString = true
      case .openBrace, .openBracket: depth += 1
      case .closeBrace, .closeBracket:
        depth -= 1
        if depth == 0 { return false }
      default:
        if !byte.mayStandOutsideJSONString { return false }
      }
    }
    return inString || depth > 0
  }

  /// The offset of the last `byte` in the range, searching backwards (the
  /// last newline of a chunk is usually within its last few hundred bytes).
  @inlinable
  static func lastIndex(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
    var index = count - 1
    // Safe because 0 <= index < count.
    while index >= 0 {
      if start[index] == byte { return index }
      index -= 1
    }
    return nil
  }

  /// The offset of the first `byte` in the range, via `memchr` (`SystemCalls.findByte`).
  @inlinable
  static func firstIndex(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
    guard count > 0, let found = SystemCalls.findByte(byte, in: start, count: count) else { return nil }
    return found - UnsafeRawPointer(start)
  }
}
