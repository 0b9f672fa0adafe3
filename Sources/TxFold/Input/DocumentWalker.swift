/// Follows the structure of a JSON document byte by byte and cuts out its
/// records: the elements of its arrays of records.
///
/// Design: a resumable state machine (it can stop after any byte and go on
/// with the next buffer) that tracks strings, escapes, tokens and an explicit
/// stack of containers — never recursion, so no input can deepen the call
/// stack. It follows the JSON grammar only as far as framing needs; the
/// worker's `RecordScanner` validates each record in full.
///
/// Which arrays hold records:
/// - a top-level array (`[{…},{…}]`);
/// - in a top-level object, the recognised wrappers: `items` (PAYBACK),
///   a `transactions` array (Swile), and `transactions.booked` /
///   `transactions.pending` (PSD2, whose records get the state their array
///   implies);
/// - with `--items PATH`, the array at PATH in each top-level object (or, if
///   PATH leads to an object, the recognised wrappers inside it).
///
/// Worked example: `{"items":[{"a":1} ,{"b":"]"}]}` gives two records,
/// bytes 10..<17 and 19..<28; the `]` inside the string does not count.
///
/// A syntax error rejects as little as possible. Inside a record the walker
/// repairs its own view (a missing `}` before `,{` starts the next element,
/// a string broken by a raw line end ends there) and the worker rejects the
/// record from its bytes; between records it reports the problem as one
/// rejected record (`FramingProblem`) and goes on. Every record gets the
/// physical line it starts on and its position in the input.
struct DocumentWalker {
  enum Role: UInt8 {
    /// A value nobody reads: a wrapper's other fields.
    case skip
    /// An object on the way to the records: its keys are matched.
    case navigate
    /// An array whose elements are records.
    case records
    /// Inside a record.
    case record
  }

  struct Frame {
    var isObject: Bool
    var role: Role
    /// For `.navigate`: `wrapperRoot`, `psd2Transactions`, or the index of
    /// the `--items` path component its keys are matched against.
    var level: Int
    /// For `.records`: the state its elements get.
    var implied: ImpliedState
  }

  enum Expect: UInt8 { case value, firstValue, key, firstKey, colon, commaOrClose }
  enum Mode: UInt8 { case structural, string, escape, token }

  /// Containers deeper than this are counted but not typed: past it any
  /// closer closes and the grammar is not followed (records that deep are
  /// rejected by the scanner's limit of 64 anyway).
  static let trackedDepth = 256
  /// The longest key compared against a wrapper name or an `--items` component.
  static let keyCapacity = 256
  static let wrapperRoot = -1
  static let psd2Transactions = -2

  /// The `--items` path, or `nil` for the recognised wrappers.
  let itemsPath: [[UInt8]]?
  let allowTrailingCommas: Bool
  let maxRecordBytes: Int
  /// How many bytes of a record too large are kept for its rejection.
  let keepLimit: Int

  private var frames: [Frame]
  private(set) var depth = 0
  private var expect = Expect.value
  private var mode = Mode.structural
  private var stringIsKey = false
  private var tokenIsValue = false
  private var captureKey = false
  private var key: [UInt8] = []
  private var keyScratch: [UInt8] = []
  private var keyTooLong = false
  private var keyEscaped = false
  private var pendingArray: Frame?
  private var pendingObject: Frame?
  private var pendingHint: String?
  private var pendingProblem = FramingProblem.none

  /// The physical line of the next byte.
  private(set) var line: Int
  /// Stream offset of the current buffer's first byte, and of the current line's first byte.
  private var bufferBase = 0
  private var lineStart = 0
  /// True until the current line's first non-blank byte has been seen.
  private var atLineStart = true
  /// True while a record's bytes are being walked.
  private(set) var recordOpen = false
  /// Where the open record starts in the current buffer.
  private(set) var recordStart = 0
  private var recordLine = 0
  private var recordDepth = 0
  private var recordImplied = ImpliedState.none
  private var recordProblem = FramingProblem.none
  /// Bytes of the open record dropped from the buffer (it is too large).
  private var recordDropped: Int64 = 0
  private var recordOversized = false
  /// The open record has a syntax error, and the column its first byte is in.
  private var recordBroken = false
  /// The record before the current one was broken: a missing `,` after it
  /// is part of that damage, not a new error.
  private var previousRecordBroken = false
  private var recordColumn = 0
  private var recordFirstByte: UInt8 = 0
  private var topStartLine = 0
  private var topFoundRecords = false

