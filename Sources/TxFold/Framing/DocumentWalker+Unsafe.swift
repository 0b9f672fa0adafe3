import CJSONIndex

/// The byte loops of `DocumentWalker`: the general one, which follows every
/// state and repairs errors, and the fast path through well-formed record
/// content. Every read is at an index checked against the buffer's end.
extension DocumentWalker {
  /// Walks `bytes[from..<to]`, appending the records that end there to
  /// `spans` (offsets are into `bytes`). Returns where it stopped: `to`,
  /// or earlier when `probing` asked it to stop after an event.
  mutating func walk(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, spans: inout [RecordSpan]) -> Int {
    var index = from
    while index < to {
      switch mode {
      case .string:
        let segment = index
        // Eight bytes at a time while none is a quote, a backslash or a control character.
        while index + 8 <= to {
          // Safe because index + 8 <= to, inside the caller's buffer.
          let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
          if Self.mayEndString(word) { break }
          index += 8
        }
        // Safe because index < to is checked before each read.
        while index < to {
          let byte = bytes[index]
          if byte == .quote || byte == .backslash || byte < 0x20 { break }
          index += 1
        }
        if captureKey { appendKey(bytes + segment, index - segment) }
        guard index < to else { break }
        // Safe because index < to.
        let byte = bytes[index]
        if byte == .quote {
          index += 1
          endString(at: index, spans: &spans)
        } else if byte == .backslash {
          if captureKey {
            appendKey(bytes + index, 1)
            keyEscaped = true
          }
          mode = .escape
          index += 1
        } else {
          // A raw control character (a line end) cannot be inside a string:
          // the string was broken; it ends here and the byte is walked again.
          if brokenStringHeldCloser(bytes, at: index) { recordHoldsArrayCloser = true }
          noteError(at: index, byte: byte, spans: &spans)
          endString(at: index, spans: &spans)
        }
      case .escape:
        // Safe because the loop runs while index < to.
        let byte = bytes[index]
        if byte < 0x20 {
          noteError(at: index, byte: byte, spans: &spans)
          endString(at: index, spans: &spans)
        } else {
          if captureKey { appendKey(bytes + index, 1) }
          mode = .string
          index += 1
        }
      case .token:
        // Safe because index < to is checked before each read.
        while index < to && Self.isTokenByte(bytes[index]) { index += 1 }
        guard index < to else { break }
        mode = .structural
        if tokenIsValue { valueEnded(at: index, spans: &spans) }
      case .structural:
        if recordOpen && !atLineStart && depth > recordDepth && depth < Self.trackedDepth {
          index = skimRecordContent(bytes, from: index, to: to, spans: &spans)
          guard index < to else { break }
        }
        // Safe because index < to.
        let byte = bytes[index]
        if (byte == UInt8.bom.0 || byteOrderMarkBytes > 0) && skipsByteOrderMark(byte, at: index, spans: &spans) {
          index += 1
        } else if byte.isJSONWhitespace {
          if byte == .newline {
            line += 1
            lineStart = bufferBase + index + 1
            atLineStart = true
            if probing { stopRequested = true }
          }
          index += 1
        } else {
          if atLineStart {
            atLineStart = false
            if recordValueEnded && !(recordMayBeWrapperKey && byte == .colon) {
              // A scalar element ended on an earlier line: what starts this line is the next
              // element (a lost `,`), as after any other element; only on one line does it go on.
              // (A `:` after the string that may be a wrapper's key is that key's, `takeWrapperMember`.)
              recordValueEnded = false
              closeRecord(at: recordEnd, spans: &spans)
            } else if recordOpen && depth > recordDepth {
              let column = bufferBase + index - lineStart
              if startsNextElement(byte, column: column) {
                resynchronise(at: index, spans: &spans)
              } else if closesRecordsBefore(byte, column: column) {
                closeRecordBeforeArrayEnd(at: index, spans: &spans)
              } else if closesWrapperBefore(byte, column: column) {
                closeRecordsBeforeWrapperEnd(at: index, spans: &spans)
              } else if leadsNextElement(byte, column: column) {
                leadNextElement(at: index, spans: &spans)
              }
            }
          }
          structural(byte, at: index, spans: &spans)
          index += 1
        }
      }
      if stopRequested {
        stopRequested = false
        return index
      }
    }
    return index
  }

