/// One record of a chunk, as a worker sees it.
struct ChunkRecord {
  /// The record's bytes (a line without its line end, or an element). For a
  /// record with a framing problem, what is left of it (possibly nothing).
  var bytes: UnsafeBufferPointer<UInt8>
  /// Where it was in its input and what framing found wrong with it. For
  /// `.lines` chunks the line is within the chunk (plus `linesBefore`), which
  /// the pipeline turns into input lines when it applies results in order.
  var framing: RecordFraming
}

extension RecordChunk {
  /// Calls `body` with each record of the chunk in order: non-blank lines
  /// (a line longer than `maxRecordBytes` comes as `.tooLarge`), or the
  /// elements listed in `spans`. Returns the physical lines of its input the
  /// chunk covers, for numbering the next chunk's lines (0 for `.elements`,
  /// whose lines are absolute).
  ///
  /// - Complexity: O(n) in the chunk's bytes.
  @inlinable @inline(__always)
  func forEachRecord(maxRecordBytes: Int, _ body: (ChunkRecord) -> Void) -> Int {
    switch kind {
    case .oversized:
      body(
        ChunkRecord(
          bytes: bytes,
          framing: RecordFraming(
            line: linesBefore + 1, position: firstPosition, offset: inputOffset, problem: .tooLarge,
            length: oversizedLength)))
      return linesBefore + 1
    case .elements:
      let all = bytes
      for span in spans {
        let start = min(span.start, all.count)
        let end = min(max(span.end, start), all.count)
        body(
          ChunkRecord(bytes: UnsafeBufferPointer(rebasing: all[start..<end]), framing: span.framing))
      }
      return 0
    case .lines:
      let all = bytes
      guard let base = all.baseAddress else { return linesBefore }
      let count = all.count
      var start = 0
      var line = linesBefore
      var position = firstPosition
      let lastLineCutShort = endsInsideRecord
      let inputOffset = inputOffset
      while start < count {
        line += 1
        let lineStart = start
        let found = Self.line(in: base, count: count, from: start)
        start = found.end + 1
        guard let record = found.record else { continue }
        let tooLarge = found.length > maxRecordBytes
        let cutShort = lastLineCutShort && found.end == count
        body(
          ChunkRecord(
            bytes: record,
            framing: RecordFraming(
              line: line, position: position, offset: inputOffset + Int64(lineStart),
              problem: tooLarge ? .tooLarge : cutShort ? .truncated : .none, length: Int64(found.length))))
        if position > 0 { position += 1 }
      }
      return line
    }
  }

  /// The record of the line of a `.lines` chunk that starts at byte `start`
  /// (0, or just after a newline), framed as `forEachRecord` frames it, or
  /// `nil` for a blank line: so that a pass that reads a few known records
  /// (`--dedupe`'s losers) frames no other line. It carries no line number
  /// and no position (0): only a record accepted before is read this way.
  func lineRecord(startingAt start: Int, maxRecordBytes: Int) -> ChunkRecord? {
    let all = bytes
    guard kind == .lines, let base = all.baseAddress, start >= 0, start < all.count else { return nil }
    let found = Self.line(in: base, count: all.count, from: start)
    guard let record = found.record else { return nil }
    let tooLarge = found.length > maxRecordBytes
    let cutShort = endsInsideRecord && found.end == all.count
    return ChunkRecord(
      bytes: record,
      framing: RecordFraming(
        line: 0, position: 0, offset: inputOffset + Int64(start),
        problem: tooLarge ? .tooLarge : cutShort ? .truncated : .none, length: Int64(found.length)))
  }

  /// The line starting at `start` of the `count` bytes at `base`: its record
  /// (`nil` when blank), the record's length with its line end (LF or CRLF)
  /// left out, and where its newline is (`count` when it has none).
  @inlinable @inline(__always)
  static func line(in base: UnsafePointer<UInt8>, count: Int, from start: Int) -> (
    record: UnsafeBufferPointer<UInt8>?, length: Int, end: Int
  ) {
    // Safe because start < count.
    let end: Int
    if let found = SystemCalls.findByte(.newline, in: base + start, count: count - start) {
      end = found - UnsafeRawPointer(base)
    } else {
      end = count
    }
    var recordEnd = end
    if recordEnd > start && base[recordEnd - 1] == .carriageReturn { recordEnd -= 1 }
    var lineStart = start
    // The line end, LF or CRLF, is no part of the record's size: a record fits the same either way.
    let length = recordEnd - lineStart
    // A byte-order mark starting a line is skipped as at the input's start: files that begin
    // with one, concatenated (`cat`, gzip members, zstd frames), carry one into the middle.
    // Safe because the three bytes lie before recordEnd <= count.
    if recordEnd - lineStart >= 3 && base[lineStart] == UInt8.bom.0 && base[lineStart + 1] == UInt8.bom.1
      && base[lineStart + 2] == UInt8.bom.2
    {
      lineStart += 3
    }
    // Blank lines are skipped and not counted as records.
    var first = lineStart
    while first < recordEnd && base[first].isJSONWhitespace { first += 1 }
    if first == recordEnd { return (nil, length, end) }
    return (UnsafeBufferPointer(start: base + lineStart, count: recordEnd - lineStart), length, end)
  }

  /// The number of records (non-blank lines) in a `.lines` chunk; 1 for `.oversized`.
  func countLineRecords() -> Int {
    switch kind {
    case .oversized: return 1
    case .elements: return spans.count
    case .lines:
      var records = 0
      _ = forEachRecord(maxRecordBytes: Int.max) { _ in records += 1 }
      return records
    }
  }
}