  /// Records (spans) produced so far in this input.
  private(set) var position = 0
  /// Syntax errors met so far, repaired or reported.
  private(set) var errors = 0
  /// The schema the first recognised wrapper suggests (`payback`, `swile`, `psd2`).
  private(set) var schemaHint: String?
  /// True once an array of records was entered.
  private(set) var foundRecords = false
  /// When set, `walk` returns after each event the framing probe looks at:
  /// an error, an array of records entered, a line end, a top-level value's end.
  var probing = false
  private var stopRequested = false

  init(itemsPath: [[UInt8]]?, allowTrailingCommas: Bool, maxRecordBytes: Int, firstLine: Int = 1) {
    self.itemsPath = itemsPath
    self.allowTrailingCommas = allowTrailingCommas
    self.maxRecordBytes = maxRecordBytes
    keepLimit = min(RejectionDescriber.rawLimit, maxRecordBytes)
    line = firstLine
    frames = Array(
      repeating: Frame(isObject: false, role: .skip, level: 0, implied: .none), count: Self.trackedDepth + 1)
    key.reserveCapacity(Self.keyCapacity)
  }

  // MARK: Walking

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
          noteError(at: index, byte: byte, spans: &spans)
          endString(at: index, spans: &spans)
        }
      case .escape:
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
        while index < to && Self.isTokenByte(bytes[index]) { index += 1 }
        guard index < to else { break }
        mode = .structural
        if tokenIsValue { valueEnded(at: index, spans: &spans) }
      case .structural:
        let byte = bytes[index]
        if byte.isJSONWhitespace {
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
            if recordOpen && depth > recordDepth && startsNextElement(byte, column: bufferBase + index - lineStart) {
              resynchronise(at: index, spans: &spans)
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

  /// The input ended after `count` bytes of the current buffer: closes a
  /// final token, and reports an open record or container as cut short.
  mutating func finish(at count: Int, spans: inout [RecordSpan]) {
    if mode == .token {
      mode = .structural
      if tokenIsValue { valueEnded(at: count, spans: &spans) }
    }
    if recordOpen {
      let length = recordDropped + Int64(count - recordStart)
      spans.append(
        RecordSpan(
          start: recordStart, end: recordStart + min(count - recordStart, keepLimit), line: recordLine,
          position: nextPosition(), impliedState: recordImplied, problem: .truncated, length: length))
      recordOpen = false
    } else if depth > 0 || mode != .structural {
      spans.append(
        RecordSpan(start: count, end: count, line: line, position: nextPosition(), problem: .truncated))
    }
    depth = 0
    mode = .structural
  }

  /// The buffer's first `delta` bytes were dropped: offsets move down.
  mutating func relocate(by delta: Int) {
    recordStart -= delta
    bufferBase += delta
  }

  /// Drops the open record's bytes past what a rejection keeps, once it is
  /// longer than `maxRecordBytes`; lowers `count` to the bytes still needed.
  mutating func trimOversizedRecord(count: inout Int) {
    guard recordOpen else { return }
    let length = recordDropped + Int64(count - recordStart)
    guard length > Int64(maxRecordBytes) else { return }
    recordOversized = true
    let keepEnd = recordStart + keepLimit
    if count > keepEnd {
      recordDropped += Int64(count - keepEnd)
      bufferBase += count - keepEnd
      count = keepEnd
    }
  }

  // MARK: Grammar

  private mutating func structural(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    if depth > Self.trackedDepth {
      untracked(byte, at: index, spans: &spans)
      return
    }
    let inObject = depth > 0 && frames[depth].isObject
    switch byte {
    case .quote:
      switch expect {
      case .key, .firstKey:
        startKey()
      case .value, .firstValue:
        valueStart(byte, at: index, spans: &spans)
      case .colon:
        noteError(at: index, byte: byte, spans: &spans)
        valueStart(byte, at: index, spans: &spans)
      case .commaOrClose:
        if inObject {
          noteError(at: index, byte: byte, spans: &spans)
          startKey()
        } else {
          missingComma(byte, at: index, spans: &spans)
        }
      }
    case .openBrace, .openBracket:
      switch expect {
      case .value, .firstValue:
        valueStart(byte, at: index, spans: &spans)
      case .colon:
        noteError(at: index, byte: byte, spans: &spans)
        valueStart(byte, at: index, spans: &spans)
      case .key, .firstKey, .commaOrClose:
        if expect == .commaOrClose && !inObject {
          missingComma(byte, at: index, spans: &spans)
        } else {
          noteError(at: index, byte: byte, spans: &spans)
          valueStart(byte, at: index, spans: &spans)
        }
      }
    case .closeBrace, .closeBracket:
      guard depth > 0 else {
        noteError(at: index, byte: byte, spans: &spans)
        return
      }
      let frame = frames[depth]
      let matches = (byte == .closeBrace) == frame.isObject
      if !matches && !recordOpen {
        // Outside records the structure is trusted over a stray closer:
        // an array of records ends only at its `]`.
        noteError(at: index, byte: byte, spans: &spans)
        return
      }
      switch expect {
      case .commaOrClose, .firstKey, .firstValue:
        if !matches { noteError(at: index, byte: byte, spans: &spans) }
      case .key, .value:
        if frame.isObject && expect == .value {
          noteError(at: index, byte: byte, spans: &spans)  // `"a":}`
        } else if !allowTrailingCommas || !matches {
          if frame.role == .records && !recordOpen {
            append(problem: .emptyElement, at: index, spans: &spans)
          } else {
            noteError(at: index, byte: byte, spans: &spans)
          }
        }
      case .colon:
        noteError(at: index, byte: byte, spans: &spans)
      }
      pop(at: index, spans: &spans)
    case .comma:
      guard depth > 0 else {
        noteError(at: index, byte: byte, spans: &spans)
        return
      }
      switch expect {
      case .commaOrClose:
        expect = inObject ? .key : .value
      case .value where !inObject, .firstValue where !inObject:
        if frames[depth].role == .records && !recordOpen {
          append(problem: .emptyElement, at: index, spans: &spans)
        } else {
          noteError(at: index, byte: byte, spans: &spans)
        }
        expect = .value
      default:
        noteError(at: index, byte: byte, spans: &spans)
      }
    case .colon:
      if expect == .colon {
        expect = .value
      } else {
        noteError(at: index, byte: byte, spans: &spans)
      }
    default:
      switch expect {
      case .value, .firstValue:
        valueStart(byte, at: index, spans: &spans)
      case .colon:
        noteError(at: index, byte: byte, spans: &spans)
        valueStart(byte, at: index, spans: &spans)
      case .commaOrClose where !inObject:
        missingComma(byte, at: index, spans: &spans)
      default:
        // A stray token where a key or `,` belongs: skipped as a whole.
        noteError(at: index, byte: byte, spans: &spans)
        mode = .token
        tokenIsValue = false
      }
    }
  }

  /// Deeper than the typed stack: only strings and container counts matter.
  private mutating func untracked(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    switch byte {
    case .openBrace, .openBracket:
      depth += 1
    case .closeBrace, .closeBracket:
      depth -= 1
      if depth <= Self.trackedDepth { valueEnded(at: index + 1, spans: &spans) }
    case .quote:
      mode = .string
      stringIsKey = false
      captureKey = false
      tokenIsValue = false
    case .comma, .colon:
      break
    default:
      mode = .token
      tokenIsValue = false
    }
  }

  /// A value begins at `index` with `byte`; opens a record when its
  /// container is an array of records (or it is a scalar at the top level).
  private mutating func valueStart(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    let isContainer = byte == .openBrace || byte == .openBracket
    if !recordOpen {
      if depth == 0 {
        topStartLine = line
        topFoundRecords = false
        if !isContainer { openRecord(at: index, firstByte: byte, implied: .none) }
      } else if frames[depth].role == .records {
        openRecord(at: index, firstByte: byte, implied: frames[depth].implied)
      }
    }
    pendingProblem = .none
    if isContainer {
      push(isObject: byte == .openBrace)
    } else if byte == .quote {
      mode = .string
      stringIsKey = false
      captureKey = false
    } else {
      mode = .token
      tokenIsValue = true
    }
    pendingArray = nil
    pendingObject = nil
    pendingHint = nil
  }

  private mutating func openRecord(at index: Int, firstByte: UInt8, implied: ImpliedState) {
    recordOpen = true
    recordStart = index
    recordLine = line
    recordDepth = depth
    recordImplied = implied
    recordProblem = pendingProblem
    recordDropped = 0
    recordOversized = false
    recordBroken = false
    recordColumn = bufferBase + index - lineStart
    recordFirstByte = firstByte
  }

  private mutating func push(isObject: Bool) {
    var frame = Frame(isObject: isObject, role: .skip, level: 0, implied: .none)
    if recordOpen {
      frame.role = .record
    } else if depth == 0 {
      if let itemsPath {
        if isObject && !itemsPath.isEmpty {
          frame.role = .navigate
          frame.level = 0
        }
      } else if isObject {
        frame.role = .navigate
        frame.level = Self.wrapperRoot
      } else {
        frame.role = .records
      }
    } else if frames[depth].role == .navigate, let pending = isObject ? pendingObject : pendingArray {
      frame = pending
      frame.isObject = isObject
    }
    if frame.role == .records {
      foundRecords = true
      topFoundRecords = true
      if schemaHint == nil { schemaHint = pendingHint }
      if probing { stopRequested = true }
    }
    depth += 1
    if depth <= Self.trackedDepth { frames[depth] = frame }
    expect = isObject ? .firstKey : .firstValue
  }

  private mutating func pop(at index: Int, spans: inout [RecordSpan]) {
    let frame = frames[depth]
    depth -= 1
    if depth == 0 && !topFoundRecords && (frame.role == .navigate || frame.role == .skip) {
      spans.append(
        RecordSpan(
          start: index + 1, end: index + 1, line: topStartLine, position: nextPosition(), problem: .noRecordArray)
      )
    }
    valueEnded(at: index + 1, spans: &spans)
  }

  /// A value ended just before `end`: closes the record it completes.
  private mutating func valueEnded(at end: Int, spans: inout [RecordSpan]) {
    mode = .structural
    if recordOpen && depth == recordDepth { closeRecord(at: end, spans: &spans) }
    if depth == 0 {
      expect = .value
      if probing { stopRequested = true }
    } else {
      expect = .commaOrClose
    }
  }

  private mutating func closeRecord(at end: Int, spans: inout [RecordSpan]) {
    let length = recordDropped + Int64(end - recordStart)
    var span = RecordSpan(
      start: recordStart, end: end, line: recordLine, position: nextPosition(), impliedState: recordImplied,
      problem: recordProblem)
    if recordOversized || length > Int64(maxRecordBytes) {
      span.problem = .tooLarge
      span.end = recordStart + min(end - recordStart, keepLimit)
      span.length = length
    }
    spans.append(span)
    recordOpen = false
    previousRecordBroken = recordBroken
  }

  /// Whether a line starting with `byte` at `column`, inside the open
  /// record, is rather the next element: it starts like the record did, no
  /// further right, and either the record is already broken or the grammar
  /// cannot take a value here (a lost closing brace). Elements of real
  /// exports start at one indentation and their insides are indented
  /// further, so this holds only when something is wrong. Arrays written on
  /// one line have no such clue: there a broken record runs on to where its
  /// brackets balance.
  private func startsNextElement(_ byte: UInt8, column: Int) -> Bool {
    guard byte == recordFirstByte, column <= recordColumn else { return false }
    return recordBroken || (expect != .value && expect != .firstValue)
  }

  /// Inside a record, the next element begins: the record is cut there (the
  /// scanner will reject it) and the walk goes on as if the record's array
  /// expected its next element.
  private mutating func resynchronise(at index: Int, spans: inout [RecordSpan]) {
    errors += 1
    if probing { stopRequested = true }
    depth = recordDepth
    closeRecord(at: index, spans: &spans)
    expect = .value
  }

  /// A value where an array needed `,`: in an array of records the element
  /// is read and rejected as `missingSeparator`.
  private mutating func missingComma(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    if frames[depth].role == .records && !recordOpen {
      errors += 1
      if probing { stopRequested = true }
      pendingProblem = previousRecordBroken ? .none : .missingSeparator
    } else {
      noteError(at: index, byte: byte, spans: &spans)
    }
    expect = .value
    valueStart(byte, at: index, spans: &spans)
  }

  /// Counts a syntax error; outside any record it is reported as a rejected
  /// record of its own, since no record's bytes will show it.
  private mutating func noteError(at index: Int, byte: UInt8, spans: inout [RecordSpan]) {
    errors += 1
    if probing { stopRequested = true }
    if recordOpen {
      recordBroken = true
    } else {
      spans.append(
        RecordSpan(
          start: index, end: index, line: line, position: nextPosition(), problem: .outsideRecords, byte: byte))
    }
  }

  private mutating func append(problem: FramingProblem, at index: Int, spans: inout [RecordSpan]) {
    errors += 1
    if probing { stopRequested = true }
    spans.append(RecordSpan(start: index, end: index, line: line, position: nextPosition(), problem: problem))
  }

  private mutating func nextPosition() -> Int {
    position += 1
    return position
  }

  // MARK: Keys

  private mutating func startKey() {
    mode = .string
    stringIsKey = true
    captureKey = depth > 0 && depth <= Self.trackedDepth && frames[depth].role == .navigate
    key.removeAll(keepingCapacity: true)
    keyTooLong = false
    keyEscaped = false
  }

  private mutating func appendKey(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    guard count > 0, !keyTooLong else { return }
    if key.count + count > Self.keyCapacity {
      keyTooLong = true
    } else {
      key.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }
  }

  private mutating func endString(at end: Int, spans: inout [RecordSpan]) {
    mode = .structural
    if stringIsKey {
      expect = .colon
      if captureKey { matchKey() }
      captureKey = false
    } else {
      valueEnded(at: end, spans: &spans)
    }
  }

  /// Decides what the value of the key just read leads to.
  private mutating func matchKey() {
    pendingArray = nil
    pendingObject = nil
    pendingHint = nil
    guard !keyTooLong else { return }
    var name = key
    if keyEscaped {
      keyScratch.removeAll(keepingCapacity: true)
      let decoded = key.withUnsafeBufferPointer { StringDecoder.decode($0, into: &keyScratch) }
      guard decoded else { return }
      name = keyScratch
    }
    let level = frames[depth].level
    func records(_ implied: ImpliedState) -> Frame {
      Frame(isObject: false, role: .records, level: 0, implied: implied)
    }
    func navigate(_ level: Int) -> Frame { Frame(isObject: true, role: .navigate, level: level, implied: .none) }
    if level == Self.wrapperRoot {
      if name.elementsEqual("items".utf8) {
        pendingArray = records(.none)
        pendingHint = RecordSchema.payback.name
      } else if name.elementsEqual("transactions".utf8) {
        pendingArray = records(.none)
        pendingObject = navigate(Self.psd2Transactions)
        pendingHint = RecordSchema.swile.name
      }
    } else if level == Self.psd2Transactions {
      let implied = ImpliedState.forArray(key: name)
      if implied != .none {
        pendingArray = records(implied)
        pendingHint = RecordSchema.psd2.name
      }
    } else if let itemsPath, level < itemsPath.count, name == itemsPath[level] {
      if level == itemsPath.count - 1 {
        let implied = ImpliedState.forArray(key: name)
        pendingArray = records(implied)
        pendingObject = navigate(Self.wrapperRoot)
        if implied != .none { pendingHint = RecordSchema.psd2.name }
      } else {
        pendingObject = navigate(level + 1)
      }
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
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* UInt64(UInt8.quote))
    let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (word &- ones &* 0x20) & ~word
    return (hasQuote | hasBackslash | hasControl) & highs != 0
  }
}
