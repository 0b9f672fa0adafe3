import CJSONIndex

extension RecordScanner {
  /// Scans one record (without its line end). On success the slots hold the
  /// wanted values; on failure nothing about the slots is promised.
  ///
  /// - Complexity: O(n) in the record's length, one pass, no allocation.
  @inlinable
  public func scan(_ record: UnsafeBufferPointer<UInt8>) -> ScanFailure? {
    guard let base = record.baseAddress, record.count > 0 else {
      return ScanFailure(reason: .invalidJSON, offset: 0)
    }
    // Safe because the buffers hold slotCount and maxDepth + 1 elements.
    for index in 0..<slotCount { slots[index] = .absent }
    if indexKernel >= 0 && record.count <= Self.indexedLimit && scanIndexed(base, record.count) { return nil }
    // Not decided by the token index: the byte state machine accepts or names the reason.
    for index in 0..<slotCount { slots[index] = .absent }
    return scanUnsafe(base, record.count, slots, containerIsObject, containerNode)
  }

  @usableFromInline enum State { case value, key, afterValue }

  // swiftlint:disable:next function_body_length cyclomatic_complexity
  @inlinable
  func scanUnsafe(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, _ slots: UnsafeMutablePointer<ValueRef>,
    _ isObject: UnsafeMutablePointer<UInt8>, _ nodes: UnsafeMutablePointer<Int32>
  ) -> ScanFailure? {
    var index = skipWhitespace(bytes, 0, count)
    // Safe because skipWhitespace returns at most `count`, checked here.
    guard index < count else { return ScanFailure(reason: .invalidJSON, offset: index) }
    let topLevelIsObject = bytes[index] == .openBrace
    var depth = 0
    var state = State.value
    // The slot and child node of the key whose value comes next (-1: none).
    var pendingSlot = -1
    var pendingNode = topLevelIsObject ? 0 : -1
    while true {
      switch state {
      case .value:
        // Safe because every path that enters `.value` has checked index < count.
        let byte = bytes[index]
        switch byte {
        case .openBrace, .openBracket:
          if depth == Self.maxDepth { return ScanFailure(reason: .nestingTooDeep, offset: index) }
          if pendingSlot >= 0 {
            slots[pendingSlot] = ValueRef(start: index, end: index, kind: byte == .openBrace ? .object : .array)
          }
          depth += 1
          isObject[depth] = byte == .openBrace ? 1 : 0
          // Safe because depth <= maxDepth, checked above.
          nodes[depth] = byte == .openBrace ? Int32(pendingNode) : -1
          pendingSlot = -1
          pendingNode = -1
          index = skipWhitespace(bytes, index + 1, count)
          guard index < count else { return ScanFailure(reason: .invalidJSON, offset: index) }
          let closer: UInt8 = byte == .openBrace ? .closeBrace : .closeBracket
          if bytes[index] == closer {
            depth -= 1
            index += 1
            state = .afterValue
          } else {
            state = byte == .openBrace ? .key : .value
          }
        case .quote:
          let start = index + 1
          var escaped = false
          switch scanString(bytes, start, count, &escaped) {
          case .success(let end):
            if pendingSlot >= 0 {
              slots[pendingSlot] = ValueRef(start: start, end: end, kind: escaped ? .escapedString : .string)
            }
            index = end + 1
          case .failure(let failure):
            return failure
          }
          pendingSlot = -1
          pendingNode = -1
          state = .afterValue
        case .minus, .zero ... .nine:
          let start = index
          guard let end = scanNumber(bytes, start, count) else {
            return ScanFailure(reason: .invalidJSON, offset: start)
          }
          if pendingSlot >= 0 { slots[pendingSlot] = ValueRef(start: start, end: end, kind: .number) }
          index = end
          pendingSlot = -1
          pendingNode = -1
          state = .afterValue
        case .lowerT, .lowerF, .lowerN:
          let (literal, kind): (StaticString, ValueRef.Kind) =
            byte == .lowerT ? ("true", .trueValue) : byte == .lowerF ? ("false", .falseValue) : ("null", .null)
          let length = literal.utf8CodeUnitCount
          guard index + length <= count, SystemCalls.compareBytes(bytes + index, literal.utf8Start, count: length) == 0
          else {
            return ScanFailure(reason: .invalidJSON, offset: index)
          }
          if pendingSlot >= 0 { slots[pendingSlot] = ValueRef(start: index, end: index + length, kind: kind) }
          index += length
          pendingSlot = -1
          pendingNode = -1
          state = .afterValue
        default:
          return ScanFailure(reason: .invalidJSON, offset: index)
        }

      case .key:
        // Safe because `.key` is entered only after checking index < count.
        guard bytes[index] == .quote else { return ScanFailure(reason: .invalidJSON, offset: index) }
        let start = index + 1
        var escaped = false
        let end: Int
        switch scanString(bytes, start, count, &escaped) {
        case .success(let found): end = found
        case .failure(let failure): return failure
        }
        let node = Int(nodes[depth])
        if node >= 0 {
          let match = matchKey(node: node, bytes + start, end - start, escaped: escaped, readable: count - start)
          pendingSlot = match.slot
          pendingNode = match.child
          if match.child >= 0 { clearSlots(under: match.child, slots) }
        }
        index = skipWhitespace(bytes, end + 1, count)
        guard index < count, bytes[index] == .colon else { return ScanFailure(reason: .invalidJSON, offset: index) }
        index = skipWhitespace(bytes, index + 1, count)
        guard index < count else { return ScanFailure(reason: .invalidJSON, offset: index) }
        state = .value

      case .afterValue:
        index = skipWhitespace(bytes, index, count)
        if depth == 0 {
          guard index == count else { return ScanFailure(reason: .invalidJSON, offset: index) }
          return topLevelIsObject ? nil : ScanFailure(reason: .notAnObject, offset: 0)
        }
        guard index < count else { return ScanFailure(reason: .invalidJSON, offset: index) }
        let byte = bytes[index]
        let inObject = isObject[depth] == 1
        if byte == .comma {
          index = skipWhitespace(bytes, index + 1, count)
          guard index < count else { return ScanFailure(reason: .invalidJSON, offset: index) }
          let closer: UInt8 = inObject ? .closeBrace : .closeBracket
          if bytes[index] == closer {
            guard allowTrailingCommas else { return ScanFailure(reason: .invalidJSON, offset: index) }
            depth -= 1
            index += 1
            state = .afterValue
          } else {
            state = inObject ? .key : .value
          }
        } else if (byte == .closeBrace && inObject) || (byte == .closeBracket && !inObject) {
          depth -= 1
          index += 1
          state = .afterValue
        } else {
          return ScanFailure(reason: .invalidJSON, offset: index)
        }
      }
    }
  }

