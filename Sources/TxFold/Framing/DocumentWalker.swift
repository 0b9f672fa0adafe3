import CJSONIndex

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
    /// For `.navigate`: the keys whose arrays of records, or objects
    /// holding them, this object has already opened.
    var opened: WrapperKeys = []
    /// Opened under a key its object had already used (`items` twice): its
    /// records are rejected (`FramingProblem.repeatedArray`).
    var repeated = false
  }

  /// The wrapper keys an object may hold an array of records under (`Frame.opened`).
  struct WrapperKeys: OptionSet {
    let rawValue: UInt8
    static let items = WrapperKeys(rawValue: 1)
    static let transactions = WrapperKeys(rawValue: 2)
    static let booked = WrapperKeys(rawValue: 4)
    static let pending = WrapperKeys(rawValue: 8)
    static let itemsPath = WrapperKeys(rawValue: 16)
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
  /// A PSD2 report's `account` object, whose `iban` / `resourceId` name the account.
  static let accountObject = -3

  /// The `--items` path, or `nil` for the recognised wrappers.
  let itemsPath: [[UInt8]]?
  let allowTrailingCommas: Bool
  let maxRecordBytes: Int
  /// How many bytes of a record too large are kept for its rejection.
  let keepLimit: Int
  /// The `txfold_json_index` kernel that skims records' content (`vectorSkim`), or -1 for the byte loop alone.
  let skimKernel: Int32
  /// Whether each depth's container is an object, for `txfold_json_skim` (`frames`' `isObject`).
  var skimIsObject: [UInt8]

  var frames: [Frame]
  var depth = 0
  var expect = Expect.value
  var mode = Mode.structural
  var stringIsKey = false
  var tokenIsValue = false
  var captureKey = false
  var key: [UInt8] = []
  var keyScratch: [UInt8] = []
  var keyTooLong = false
  var keyEscaped = false
  var pendingArray: Frame?
  var pendingObject: Frame?
  var pendingHint: RecordWrapper?
  /// The key whose value `pendingArray` / `pendingObject` describe (empty for any other key).
  var pendingKey: WrapperKeys = []
  /// The key just read is the report account's `iban` (1) or `resourceId` (2): its string is kept.
  var pendingAccountValue: UInt8 = 0
  /// The string being read is that value (`captureKey` collects it).
  var capturingAccountValue: UInt8 = 0
  /// The current top-level document's `account.iban` and `account.resourceId`, as decoded.
  var reportIBAN: [UInt8]?
  var reportResourceID: [UInt8]?
  /// The accounts the records handed out since the last `takeAccounts()` name;
  /// a record's `RecordSpan.account` indexes it.
  var accounts: [[UInt8]] = []
  /// The current document's account's index in `accounts`, once a record used it.
  var accountIndex: Int32 = -1
  var pendingProblem = FramingProblem.none

  /// The physical line of the next byte.
  var line: Int
  /// Stream offset of the current buffer's first byte, and of the current line's first byte.
  var bufferBase = 0
  /// Where the stream's first byte is in the input (`RecordFraming.offset` counts from the input's start).
  let inputOffset: Int64
  var lineStart = 0
  /// True until the current line's first non-blank byte has been seen.
  var atLineStart = true
  /// True while a record's bytes are being walked.
  var recordOpen = false
  /// Where the open record starts in the current buffer.
  var recordStart = 0
  /// Where the open record starts in the input (bytes dropped from a record too large do not move it).
  var recordOffset: Int64 = 0
  var recordLine = 0
  var recordDepth = 0
  var recordImplied = ImpliedState.none
  var recordProblem = FramingProblem.none
  /// Bytes of the open record dropped from the buffer (it is too large).
  var recordDropped: Int64 = 0
  var recordOversized = false
  /// The open record has a syntax error, and the column its first byte is in.
  var recordBroken = false
  /// The record before the current one was broken: a missing `,` after it
  /// is part of that damage, not a new error.
  var previousRecordBroken = false
  var recordColumn = 0
  var recordFirstByte: UInt8 = 0
  /// The open record, over lines, holds a `]` where only objects were open in it: damage inside
  /// the element while its array goes on, or the array's own `]` when the array ends there
  /// (`lastRecordTookArrayCloser`). So does one whose string broke at a line end where only
  /// objects were open, when a `]` stood in that string or after the line's first error
  /// (`brokenStringHeldCloser`): a lost quote turned the line's tail, the array's `]` with it,
  /// into strings.
  var recordHoldsArrayCloser = false
  /// Where the string being walked began (its quote) in the current buffer, inside a record.
  var stringStart = 0
  /// The line of the open record's first syntax error on a line, and where it was in the current
  /// buffer: from there a lost quote swaps strings and structure up to the line's end.
  var lineErrorLine = -1
  var lineErrorStart = 0
  /// The `position` the last record that held such a `]` got, its array's depth, the line it
  /// ended on, and whether it began there (an element on one line).
  var closerRecordPosition = -1
  var closerRecordDepth = 0
  var closerRecordLine = 0
  var closerRecordOnOneLine = false
  /// The open record is the string that came first after a `,` that followed a record holding its
  /// array's `]` (`followsArrayCloser`): its bytes are kept in `key`, and a `:` after it makes it
  /// the wrapper's key.
  var recordMayBeWrapperKey = false
  /// The open record is a scalar element (`12`, `"a"`, `not`) whose value ended at `recordEnd`
  /// (in the current buffer): the element goes on to its array's next `,` or `]` on its line, so
  /// that `not json` or `12 34` is one rejected element, not two (`endsScalarElement`).
  var recordValueEnded = false
  var recordEnd = 0
  var topStartLine = 0
  var topFoundRecords = false
  /// How many bytes of a byte-order mark between top-level documents were
  /// skipped so far (`skipsByteOrderMark`); 0 outside one.
  var byteOrderMarkBytes = 0
  /// The array of records last closed and the containers around it (`frames[1...]` as they
  /// were), while no other array of records was entered and no other top-level container has
  /// begun: a `{` where its object wanted a key, or a `,` and a `{` after the top-level value
  /// holding it, show its `]` was stray (`reopenRecords`). Empty when none.
  var closedRecords: [Frame] = []
  /// Where that array's `]` was (line and input offset), and whether a rejection already named it.
  var closedRecordsLine = 0
  var closedRecordsOffset: Int64 = 0
  var closedRecordsReported = false
  /// The object that held that array is still open (a `{` in it reopens the array).
  var closedRecordsParentOpen = false
  /// The line the array of records last entered starts on (`structural`: a `]` only the array
  /// takes closes it on that line).
  var recordsLine = 0
  /// The last byte walked at the top level was a `,` (an error there).
  var topLevelComma = false
  /// The line that began, inside the open record, with a `,` left of the record's first byte
  /// (`leadsNextElement`: comma-first style, `, {…}`): a `{` where a key belongs on it starts the
  /// next element, as on an array's one line.
  var commaLeadLine = -1

  /// Records (spans) produced so far in this input.
  var position = 0
  /// Syntax errors met so far, repaired or reported.
  var errors = 0
  /// The first recognised wrapper's kind.
  var wrapper: RecordWrapper?
  /// True once an array of records was entered.
  var foundRecords = false
  /// When set, `walk` returns after each event the framing probe looks at:
  /// an error, an array of records entered, a line end, a top-level value's end.
  var probing = false
  var stopRequested = false

  init(
    itemsPath: [[UInt8]]?, allowTrailingCommas: Bool, maxRecordBytes: Int, firstLine: Int = 1, offset: Int64 = 0,
    skimKernel: Int32 = txfold_json_index_best_kernel()
  ) {
    self.itemsPath = itemsPath
    self.skimKernel = skimKernel
    skimIsObject = Array(repeating: 0, count: Self.trackedDepth + 1)
    inputOffset = offset
    self.allowTrailingCommas = allowTrailingCommas
    self.maxRecordBytes = maxRecordBytes
    keepLimit = min(RecordRejection.rawLimit, maxRecordBytes)
    line = firstLine
    frames = Array(
      repeating: Frame(isObject: false, role: .skip, level: 0, implied: .none), count: Self.trackedDepth + 1)
    key.reserveCapacity(Self.keyCapacity)
  }

  // MARK: Walking (the byte loop is in DocumentWalker+Unsafe.swift)

  /// The input ended after `count` bytes of the current buffer: closes a
  /// final token, and reports an open record or container as cut short.
  mutating func finish(at count: Int, spans: inout [RecordSpan]) {
    if byteOrderMarkBytes > 0 {
      byteOrderMarkBytes = 0
      noteError(at: count, byte: UInt8.bom.0, spans: &spans)
    }
    if mode == .token {
      mode = .structural
      if tokenIsValue { valueEnded(at: count, spans: &spans) }
    }
    if recordValueEnded {
      recordValueEnded = false
      closeRecord(at: recordEnd, spans: &spans)
    }
    if recordOpen && recordHoldsArrayCloser && !recordOversized {
      // Cut off after a `]` only its array could take, inside a broken element: the array ended
      // there, as on one line; the element (to the end) is rejected, not the input failed as cut.
      depth = recordDepth
      mode = .structural
      closeRecord(at: count, spans: &spans)
      expect = .commaOrClose
    }
    if lastRecordTookArrayCloser() { pop(at: count, spans: &spans) }
    if recordOpen {
      let length = recordDropped + Int64(count - recordStart)
      spans.append(
        RecordSpan(
          start: recordStart, end: recordStart + min(count - recordStart, keepLimit),
          framing: RecordFraming(
            line: recordLine, position: nextPosition(), offset: recordOffset,
            impliedState: recordImplied, problem: .truncated, length: length)))
      recordOpen = false
    } else if depth > 0 || mode != .structural {
      spans.append(
        RecordSpan(
          start: count, end: count,
          framing: RecordFraming(line: line, position: nextPosition(), offset: offset(at: count), problem: .truncated)))
    }
    depth = 0
    mode = .structural
  }

  /// Walks all of `document`, held in memory, the buffer growing by `step` bytes a call as reads
  /// make it grow, and finishes it: the spans. Where the kernels' framing is compared (tests, fuzzing).
  mutating func walkAll(_ document: [UInt8], step: Int) -> [RecordSpan] {
    var spans: [RecordSpan] = []
    document.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var walked = 0
      while walked < document.count {
        let to = document.count - walked <= step ? document.count : walked + max(step, 1)
        walked = walk(base, from: walked, to: to, spans: &spans)
      }
    }
    finish(at: document.count, spans: &spans)
    return spans
  }

  /// The buffer's first `delta` bytes were dropped: offsets move down.
  mutating func relocate(by delta: Int) {
    recordStart -= delta
    recordEnd -= delta
    stringStart -= delta
    lineErrorStart -= delta
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

  /// Whether `byte` is part of a byte-order mark between top-level
  /// documents, skipped as at the input's start and at a JSON line's start
  /// (`RecordChunk.forEachRecord`): exports concatenated into one file each
  /// begin with one. The mark may be cut between buffers, so its bytes are
  /// counted as they come; bytes that begin one and then stop are a stray
  /// byte between documents, reported as one rejected record, and `byte` is
  /// walked as usual.
  @inline(__always)
  mutating func skipsByteOrderMark(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) -> Bool {
    let expected = byteOrderMarkBytes == 0 ? UInt8.bom.0 : byteOrderMarkBytes == 1 ? UInt8.bom.1 : UInt8.bom.2
    if byte == expected && (byteOrderMarkBytes > 0 || (depth == 0 && !recordOpen && expect == .value)) {
      byteOrderMarkBytes = byteOrderMarkBytes == 2 ? 0 : byteOrderMarkBytes + 1
      return true
    }
    if byteOrderMarkBytes > 0 {
      byteOrderMarkBytes = 0
      noteError(at: index, byte: UInt8.bom.0, spans: &spans)
    }
    return false
  }

  @inline(__always)
  mutating func structural(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    if topLevelComma {
      topLevelComma = false
      if byte == .openBrace && depth == 0 && !closedRecords.isEmpty { reopenRecords() }
    }
    if depth > Self.trackedDepth {
      untracked(byte, at: index, spans: &spans)
      return
    }
    if recordValueEnded && !endsScalarElement(byte, at: index, spans: &spans) { return }
    if recordOpen && depth > recordDepth {
      if byte == .openBrace && startsNextElementInKeyPosition() {
        resynchronise(at: index, spans: &spans)
      } else if byte == .closeBracket && onlyObjectsOpenInRecord() {
        if line == recordsLine {
          closeRecordBeforeArrayEnd(at: index, spans: &spans)
        } else {
          recordHoldsArrayCloser = true
        }
      }
    } else if byte == .openBrace && !recordOpen && closedRecordsParentOpen && depth == closedRecords.count - 1
      && expect != .value && expect != .colon
    {
      // A `{` where the object that held the array of records wanted a key, `,` or `}`: the `]` was stray.
      if !closedRecordsReported {
        append(
          problem: .outsideRecords, at: index, line: closedRecordsLine, offset: closedRecordsOffset,
          byte: .closeBracket, spans: &spans)
      }
      reopenRecords()
    }
    let inObject = depth > 0 && frames[depth].isObject
    switch byte {
    case .quote:
      stringStart = index
      switch expect {
      case .key, .firstKey:
        startKey()
      case .value, .firstValue:
        let mayBeWrapperKey = expect == .value && followsArrayCloser()
        valueStart(byte, at: index, spans: &spans)
        if mayBeWrapperKey {
          // Kept as a key would be, in case a `:` makes it the wrapper's.
          recordMayBeWrapperKey = true
          captureKey = true
          key.removeAll(keepingCapacity: true)
          keyTooLong = false
          keyEscaped = false
        }
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
      var frame = frames[depth]
      var matches = (byte == .closeBrace) == frame.isObject
      if !matches && !recordOpen && frame.role == .records && closesWrapperAfterLastRecord() {
        // The wrapper's `}` after a broken last element: the `]` in that element was the array's.
        pop(at: index, spans: &spans)
        guard depth > 0 else {
          noteError(at: index, byte: byte, spans: &spans)
          return
        }
        frame = frames[depth]
        matches = (byte == .closeBrace) == frame.isObject
      }
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
            // A `]` (a `}` that does not match was refused above) right after the records' `,`.
            append(problem: .trailingComma, at: index, spans: &spans)
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
        topLevelComma = true
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
  mutating func untracked(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
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
  @inline(__always)
  mutating func valueStart(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
    let isContainer = byte == .openBrace || byte == .openBracket
    if !recordOpen {
      if depth == 0 {
        if isContainer { closedRecords = [] }
        topStartLine = line
        topFoundRecords = false
        if reportIBAN != nil || reportResourceID != nil {
          reportIBAN = nil
          reportResourceID = nil
          accountIndex = -1
        }
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
      capturingAccountValue = pendingAccountValue
      captureKey = capturingAccountValue != 0
      if captureKey {
        key.removeAll(keepingCapacity: true)
        keyTooLong = false
        keyEscaped = false
      }
    } else {
      mode = .token
      tokenIsValue = true
    }
    pendingArray = nil
    pendingObject = nil
    pendingHint = nil
    pendingAccountValue = 0
  }

  mutating func openRecord(at index: Int, firstByte: UInt8, implied: ImpliedState) {
    recordOpen = true
    recordStart = index
    recordOffset = offset(at: index)
    recordLine = line
    recordDepth = depth
    recordImplied = implied
    recordProblem = depth > 0 && depth <= Self.trackedDepth && frames[depth].repeated ? .repeatedArray : pendingProblem
    recordDropped = 0
    recordOversized = false
    recordBroken = false
    recordHoldsArrayCloser = false
    lineErrorLine = -1
    recordColumn = bufferBase + index - lineStart
    recordFirstByte = firstByte
  }

  @inline(__always)
  mutating func push(isObject: Bool) {
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
      // A key repeated in one object: JSON parsers keep the last value, but
      // the first array's records are already on their way, so a later array
      // under the same key has its records rejected (and everything inside it).
      frame.repeated = frames[depth].repeated || !frames[depth].opened.isDisjoint(with: pendingKey)
      frames[depth].opened.formUnion(pendingKey)
    }
    if frame.role == .records {
      closedRecords = []
      recordsLine = line
      foundRecords = true
      topFoundRecords = true
      if wrapper == nil { wrapper = pendingHint }
      if probing { stopRequested = true }
    }
    depth += 1
    if depth <= Self.trackedDepth { frames[depth] = frame }
    expect = isObject ? .firstKey : .firstValue
  }

  @inline(__always)
  mutating func pop(at index: Int, spans: inout [RecordSpan]) {
    let frame = frames[depth]
    if frame.role == .records && !frame.isObject && !recordOpen {
      closedRecords = Array(frames[1...depth])
      closedRecordsLine = line
      closedRecordsOffset = offset(at: index)
      closedRecordsReported = expect == .value && !allowTrailingCommas
      closedRecordsParentOpen = depth > 1 && frames[depth - 1].isObject
    } else if depth == closedRecords.count - 1 {
      closedRecordsParentOpen = false
    }
    depth -= 1
    if depth == 0 && !topFoundRecords && (frame.role == .navigate || frame.role == .skip) {
      spans.append(
        RecordSpan(
          start: index + 1, end: index + 1,
          framing: RecordFraming(
            line: topStartLine, position: nextPosition(), offset: offset(at: index + 1), problem: .noRecordArray)))
    }
    valueEnded(at: index + 1, spans: &spans)
  }

  /// A value ended just before `end`: closes the record it completes.
  @inline(__always)
  mutating func valueEnded(at end: Int, spans: inout [RecordSpan]) {
    mode = .structural
    if recordOpen && depth == recordDepth {
      if recordFirstByte != .openBrace && recordFirstByte != .openBracket && depth > 0
        && depth <= Self.trackedDepth && frames[depth].role == .records
      {
        recordValueEnded = true
        recordEnd = end
      } else {
        closeRecord(at: end, spans: &spans)
      }
    }
    if depth == 0 {
      expect = .value
      if probing { stopRequested = true }
    } else {
      expect = .commaOrClose
    }
  }

  mutating func closeRecord(at end: Int, spans: inout [RecordSpan]) {
    let length = recordDropped + Int64(end - recordStart)
    var span = RecordSpan(
      start: recordStart, end: end,
      framing: RecordFraming(
        line: recordLine, position: nextPosition(), offset: recordOffset, impliedState: recordImplied,
        problem: recordProblem, account: currentAccountIndex()))
    if recordOversized || length > Int64(maxRecordBytes) {
      span.framing.problem = .tooLarge
      span.end = recordStart + min(end - recordStart, keepLimit)
      span.framing.length = length
    }
    spans.append(span)
    recordOpen = false
    recordMayBeWrapperKey = false
    previousRecordBroken = recordBroken
    if recordHoldsArrayCloser {
      closerRecordPosition = position
      closerRecordDepth = recordDepth
      closerRecordLine = line
      closerRecordOnOneLine = recordLine == line
    }
  }

  /// Whether a line starting with `byte` at `column`, inside the open
  /// record, is rather the next element: it starts like the record did, no
  /// further right, and either the record is already broken or the grammar
  /// cannot take a value here (a lost closing brace). Elements of real
  /// exports start at one indentation and their insides are indented
  /// further, so this holds only when something is wrong. Arrays written on
  /// one line have no such clue: there a broken record runs on to where its
  /// brackets balance.
  func startsNextElement(_ byte: UInt8, column: Int) -> Bool {
    guard byte == recordFirstByte, column <= recordColumn else { return false }
    return recordBroken || (expect != .value && expect != .firstValue)
  }

  /// Whether a line starting with `byte` at `column`, inside the open
  /// record, is rather the `]` that closes the record's array: the record
  /// is broken or cannot take that `]` where it stands (a lost closing
  /// brace), and the `]` stands left of where the record started, as an
  /// array's closer does when its elements are indented. The record's own
  /// brackets sit at its column or further right, so a well-formed record
  /// never meets this; without it, a broken last element swallowed the
  /// array's end, and an input whose every record but one was fine failed
  /// as never closed.
  func closesRecordsBefore(_ byte: UInt8, column: Int) -> Bool {
    guard byte == .closeBracket, column < recordColumn, recordDepth > 0, recordDepth <= Self.trackedDepth,
      frames[recordDepth].role == .records, !frames[recordDepth].isObject
    else { return false }
    if recordBroken { return true }
    // Where the grammar takes a `]`: after a value, or as an empty array's end, inside an array.
    let takesCloser =
      depth <= Self.trackedDepth && !frames[depth].isObject
      && (expect == .commaOrClose || expect == .firstValue)
    return !takesCloser
  }

  /// A top-level array of records closed, then a `,` and a `{` came: no
  /// JSON goes on so, while an element whose damage put a `]` in it does
  /// (`{"a":1}],"b":2},`), and that `]` closed the array. The array is
  /// open again and the `{` starts its next element, so the elements after
  /// the damage are read, not rejected as top-level documents; the stray
  /// text between was rejected as it came.
  /// Inside a wrapper document the same holds for the containers around the array: a `{` where
  /// the wrapper object wanted a key (`{"items":[{…}] {…}]}`), or a `,` and a `{` after the
  /// wrapper closed (`{…}],"x":1},` inside `items`), shows the `]` was stray; the array and the
  /// objects around it are open again, as they were.
  mutating func reopenRecords() {
    closedRecordsParentOpen = false
    depth = closedRecords.count
    for (level, frame) in closedRecords.enumerated() { frames[level + 1] = frame }
    closedRecords = []
    expect = .value
  }

  /// A byte after a scalar element's value (`recordValueEnded`): a `,` or `]` ends the element
  /// there and is walked at its array's level (true); anything else is more of the same broken
  /// element, up to that `,` or `]`: a value goes on inside it (true), a stray `:` or `}` is
  /// skipped (false).
  mutating func endsScalarElement(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) -> Bool {
    if recordMayBeWrapperKey && byte == .colon {
      takeWrapperMember(at: index, spans: &spans)
      return false
    }
    if byte == .comma || byte == .closeBracket {
      recordValueEnded = false
      closeRecord(at: recordEnd, spans: &spans)
      return true
    }
    noteError(at: index, byte: byte, spans: &spans)
    if byte == .colon || byte == .closeBrace {
      recordEnd = index + 1
      return false
    }
    recordValueEnded = false
    expect = .value
    return true
  }

  /// Whether a `{` inside the open record, where an object wants a key, is rather the next
  /// element, in an array on one line, where `startsNextElement` has no column to go by: no JSON
  /// has a `{` there, while an element that lost its `}` before `,{` does. Over lines a stray `{`
  /// is rather damage inside the element, which the next line's column ends.
  func startsNextElementInKeyPosition() -> Bool {
    recordFirstByte == .openBrace && (expect == .key || expect == .firstKey)
      && (line == recordsLine || line == commaLeadLine)
      && depth <= Self.trackedDepth && frames[depth].isObject && recordDepth > 0
      && frames[recordDepth].role == .records
  }

  /// Whether a `]` inside the open record, where only objects are open, may close the record's
  /// array: nothing inside the record can take it (`[{…}, {"a":1]`, `[{…}, {bad]`). In an array on
  /// one line it does; without that the `]` ended the record and the array was left open to the
  /// input's end. Over lines a stray `]` (or a lost quote that turns brackets inside strings into
  /// structure) is rather damage inside the element, and the next line's column ends it — unless
  /// nothing of the array follows the element (`lastRecordTookArrayCloser`).
  func onlyObjectsOpenInRecord() -> Bool {
    guard depth <= Self.trackedDepth, recordDepth > 0, frames[recordDepth].role == .records,
      !frames[recordDepth].isObject
    else { return false }
    return (recordDepth + 1...depth).allSatisfy { frames[$0].isObject }
  }

  /// Whether the last record held a `]` only its array could take (`recordHoldsArrayCloser`) and
  /// nothing of its array came after it — no `,`, no element, no problem reported: when the input
  /// ends so (`{"a":1]` the last element of an array over lines), that `]` was the array's, left
  /// in the element by its damage, and the array is closed, not left open to fail the run as cut
  /// off.
  func lastRecordTookArrayCloser() -> Bool {
    closerRecordPosition == position && !recordOpen && depth == closerRecordDepth && expect == .commaOrClose
      && mode == .structural
  }

  /// Whether a line starting with `byte` at `column`, inside the open record, is rather the `,`
  /// before the record's array's next element, written comma-first (`[ {…}` then `, {…}` lines):
  /// the `,` stands left of where the record started, where none of the record's own can stand.
  /// Without it, a broken element in such an array ran on to the array's end, and the elements
  /// after it were neither accepted nor rejected.
  func leadsNextElement(_ byte: UInt8, column: Int) -> Bool {
    byte == .comma && column < recordColumn && recordDepth > 0 && recordDepth <= Self.trackedDepth
      && frames[recordDepth].role == .records && !frames[recordDepth].isObject
  }

  /// At such a `,`: a broken record ends before it, and the `,` separates the next element; so
  /// does one the `,` would break, cut where no `,` can come (after a key, a `:`, a `[` or an
  /// array's `,`): taken as the record's, the `,` let the next element's `{` open a value inside
  /// it, and that element was swallowed. One that is not broken (a lost `}`: the grammar takes the
  /// `,` as its own) ends at a `{` where a key belongs on this line
  /// (`startsNextElementInKeyPosition`), as on an array's one line.
  mutating func leadNextElement(at index: Int, spans: inout [RecordSpan]) {
    if recordBroken || (depth <= Self.trackedDepth && expect != .commaOrClose) {
      closeRecordBeforeArrayEnd(at: index, spans: &spans)
    } else {
      commaLeadLine = line
    }
  }

  /// Whether a line starting with `byte` at `column`, inside the open record, is rather the `}` of
  /// the wrapper object holding the record's array: the record is broken and holds a `]` only that
  /// array could take (`recordHoldsArrayCloser`: the array ended inside the element's damage, as
  /// in `{"id":"1,"x":2}]` whose lost quote made `}]` a string), and the `}` stands left of where
  /// the record started, as the wrapper's does when its elements are indented. The record's own
  /// `}` sits at its column or further right.
  func closesWrapperBefore(_ byte: UInt8, column: Int) -> Bool {
    recordHoldsArrayCloser && byte == .closeBrace && column < recordColumn && recordBroken && recordDepth > 1
      && recordDepth <= Self.trackedDepth && frames[recordDepth].role == .records && !frames[recordDepth].isObject
      && frames[recordDepth - 1].isObject
  }

  /// The wrapper's `}` came inside the broken record (`closesWrapperBefore`): the record is cut
  /// there and its array closed, and the `}` is then walked as the wrapper's.
  mutating func closeRecordsBeforeWrapperEnd(at index: Int, spans: inout [RecordSpan]) {
    closeRecordBeforeArrayEnd(at: index, spans: &spans)
    pop(at: index, spans: &spans)
    // The `]` lies in the rejected element's text: a reopened array (`reopenRecords`) names it no more.
    closedRecordsReported = true
  }

  /// Whether a value here (`expect == .value`) is the first thing after a `,` that followed a
  /// record holding its array's `]` (`lastRecordTookArrayCloser`: nothing else of the array came,
  /// as anything between would have opened a record or reported a problem), in an array a wrapper
  /// object holds (the recognised wrappers' or `--items`' objects): a string there may be that
  /// object's next member's key (`takeWrapperMember`).
  func followsArrayCloser() -> Bool {
    closerRecordPosition == position && !recordOpen && depth == closerRecordDepth && depth > 1
      && depth - 1 <= Self.trackedDepth && frames[depth - 1].isObject && frames[depth - 1].role == .navigate
  }

  /// A `,`, a string and now a `:` after a record that held its array's `]`
  /// (`lastRecordTookArrayCloser`): an element string is followed by `,` or `]`, never `:`, so
  /// this is the wrapper's next member (`{"a":1]` then `,"count":4` or `,"pending":[…]`). That
  /// `]` was the array's: the array is closed as it would have closed, the string is not a record
  /// but the member's key, matched as keys are, and the member's value comes next.
  mutating func takeWrapperMember(at index: Int, spans: inout [RecordSpan]) {
    recordOpen = false
    recordValueEnded = false
    recordMayBeWrapperKey = false
    depth = closerRecordDepth
    mode = .structural
    pop(at: index, spans: &spans)
    // The `]` lies in the rejected element's text: a reopened array (`reopenRecords`) names it no more.
    closedRecordsReported = true
    matchKey()
    captureKey = false
    expect = .value
  }

  /// Whether a `}` at the array's level, in that state, is rather its wrapper's, which closes the
  /// array first: it comes on a line after an element written on one line (`{"a":1]`, then `}`
  /// starting a line). On the element's own line (`{"a":1]}`), or after an element over lines
  /// (whose own `}` stands on a line of its own), the `}` is rather the element's, stray as before.
  func closesWrapperAfterLastRecord() -> Bool {
    lastRecordTookArrayCloser() && closerRecordOnOneLine && line > closerRecordLine && depth > 1
      && depth - 1 <= Self.trackedDepth && frames[depth - 1].isObject
  }

  /// Inside a broken record, the `]` of its array comes: the record is cut
  /// there (the scanner will reject it) and the `]` closes the array.
  mutating func closeRecordBeforeArrayEnd(at index: Int, spans: inout [RecordSpan]) {
    cutRecord(at: index, spans: &spans, then: .commaOrClose)
  }

  /// Inside a record, the next element begins: the record is cut there (the
  /// scanner will reject it) and the walk goes on as if the record's array
  /// expected its next element.
  mutating func resynchronise(at index: Int, spans: inout [RecordSpan]) {
    cutRecord(at: index, spans: &spans, then: .value)
  }

  /// Cuts the broken record at `index` (counted as an error; a probe stops
  /// there) and goes on at its array's depth, expecting `next`.
  private mutating func cutRecord(at index: Int, spans: inout [RecordSpan], then next: Expect) {
    errors += 1
    if probing { stopRequested = true }
    depth = recordDepth
    closeRecord(at: index, spans: &spans)
    expect = next
  }

  /// A value where an array needed `,`: in an array of records the element
  /// is read and rejected as `missingSeparator`.
  mutating func missingComma(_ byte: UInt8, at index: Int, spans: inout [RecordSpan]) {
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
  mutating func noteError(at index: Int, byte: UInt8, spans: inout [RecordSpan]) {
    errors += 1
    if probing { stopRequested = true }
    if recordOpen {
      recordBroken = true
      if lineErrorLine != line {
        lineErrorLine = line
        lineErrorStart = index
      }
    } else {
      spans.append(
        RecordSpan(
          start: index, end: index,
          framing: RecordFraming(
            line: line, position: nextPosition(), offset: offset(at: index), problem: .outsideRecords, byte: byte)))
    }
  }

  mutating func append(problem: FramingProblem, at index: Int, spans: inout [RecordSpan]) {
    append(problem: problem, at: index, line: line, offset: offset(at: index), spans: &spans)
  }

  /// Reports a problem found at `index` that belongs to `line` and `offset`, where it was.
  mutating func append(
    problem: FramingProblem, at index: Int, line: Int, offset: Int64, byte: UInt8 = 0, spans: inout [RecordSpan]
  ) {
    errors += 1
    if probing { stopRequested = true }
    spans.append(
      RecordSpan(
        start: index, end: index,
        framing: RecordFraming(line: line, position: nextPosition(), offset: offset, problem: problem, byte: byte)))
  }

  mutating func nextPosition() -> Int {
    position += 1
    return position
  }

  /// Where byte `index` of the current buffer is in the input.
  @inline(__always)
  func offset(at index: Int) -> Int64 {
    inputOffset + Int64(bufferBase + index)
  }

  // MARK: Keys

  @inline(__always)
  mutating func startKey() {
    mode = .string
    stringIsKey = true
    captureKey = !recordOpen && depth > 0 && depth <= Self.trackedDepth && frames[depth].role == .navigate
    if captureKey {
      key.removeAll(keepingCapacity: true)
      keyTooLong = false
      keyEscaped = false
    }
  }

  @inline(__always)
  mutating func endString(at end: Int, spans: inout [RecordSpan]) {
    mode = .structural
    if stringIsKey {
      expect = .colon
      if captureKey { matchKey() }
      captureKey = false
    } else {
      if capturingAccountValue != 0 {
        if captureKey { keepAccountValue() }
        capturingAccountValue = 0
        captureKey = false
      }
      valueEnded(at: end, spans: &spans)
    }
  }

  /// The report account's `iban` or `resourceId` just read (in `key`): kept
  /// when it is a non-empty string of at most `keyCapacity` bytes.
  mutating func keepAccountValue() {
    var value = key
    if keyEscaped {
      keyScratch.removeAll(keepingCapacity: true)
      guard key.withUnsafeBufferPointer({ StringDecoder.decode($0, into: &keyScratch) }) else { return }
      value = keyScratch
    }
    guard !keyTooLong, !value.isEmpty else { return }
    if capturingAccountValue == 1 { reportIBAN = value } else { reportResourceID = value }
    accountIndex = -1
  }

  /// The index in `accounts` of the current document's account (its IBAN, else
  /// its resource id), added on first use; -1 when it has none.
  mutating func currentAccountIndex() -> Int32 {
    if accountIndex >= 0 { return accountIndex }
    guard let account = reportIBAN ?? reportResourceID else { return -1 }
    accounts.append(account)
    accountIndex = Int32(accounts.count - 1)
    return accountIndex
  }

  /// The accounts the records handed out so far name, for their chunk; the
  /// next record's account starts a new list.
  mutating func takeAccounts() -> [[UInt8]] {
    defer {
      accounts = []
      accountIndex = -1
    }
    return accounts
  }

  /// Decides what the value of the key just read leads to.
  mutating func matchKey() {
    pendingArray = nil
    pendingObject = nil
    pendingHint = nil
    pendingKey = []
    pendingAccountValue = 0
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
        pendingHint = .items
        pendingKey = .items
      } else if name.elementsEqual("transactions".utf8) {
        pendingArray = records(.none)
        pendingObject = navigate(Self.psd2Transactions)
        pendingHint = .transactions
        pendingKey = .transactions
      } else if name.elementsEqual("account".utf8) {
        pendingObject = navigate(Self.accountObject)
      }
    } else if level == Self.accountObject {
      if name.elementsEqual("iban".utf8) {
        pendingAccountValue = 1
      } else if name.elementsEqual("resourceId".utf8) {
        pendingAccountValue = 2
      }
    } else if level == Self.psd2Transactions {
      let implied = ImpliedState.forArray(key: name)
      if implied != .none {
        pendingArray = records(implied)
        pendingHint = .bookedOrPending
        pendingKey = implied == .completed ? .booked : .pending
      }
    } else if let itemsPath, level < itemsPath.count, name == itemsPath[level] {
      pendingKey = .itemsPath
      if level == itemsPath.count - 1 {
        let implied = ImpliedState.forArray(key: name)
        pendingArray = records(implied)
        pendingObject = navigate(Self.wrapperRoot)
        if implied != .none { pendingHint = .bookedOrPending }
      } else {
        pendingObject = navigate(level + 1)
      }
    }
  }
}
