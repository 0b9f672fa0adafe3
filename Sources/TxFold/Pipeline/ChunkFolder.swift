import Glibc

/// What folding one chunk produced besides the fold itself: the accounting,
/// and the rejections with their line numbers relative to the chunk.
public struct ChunkResult: Sendable {
  public var sequence: Int
  public var fileIndex: Int
  /// Physical lines in the chunk (blank ones included), to number the next chunk's lines.
  public var physicalLines = 0
  /// Non-blank lines: records.
  public var records = 0
  public var accepted = 0
  /// Rejections; `line` is 1-based within the chunk until the pipeline adds the chunk's base.
  public var rejections: [RecordRejection] = []
  /// Set when a currency total overflowed.
  public var overflow = false
}

/// A worker's state: its decoder and the table it folds into. Runs on one
/// thread at a time.
public final class ChunkFolder {
  public let decoder: RecordDecoder
  public let table: GroupTable
  /// The per-id winners when deduplicating (then `table` stays empty until the end).
  public let dedupe: DedupeTable?
  public let maxRecordBytes: Int
  /// Input names, for rejections.
  let fileNames: [String]
  /// The state number of the schema's default state, when it has one.
  let defaultState: Int

  public init(options: GroupOptions, fileNames: [String]) {
    decoder = RecordDecoder(
      schema: options.schema, zone: options.zone, allowTrailingCommas: options.allowTrailingCommas)
    table = GroupTable(memberLimit: options.memberLimit)
    dedupe = options.dedupe ? DedupeTable() : nil
    maxRecordBytes = options.maxRecordBytes
    self.fileNames = fileNames
    defaultState = table.states.intern(Array((options.schema.defaultState ?? KnownState.completed).utf8))
  }

  /// Decodes and folds every record of `chunk`.
  ///
  /// - Complexity: O(n) in the chunk's bytes; allocates only for kept members and rejections.
  public func fold(_ chunk: RecordChunk) -> ChunkResult {
    var result = ChunkResult(sequence: chunk.sequence, fileIndex: chunk.fileIndex)
    let fileName = fileNames[chunk.fileIndex]
    if chunk.kind == .oversized {
      result.physicalLines = 1
      result.records = 1
      result.rejections.append(
        RecordRejection(
          reason: .recordTooLarge, field: nil,
          detail: "Record of \(chunk.oversizedLength) bytes is larger than the limit of \(maxRecordBytes) bytes",
          file: fileName, line: 1, raw: Array(chunk.bytes)))
      return result
    }
    let bytes = chunk.bytes
    guard let base = bytes.baseAddress else { return result }
    let count = bytes.count
    var start = 0
    var line = 0
    var position = UInt64(chunk.sequence) << 32
    while start < count {
      line += 1
      // Safe because start < count.
      let end: Int
      if let found = memchr(base + start, Int32(UInt8.newline), count - start) {
        end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
      } else {
        end = count
      }
      let length = end - start
      var recordEnd = end
      if recordEnd > start && base[recordEnd - 1] == .carriageReturn { recordEnd -= 1 }
      let next = end + 1
      defer { start = next }
      // Blank lines are skipped and not counted as records.
      var first = start
      while first < recordEnd && base[first].isJSONWhitespace { first += 1 }
      if first == recordEnd { continue }
      result.records += 1
      position += 1
      let record = UnsafeBufferPointer(start: base + start, count: recordEnd - start)
      if length > maxRecordBytes {
        result.rejections.append(
          RecordRejection(
            reason: .recordTooLarge, field: nil,
            detail: "Record of \(length) bytes is larger than the limit of \(maxRecordBytes) bytes",
            file: fileName, line: line, raw: RejectionDescriber.rawPrefix(record)))
        continue
      }
      switch decoder.decode(record) {
      case .success(let decoded):
        result.accepted += 1
        if let dedupe {
          offer(decoded, record: record, position: position, to: dedupe)
        } else if !table.fold(decoded, record: record, defaultState: defaultState) {
          result.overflow = true
        }
      case .failure(let failure):
        result.rejections.append(
          RejectionDescriber.rejection(
            for: failure, record: record, schema: decoder.schema, file: fileName, line: line))
      }
    }
    result.physicalLines = line
    return result
  }

  /// Copies a decoded record into the dedupe table (it must outlive the chunk).
  func offer(_ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: UInt64, to dedupe: DedupeTable) {
    var id: [UInt8] = []
    GroupTable.appendDecoded(decoded.id, record, to: &id)
    var state: [UInt8] = []
    if decoded.state.kind == .absent {
      state = table.states.strings[defaultState]
    } else {
      GroupTable.appendDecoded(decoded.state, record, to: &state)
    }
    var currency: [UInt8] = []
    GroupTable.appendDecoded(decoded.currency, record, to: &currency)
    var description: [UInt8]?
    if decoded.description.kind != .absent {
      var text: [UInt8] = []
      GroupTable.appendDecoded(decoded.description, record, to: &text)
      description = text
    }
    let member = KeptMember(
      instant: decoded.instant, amount: decoded.amount.magnitude, id: id, currency: currency, description: description)
    dedupe.offer(
      id: id,
      entry: DedupeTable.Entry(
        state: state, day: decoded.day, indicator: decoded.indicator, member: member, position: position))
  }
}