  /// Forgets what an earlier value of a key with nested wanted keys left in
  /// their slots: a key that comes again replaces its whole value (JSON's
  /// "last one wins"), so `"t":{"amount":1,"currency":"EUR"},"t":{"amount":2}`
  /// has no currency. A few stores, once per such key.
  @inlinable @inline(__always)
  func clearSlots(under node: Int, _ slots: UnsafeMutablePointer<ValueRef>) {
    // Safe because node is a trie node, subtreeStart holds node count + 1
    // offsets into subtreeSlots, and every listed slot is below slotCount.
    var index = Int(keys.subtreeStart[node])
    let end = Int(keys.subtreeStart[node &+ 1])
    while index < end {
      slots[Int(keys.subtreeSlots[index])] = .absent
      index &+= 1
    }
  }

  /// The slot and child node for a key in a trie node (-1 when not wanted);
  /// `readable` bytes may be read from the key's start (at least its length).
  @inlinable @inline(__always)
  func matchKey(node: Int, _ key: UnsafePointer<UInt8>, _ length: Int, escaped: Bool, readable: Int)
    -> (slot: Int, child: Int)
  {
    escaped ? matchEscapedKey(node: node, key, length) : matchPlainKey(node: node, key, length, readable: readable)
  }

  /// `matchKey` for a key written with escapes (rare): decoded, then compared.
  @inlinable @inline(never)
  func matchEscapedKey(node: Int, _ key: UnsafePointer<UInt8>, _ length: Int) -> (slot: Int, child: Int) {
    keyScratch.removeAll(keepingCapacity: true)
    guard StringDecoder.decode(UnsafeBufferPointer(start: key, count: length), into: &keyScratch) else {
      return (-1, -1)
    }
    return keyScratch.withUnsafeBufferPointer { decoded in
      guard let decodedBase = decoded.baseAddress else { return (-1, -1) }
      return matchListedKey(node: node, decodedBase, decoded.count)
    }
  }