  /// The fast path inside a record's containers: well-formed JSON on one
  /// line, with the grammar state in locals. It stops — leaving the byte to
  /// the general loop — at anything else: a line end (line numbers and
  /// resynchronisation), a syntax error (repairs), the record's last closer,
  /// or a string or token the buffer cuts.
  ///
  /// - Returns: where it stopped; `to` when it walked everything.
  mutating func skimRecordContent(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, spans: inout [RecordSpan])
    -> Int
  {
    // The vector walk goes as far as this loop would, or stops earlier where it leaves a byte to it;
    // over lines it may stop before a line's first byte, which is the general loop's.
    var index = from
    if skimKernel >= 0 {
      index = vectorSkim(bytes, from: from, to: to)
      if atLineStart { return index }
    }
    var expect = self.expect
    var depth = self.depth
    defer {
      self.expect = expect
      self.depth = depth
    }
    while index < to {
      // Safe because index < to.
      let byte = bytes[index]
      switch byte {
      case .quote:
        guard expect != .colon && expect != .commaOrClose else { return index }
        var end = index + 1
        while true {
          while end + 8 <= to {
            // Safe because end + 8 <= to.
            let word = UnsafeRawPointer(bytes + end).loadUnaligned(as: UInt64.self)
            if Self.mayEndString(word) { break }
            end += 8
          }
          // Safe because end < to is checked before each read.
          while end < to && bytes[end] != .quote && bytes[end] != .backslash && bytes[end] >= 0x20 { end += 1 }
          guard end + 1 < to, bytes[end] == .backslash else { break }
          // An escape: its next byte cannot end the string (a control byte is left to the general loop).
          if bytes[end + 1] < 0x20 { return index }
          end += 2
        }
        // Cut by the buffer, or a control byte inside: the general loop deals with it.
        guard end < to, bytes[end] == .quote else { return index }
        expect = expect == .key || expect == .firstKey ? .colon : .commaOrClose
        index = end + 1
      case .colon:
        guard expect == .colon else { return index }
        expect = .value
        index += 1
      case .comma:
        guard expect == .commaOrClose else { return index }
        expect = frames[depth].isObject ? .key : .value
        index += 1
      case .openBrace, .openBracket:
        guard expect == .value || expect == .firstValue, depth + 1 < Self.trackedDepth else { return index }
        depth += 1
        let isObject = byte == .openBrace
        frames[depth] = Frame(isObject: isObject, role: .record, level: 0, implied: .none)
        expect = isObject ? .firstKey : .firstValue
        index += 1
      case .closeBrace, .closeBracket:
        let isObject = frames[depth].isObject
        guard (byte == .closeBrace) == isObject, depth - 1 > recordDepth,
          expect == .commaOrClose || expect == (isObject ? .firstKey : .firstValue)
        else { return index }
        depth -= 1
        expect = .commaOrClose
        index += 1
      case .space, .tab, .carriageReturn:
        index += 1
      case .newline:
        return index
      default:
        guard expect == .value || expect == .firstValue else { return index }
        var end = index + 1
        // Safe because end < to is checked before each read.
        while end < to && Self.isTokenByte(bytes[end]) { end += 1 }
        guard end < to else { return index }
        expect = .commaOrClose
        index = end
      }
    }
    return index
  }

  /// `skimRecordContent`'s walk 64 bytes at a time (`txfold_json_skim`): returns where it
  /// stopped, with `expect`, `depth` and the containers it opened as the byte loop leaves them there.
  /// It also goes on over line feeds as `walk` does (counting lines), up to a line whose first byte
  /// `walk` judges; not while a probe asks for a stop at each line's end, nor in an element that
  /// began as a scalar (`12 {…`), whose lines `startsNextElement` judges by that scalar's first byte.
  mutating func vectorSkim(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    let entryDepth = depth
    let crossLines = !probing && (recordFirstByte == .openBrace || recordFirstByte == .openBracket)
    var state = txfold_skim_state(
      depth: Int32(entryDepth), deepest: Int32(entryDepth), record_depth: Int32(recordDepth),
      tracked_depth: Int32(Self.trackedDepth), expect: expect.rawValue, cross_lines: crossLines ? 1 : 0,
      at_line_start: 0, lines: 0, last_line_feed: 0)
    // Taken out of `self` while the C walk writes it, so the frames can be read and written meanwhile.
    var isObject = skimIsObject
    skimIsObject = []
    defer { skimIsObject = isObject }
    return isObject.withUnsafeMutableBufferPointer { isObject in
      guard let base = isObject.baseAddress else { return from }
      var level = recordDepth + 1
      while level <= entryDepth {
        isObject[level] = frames[level].isObject ? 1 : 0
        level += 1
      }
      let stop = txfold_json_skim(bytes, from, to, &state, base, skimKernel)
      depth = Int(state.depth)
      // The raw value came from an `Expect`, so it is one.
      expect = Expect(rawValue: state.expect) ?? expect
      // From the record's first level: the walk may close containers below where it began and open
      // others there. Each level up to `entryDepth` it did not open is rewritten as it was (a
      // record's containers are all `.record` frames).
      level = recordDepth + 1
      while level <= Int(state.deepest) {
        frames[level] = Frame(isObject: isObject[level] != 0, role: .record, level: 0, implied: .none)
        level += 1
      }
      if state.lines > 0 {
        line += Int(state.lines)
        lineStart = bufferBase + Int(state.last_line_feed) + 1
        atLineStart = state.at_line_start != 0
      }
      return stop
    }
  }

  /// Whether the string broken at `index` (a line end), inside a record where only objects are
  /// open, held a `]`, or one stood after the line's first error: with a lost quote, the array's
  /// own `]` at the end of the element's line is read as part of a string (`recordHoldsArrayCloser`).
  /// Those bytes are the open record's, still in the buffer unless the record grew too large.
  func brokenStringHeldCloser(_ bytes: UnsafePointer<UInt8>, at index: Int) -> Bool {
    guard recordOpen, !recordOversized, depth > recordDepth, stringStart >= recordStart, stringStart < index,
      onlyObjectsOpenInRecord()
    else { return false }
    var scan = stringStart + 1
    if lineErrorLine == line && lineErrorStart >= recordStart && lineErrorStart < scan { scan = lineErrorStart }
    // Safe because recordStart <= scan < index, all inside the buffer.
    while scan < index {
      if bytes[scan] == .closeBracket { return true }
      scan += 1
    }
    return false
  }

  mutating func appendKey(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    guard count > 0, !keyTooLong else { return }
    if key.count + count > Self.keyCapacity {
      keyTooLong = true
    } else {
      key.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }
  }

  // MARK: Bytes

  /// True for bytes that continue a number or literal (or junk) token.
  @inline(__always)
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case .space, .newline, .carriageReturn, .tab, .openBrace, .closeBrace, .openBracket, .closeBracket, .comma,
      .colon, .quote:
      return false
    default:
      return true
    }
  }

  /// True when any byte of `word` is `"`, `\` or below 0x20.
  @inline(__always)
  static func mayEndString(_ word: UInt64) -> Bool {
    word.stringStopLanes != 0
  }
}
