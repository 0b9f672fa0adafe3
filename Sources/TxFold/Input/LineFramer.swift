import Glibc

/// Cuts one input's bytes into chunks of whole JSON lines.
///
/// Reads up to `chunkSize` bytes at a time into a chunk, hands over everything
/// up to the last newline, and carries the unfinished line into the next
/// chunk. A line that grows past `maxRecordBytes` without a newline is handed
/// over as an `.oversized` chunk (its first 4 KiB, for the rejects file) and
/// the rest of it is read and dropped, so memory stays bounded by
/// `chunkSize + maxRecordBytes` per chunk whatever the input.
///
/// A UTF-8 byte-order mark at the start is skipped.
public struct LineFramer {
  /// Bytes read per `read` call.
  public let chunkSize: Int
  /// The longest line kept whole.
  public let maxRecordBytes: Int
  /// What a chunk buffer must hold.
  public var chunkCapacity: Int { chunkSize + maxRecordBytes + 1 }

  public init(chunkSize: Int, maxRecordBytes: Int) {
    self.chunkSize = max(1, chunkSize)
    self.maxRecordBytes = max(1, maxRecordBytes)
  }

  /// What the first bytes of an input say about its framing.
  public enum Framing: Sendable, Equatable {
    /// JSON lines (also an empty or all-blank input).
    case lines
    /// A JSON array (`[` first).
    case array
  }

  /// Reads `source` to its end, calling `emit` with each filled chunk and
  /// `nextChunk` for an empty one to fill next.
  ///
  /// `emit` takes ownership of the chunk it is given. Returns the framing seen
  /// (for `.array` nothing is emitted after the first non-blank byte).
  public func frame(
    _ source: any ByteSource, fileIndex: Int, firstChunk: RecordChunk,
    nextChunk: () throws(PipelineError) -> RecordChunk,
    emit: (RecordChunk) throws(PipelineError) -> Void
  ) throws(PipelineError) -> Framing {
    var chunk = firstChunk
    chunk.count = 0
    chunk.kind = .lines
    chunk.fileIndex = fileIndex
    var atStart = true
    var bomChecked = false
    // Bytes already scanned for a newline at the front of `chunk`.
    var scanned = 0
    while true {
      let room = min(chunkSize, chunk.storage.count - chunk.count)
      let read: Int
      do {
        read = try source.read(
          into: UnsafeMutableRawBufferPointer(rebasing: chunk.storage[chunk.count..<(chunk.count + room)]))
      } catch {
        throw .input(error)
      }
      if read == 0 {
        if chunk.count > 0 { try emit(chunk) }
        return .lines
      }
      chunk.count += read
      if !bomChecked {
        let bytes = chunk.bytes
        let bom = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2]
        if bytes.count < 3 && bytes.elementsEqual(bom.prefix(bytes.count)) { continue }  // Read more first.
        if bytes.count >= 3 && bytes[0] == bom[0] && bytes[1] == bom[1] && bytes[2] == bom[2] {
          drop(chunk, prefix: 3)
        }
        bomChecked = true
      }
      if atStart {
        // The first non-blank byte decides the framing.
        let bytes = chunk.bytes
        var first = 0
        while first < bytes.count && bytes[first].isJSONWhitespace { first += 1 }
        if first < bytes.count {
          if bytes[first] == .openBracket { return .array }
          atStart = false
        }
      }
      // Safe because `scanned` <= `count` <= the buffer's size.
      let base = chunk.storage.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
      let lastNewline = Self.lastIndex(of: .newline, in: base + scanned, count: chunk.count - scanned)
      if let lastNewline {
        let end = scanned + lastNewline + 1
        let next = try nextChunk()
        next.count = chunk.count - end
        next.kind = .lines
        next.fileIndex = fileIndex
        if next.count > 0 {
          // Safe because the tail fits: it is shorter than a line limit plus one read.
          next.storage.baseAddress.unsafelyUnwrapped.copyMemory(from: base + end, byteCount: next.count)
        }
        chunk.count = end
        try emit(chunk)
        chunk = next
        // The carried tail holds no newline; only bytes read next need scanning.
        scanned = chunk.count
      } else {
        scanned = chunk.count
        if chunk.count > maxRecordBytes {
          chunk = try emitOversized(chunk, source: source, nextChunk: nextChunk, emit: emit, fileIndex: fileIndex)
          scanned = 0
        }
      }
    }
  }

  /// Hands over an oversized line and skips the rest of it. Returns the chunk
  /// holding what follows the line (empty when the input ended inside it).
  func emitOversized(
    _ chunk: RecordChunk, source: any ByteSource, nextChunk: () throws(PipelineError) -> RecordChunk,
    emit: (RecordChunk) throws(PipelineError) -> Void, fileIndex: Int
  ) throws(PipelineError) -> RecordChunk {
    var length = Int64(chunk.count)
    let keep = min(chunk.count, RejectionDescriber.rawLimit)
    let follow = try nextChunk()
    follow.count = 0
    follow.kind = .lines
    follow.fileIndex = fileIndex
    // Read on into `follow` until the line ends.
    while true {
      let read: Int
      do {
        read = try source.read(
          into: UnsafeMutableRawBufferPointer(rebasing: follow.storage[0..<min(chunkSize, follow.storage.count)]))
      } catch {
        throw .input(error)
      }
      if read == 0 {
        chunk.count = keep
        chunk.kind = .oversized
        chunk.oversizedLength = length
        try emit(chunk)
        return follow
      }
      let base = follow.storage.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
      if let newline = Self.firstIndex(of: .newline, in: base, count: read) {
        length += Int64(newline)
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
    }
  }

  private func drop(_ chunk: RecordChunk, prefix: Int) {
    let base = chunk.storage.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    base.update(from: base + prefix, count: chunk.count - prefix)
    chunk.count -= prefix
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

  /// The offset of the first `byte` in the range, via `memchr`.
  @inlinable
  static func firstIndex(of byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
    guard count > 0, let found = memchr(start, Int32(byte), count) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(start)
  }
}