  /// `matchKey` for a key without escapes: its bytes are the key. When 32
  /// bytes can be read from its start, the row's first key is compared in one
  /// 32-byte step, with no branch on the key's length; the row's other keys,
  /// keys over 32 bytes and keys near the record's end go through the row's list.
  @inlinable @inline(__always)
  func matchPlainKey(node: Int, _ key: UnsafePointer<UInt8>, _ length: Int, readable: Int) -> (slot: Int, child: Int) {
    // Safe because node < the trie's node count and rowHeads holds lengthRows entries per node.
    let row = keys.rowHeads + (node &* CompiledKeys.lengthRows &+ CompiledKeys.row(forLength: length))
    let headLength = Int(row.pointee.length)
    let entry: Int
    if headLength == length && readable >= 32 {
      // Safe because 32 bytes from `key` are readable, and the row's key is its first 32 bytes,
      // compared where it lies rather than copied out.
      if txfold_equal_prefix32(key, UnsafeRawPointer(row), length) != 0 {
        return (Int(row.pointee.slot), Int(row.pointee.child))
      }
      // The first key is compared in full: only the row's others are left.
      entry = Int(row.pointee.next)
    } else {
      if headLength == -2 { return (-1, -1) }
      // Safe because node < the trie's node count and byLength holds lengthRows entries per node.
      entry = Int(keys.byLength[node &* CompiledKeys.lengthRows &+ CompiledKeys.row(forLength: length)])
    }
    // One copy of the list's loop, so that the whole look-up stays small enough to be inlined
    // into the scanner's key loop.
    return matchListedKey(from: entry, key, length)
  }

  /// The look-up through the row's list alone: each entry of the key's length compared in turn.
  @inlinable @inline(__always)
  func matchListedKey(node: Int, _ key: UnsafePointer<UInt8>, _ length: Int) -> (slot: Int, child: Int) {
    // Safe because node < the trie's node count and byLength holds lengthRows entries per node.
    matchListedKey(
      from: Int(keys.byLength[node &* CompiledKeys.lengthRows &+ CompiledKeys.row(forLength: length)]), key, length)
  }

  /// The look-up through a row's list from `entry` on (-1: none left).
  @inlinable @inline(__always)
  func matchListedKey(from entry: Int, _ key: UnsafePointer<UInt8>, _ length: Int) -> (slot: Int, child: Int) {
    // Safe because rows link entries inside the compiled buffers.
    var entry = entry
    while entry >= 0 {
      let item = keys.entries[entry]
      if Int(item[1]) == length && Self.bytesEqual(keys.keyBytes + Int(item[0]), key, length) {
        return (Int(item[2]), Int(item[3]))
      }
      entry = Int(keys.nextInRow[entry])
    }
    return (-1, -1)
  }

