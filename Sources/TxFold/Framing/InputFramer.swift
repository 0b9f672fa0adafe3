/// Decides how one input is framed (Documentation/Guide.md, "Input") and runs the framer for it.
///
/// A UTF-8 byte-order mark is skipped, then the first non-blank byte decides:
/// - `[`: a JSON array of records, streamed element by element (`DocumentFramer`);
/// - `{`: JSON lines (`LineFramer`) — unless `--items PATH` is given, or the
///   first object does not end on its line and holds a recognised wrapper
///   (`items`, `transactions`, `transactions.booked` / `.pending`) before a
///   syntax error, or the input ends inside it after its first line (a
///   document cut off): then the document's arrays of records are streamed;
/// - anything else: JSON lines (whose lines will be rejected).
///
/// Leading blank lines are dropped as they are read, and counted, so line
/// numbers stay physical lines whatever the framing. The decision depends only
/// on the input's bytes (at most `maxRecordBytes` of them after the first
/// `{`), never on how reads or chunks fall.
///
/// A run that reads records it wrote itself (a nightly run's second pass)
/// says so with `lengthPrefixed`: then every input is length-prefixed
/// records (`LengthPrefixedFramer`), whatever its bytes.
struct InputFramer {
  let lines: LineFramer
  let document: DocumentFramer
  /// Whether every input is length-prefixed records rather than JSON.
  let lengthPrefixed: Bool

  init(limits: RecordLimits, itemsPath: [String]?, allowTrailingCommas: Bool, lengthPrefixed: Bool = false) {
    lines = LineFramer(limits: limits)
    document = DocumentFramer(limits: limits, itemsPath: itemsPath, allowTrailingCommas: allowTrailingCommas)
    self.lengthPrefixed = lengthPrefixed
  }

  /// What a chunk buffer must hold.
  var chunkCapacity: Int { lines.chunkCapacity }

  /// How an input was framed.
  enum Framing: Sendable, Equatable {
    /// JSON lines (also an empty or all-blank input).
    case lines
    /// A JSON array, a wrapper document, or documents read through `--items`.
    case document
    /// Length-prefixed records (`lengthPrefixed`).
    case lengthPrefixed
  }

  /// What framing found in one input.
  struct Outcome: Sendable, Equatable {
    var framing: Framing
    /// The kind of the input's wrapper, if any.
    var wrapper: RecordWrapper?
  }

  /// Reads `source` to its end, calling `emit` with each filled chunk and
  /// `nextChunk` for an empty one to fill next. `emit` takes ownership of the
  /// chunk and gets the kind of the first wrapper found so far.
  func frame<Failure: FramingFailure>(
    _ source: any ByteSource, fileIndex: Int, firstChunk: RecordChunk,
    nextChunk: () throws(Failure) -> RecordChunk,
    emit: (RecordChunk, _ wrapper: RecordWrapper?) throws(Failure) -> Void
  ) throws(Failure) -> Outcome {
    if lengthPrefixed {
      try LengthPrefixedFramer(limits: lines.limits).frame(
        source, name: source.name, fileIndex: fileIndex, firstChunk: firstChunk, nextChunk: nextChunk
      ) { (filled: RecordChunk) throws(Failure) in try emit(filled, nil) }
      return Outcome(framing: .lengthPrefixed, wrapper: nil)
    }
    let chunk = firstChunk
    chunk.reset(kind: .lines, fileIndex: fileIndex)
    var leadingLines = 0
    // The bytes dropped before the first record: where the chunk's bytes begin in the input.
    var dropped: Int64 = 0
    var atStart = true
    var ended = false
    // Find the first non-blank byte, dropping the BOM and blank bytes before it.
    while true {
      let base = Self.base(of: chunk)
      if atStart {
        if chunk.count < 3 && !ended && Self.isBOMPrefix(base, chunk.count) {
          ended = try reading(read(source, into: chunk), as: Failure.self)
          continue
        }
        if chunk.count >= 3 && base[0] == UInt8.bom.0 && base[1] == UInt8.bom.1 && base[2] == UInt8.bom.2 {
          Self.drop(chunk, prefix: 3)
          dropped += 3
        }
        atStart = false
      }
      var first = 0
      while first < chunk.count && base[first].isJSONWhitespace {
        if base[first] == .newline { leadingLines += 1 }
        first += 1
      }
      Self.drop(chunk, prefix: first)
      dropped += Int64(first)
      if chunk.count > 0 || ended { break }
      ended = try reading(read(source, into: chunk), as: Failure.self)
    }
    if chunk.count == 0 { return Outcome(framing: .lines, wrapper: nil) }

    let firstByte = Self.base(of: chunk)[0]
    var framing = Framing.lines
    if document.itemsPath != nil || firstByte == .openBracket {
      framing = .document
    } else if firstByte == .openBrace {
      do throws(InputError) {
        framing = try probe(source, chunk: chunk, ended: &ended)
      } catch {
        throw .reading(error)
      }
    }
    if framing == .document {
      let outcome = try document.frame(
        source, fileIndex: fileIndex, firstChunk: chunk, firstLine: leadingLines + 1, offset: dropped,
        nextChunk: nextChunk, emit: emit)
      return Outcome(framing: .document, wrapper: outcome.wrapper)
    }
    try lines.frame(
      source, fileIndex: fileIndex, firstChunk: chunk, linesBefore: leadingLines, offset: dropped, ended: ended,
      nextChunk: nextChunk
    ) { (filled: RecordChunk) throws(Failure) in try emit(filled, nil) }
    return Outcome(framing: .lines, wrapper: nil)
  }

