/// One record of a chunk, as a worker sees it.
struct ChunkRecord {
  /// The record's bytes (a line without its line end, or an element). For a
  /// record with a framing problem, what is left of it (possibly nothing).
  var bytes: UnsafeBufferPointer<UInt8>
  /// The 1-based line it starts on: within its input for `.elements`
  /// chunks, within the chunk (plus `linesBefore`) for lines, which the
  /// pipeline turns into input lines when it applies results in order.
  var line: Int
  /// Its 1-based position in its input, or 0 when not counted.
  var position: Int
  /// The state its array implies (PSD2's `booked` and `pending`).
  var impliedState: ImpliedState
  /// What framing found wrong with it; `.none` for a record to decode.
  var problem: FramingProblem
  /// The full length of a record `.tooLarge` or `.truncated`.
  var length: Int64
  /// The unexpected byte of an `.outsideRecords` problem.
  var byte: UInt8
  /// The wrapper's account (an index into the chunk's `wrapperAccounts`), or -1.
  var account: Int32 = -1

  /// Creates the view of one record's bytes and what framing found.
  @inlinable
  init(
    bytes: UnsafeBufferPointer<UInt8>, line: Int, position: Int, impliedState: ImpliedState,
    problem: FramingProblem, length: Int64, byte: UInt8, account: Int32 = -1
  ) {
    self.account = account
    self.bytes = bytes
    self.line = line
    self.position = position
    self.impliedState = impliedState
    self.problem = problem
    self.length = length
    self.byte = byte
  }
}

extension RecordChunk {
  /// Calls `body` with each record of the chunk in order: non-blank lines
  /// (a line longer than `maxRecordBytes` comes as `.tooLarge`), or the
  /// elements listed in `spans`. Returns the physical lines of its input the
  /// chunk covers, for numbering the next chunk's lines (0 for `.elements`,
  /// whose lines are absolute).
  ///
  /// - Complexity: O(n) in the chunk's bytes.
  @inlinable
  func forEachRecord(maxRecordBytes: Int, _ body: (ChunkRecord) -> Void) -> Int {
    switch kind {
    case .oversized:
      body(
        ChunkRecord(
          bytes: bytes, line: linesBefore + 1, position: firstPosition, impliedState: .none, problem: .tooLarge,
          length: oversizedLength, byte: 0))
      return linesBefore + 1
    case .elements:
      let all = bytes
      for span in spans {
        let start = min(span.start, all.count)
        let end = min(max(span.end, start), all.count)
        body(
          ChunkRecord(
            bytes: UnsafeBufferPointer(rebasing: all[start..<end]), line: span.line, position: span.position,
            impliedState: span.impliedState, problem: span.problem, length: span.length, byte: span.byte,
            account: span.account))
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
      while start < count {
        line += 1
        // Safe because start < count.
        let end: Int
        if let found = SystemCalls.findByte(.newline, in: base + start, count: count - start) {
          end = found - UnsafeRawPointer(base)
        } else {
          end = count
        }
        let length = end - start
        var recordEnd = end
        if recordEnd > start && base[recordEnd - 1] == .carriageReturn { recordEnd -= 1 }
        let lineStart = start
        start = end + 1
        // Blank lines are skipped and not counted as records.
        var first = lineStart
        while first < recordEnd && base[first].isJSONWhitespace { first += 1 }
        if first == recordEnd { continue }
        let record = UnsafeBufferPointer(start: base + lineStart, count: recordEnd - lineStart)
        let tooLarge = length > maxRecordBytes
        let cutShort = lastLineCutShort && end == count
        body(
          ChunkRecord(
            bytes: record, line: line, position: position, impliedState: .none,
            problem: tooLarge ? .tooLarge : cutShort ? .truncated : .none, length: Int64(length), byte: 0))
        if position > 0 { position += 1 }
      }
      return line
    }
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