  /// Compares two short byte ranges with a few word loads (keys are short; a
  /// `memcmp` call costs more than the comparison). The last load of each
  /// size overlaps the one before it rather than looping over the tail.
  @inlinable @inline(__always)
  static func bytesEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    @inline(__always) func equal<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
      UnsafeRawPointer(lhs + offset).loadUnaligned(as: Word.self)
        == UnsafeRawPointer(rhs + offset).loadUnaligned(as: Word.self)
    }
    // Safe because both ranges hold `length` bytes and each load lies inside them.
    if length >= 8 {
      if length <= 16 { return equal(UInt64.self, at: 0) && equal(UInt64.self, at: length &- 8) }
      var offset = 0
      while offset &+ 8 < length {
        if !equal(UInt64.self, at: offset) { return false }
        offset &+= 8
      }
      return equal(UInt64.self, at: length &- 8)
    }
    if length >= 4 { return equal(UInt32.self, at: 0) && equal(UInt32.self, at: length - 4) }
    var offset = 0
    while offset < length {
      if lhs[offset] != rhs[offset] { return false }
      offset += 1
    }
    return true
  }

  @inlinable
  func skipWhitespace(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ count: Int) -> Int {
    var index = from
    // Safe because index < count is checked before each read.
    while index < count && bytes[index].isJSONWhitespace { index += 1 }
    return index
  }

  /// Scans a string body starting after its opening quote; returns the index
  /// of the closing quote. Validates escapes, control characters and UTF-8.
  @inlinable @inline(__always)
  func scanString(
    _ bytes: UnsafePointer<UInt8>, _ from: Int, _ count: Int, _ escaped: inout Bool
  ) -> Result<Int, ScanFailure> {
    var index = from
    while true {
      // Eight plain ASCII bytes at a time: none is a quote, a backslash, a
      // control character or a non-ASCII byte.
      while index + 8 <= count {
        // Safe because index + 8 <= count.
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
        let special = Self.specialBytes(word)
        if special != 0 {
          // The lowest flagged byte is exact (borrows only flag bytes above a real match).
          index += special.trailingZeroBitCount >> 3
          break
        }
        index += 8
      }
      guard index < count else { return .failure(ScanFailure(reason: .invalidJSON, offset: index)) }
      // Safe because index < count.
      let byte = bytes[index]
      if byte == .quote { return .success(index) }
      if byte == .backslash {
        escaped = true
        guard index + 1 < count else { return .failure(ScanFailure(reason: .invalidJSON, offset: index)) }
        switch bytes[index + 1] {
        case .quote, .backslash, .slash, .lowerB, .lowerF, .lowerN, .lowerR, .lowerT:
          index += 2
        case .lowerU:
          guard index + 6 <= count else { return .failure(ScanFailure(reason: .invalidJSON, offset: index)) }
          for offset in 2..<6 where StringDecoder.hexValue(bytes[index + offset]) == nil {
            return .failure(ScanFailure(reason: .invalidJSON, offset: index))
          }
          index += 6
        default:
          return .failure(ScanFailure(reason: .invalidJSON, offset: index))
        }
        continue
      }
      if byte < 0x20 { return .failure(ScanFailure(reason: .invalidJSON, offset: index)) }
      if byte < 0x80 {
        index += 1
        continue
      }
      guard let length = Self.utf8SequenceLength(bytes, index, count) else {
        return .failure(ScanFailure(reason: .invalidUTF8, offset: index))
      }
      index += length
    }
  }

  /// The high bit set in each byte of `word` that is `"`, `\`, below 0x20 or
  /// above 0x7F; exact for the lowest such byte.
  @inlinable @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    // A byte above 0x7F has its own high bit set.
    word.stringStopLanes | (word & 0x8080_8080_8080_8080)
  }

  /// The length of the valid UTF-8 sequence starting at a non-ASCII byte, or
  /// `nil` when it is invalid (overlong, surrogate, above U+10FFFF, cut short).
  @inlinable
  static func utf8SequenceLength(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> Int? {
    let lead = bytes[index]
    @inline(__always) func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      at < count && bytes[at] >= low && bytes[at] <= high
    }
    switch lead {
    case 0xC2...0xDF:
      return continuation(index + 1) ? 2 : nil
    case 0xE0:
      return continuation(index + 1, 0xA0) && continuation(index + 2) ? 3 : nil
    case 0xE1...0xEC, 0xEE...0xEF:
      return continuation(index + 1) && continuation(index + 2) ? 3 : nil
    case 0xED:
      return continuation(index + 1, 0x80, 0x9F) && continuation(index + 2) ? 3 : nil
    case 0xF0:
      return continuation(index + 1, 0x90) && continuation(index + 2) && continuation(index + 3) ? 4 : nil
    case 0xF1...0xF3:
      return continuation(index + 1) && continuation(index + 2) && continuation(index + 3) ? 4 : nil
    case 0xF4:
      return continuation(index + 1, 0x80, 0x8F) && continuation(index + 2) && continuation(index + 3) ? 4 : nil
    default:
      return nil
    }
  }

  /// Scans a JSON number; returns the index after it, or `nil` when it breaks the grammar.
  @inlinable
  func scanNumber(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ count: Int) -> Int? {
    var index = from
    @inline(__always) func isDigit(_ at: Int) -> Bool { at < count && bytes[at] &- .zero < 10 }
    if bytes[index] == .minus { index += 1 }
    guard isDigit(index) else { return nil }
    if bytes[index] == .zero {
      index += 1
    } else {
      while isDigit(index) { index += 1 }
    }
    if index < count && bytes[index] == .dot {
      index += 1
      guard isDigit(index) else { return nil }
      while isDigit(index) { index += 1 }
    }
    if index < count && (bytes[index] == .lowerE || bytes[index] == .upperE) {
      index += 1
      if index < count && (bytes[index] == .plus || bytes[index] == .minus) { index += 1 }
      guard isDigit(index) else { return nil }
      while isDigit(index) { index += 1 }
    }
    return index
  }
}