  /// Walks the first object (at the start of `chunk`), reading more as
  /// needed, until it is clear whether it is a wrapper document spread over
  /// lines (`.document`) or anything else (`.lines`).
  func probe(_ source: any ByteSource, chunk: RecordChunk, ended: inout Bool) throws(InputError)
    -> Framing
  {
    var walker = document.makeWalker(firstLine: 1)
    walker.probing = true
    var ignored: [RecordSpan] = []
    var walked = 0
    // The decision looks at no more than this many bytes.
    let limit = lines.maxRecordBytes + 1
    var wrapperFound = false
    while true {
      let end = min(chunk.count, limit)
      while walked < end {
        walked = walker.walk(Self.base(of: chunk), from: walked, to: end, spans: &ignored)
        ignored.removeAll(keepingCapacity: true)
        if walker.foundRecords { wrapperFound = true }
        if !wrapperFound && walker.errors > 0 { return .lines }
        if wrapperFound && walker.line > 1 { return .document }
        if walker.depth == 0 { return .lines }
      }
      if walked >= limit { return .lines }
      if ended {
        // The input ends inside its first object, which went on past its first line without a
        // syntax error: one document over lines cut off (before its records, or with no wrapper
        // seen yet), whose walk reports it never closed — not JSON lines, whose lines would each
        // be rejected as text and the run fail as "not JSON lines". A first line whose object is
        // broken, or the input's only line, stays JSON lines (`LineFramer` judges a cut last line).
        return walker.errors == 0 && Self.goesOnPastFirstLine(Self.base(of: chunk), count: walked) ? .document : .lines
      }
      ended = try read(source, into: chunk)
    }
  }

  /// Reads once into the free space of `chunk`; returns true at the input's end.
  private func read(_ source: any ByteSource, into chunk: RecordChunk) throws(InputError) -> Bool {
    let room = min(lines.chunkSize, chunk.storage.count - chunk.count)
    guard room > 0 else { return false }
    let read = try source.read(
      into: UnsafeMutableRawBufferPointer(rebasing: chunk.storage[chunk.count..<(chunk.count + room)]))
    chunk.count += read
    return read == 0
  }

  /// `read`'s result, its failure as the consumer's error.
  private func reading<Failure: FramingFailure>(
    _ read: @autoclosure () throws(InputError) -> Bool, as: Failure.Type
  ) throws(Failure)
    -> Bool
  {
    do throws(InputError) {
      return try read()
    } catch {
      throw .reading(error)
    }
  }

  private static func base(of chunk: RecordChunk) -> UnsafeMutablePointer<UInt8> {
    // Safe because the storage is allocated (at least one byte) and bound to UInt8.
    chunk.base
  }

  /// Whether anything but blanks follows the first line of `base[0..<count]`.
  private static func goesOnPastFirstLine(_ base: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
    var index = 0
    while index < count && base[index] != .newline { index += 1 }
    while index < count {
      if !base[index].isJSONWhitespace { return true }
      index += 1
    }
    return false
  }

  private static func isBOMPrefix(_ base: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    let bom = [UInt8.bom.0, UInt8.bom.1, UInt8.bom.2]
    return (0..<count).allSatisfy { base[$0] == bom[$0] }
  }

  private static func drop(_ chunk: RecordChunk, prefix: Int) {
    guard prefix > 0 else { return }
    let base = base(of: chunk)
    base.update(from: base + prefix, count: chunk.count - prefix)
    chunk.count -= prefix
  }
}
