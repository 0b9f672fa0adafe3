import CJSONIndex

/// The fast path of `RecordScanner.scan(_:)`: grammar over a token index.
///
/// Design: `txfold_json_index` (the C target `CJSONIndex`, vectorised) lists
/// where every token of the record starts — structural characters and quotes
/// outside strings, the first byte of each scalar — and which string bytes are
/// backslashes or non-ASCII. This pass then walks the tokens instead of the
/// bytes: a string is its two quote tokens (its body is read only when a
/// special byte lies inside it, to validate escapes and UTF-8), a key is
/// matched by its length and bytes, and only numbers and literals are read
/// byte by byte. Most records are about 400 bytes and 110 tokens, so this is
/// a quarter of the work of the byte state machine in `RecordScanner+Unsafe.swift`.
///
/// The fast path never decides a rejection. Whenever anything is off — a
/// grammar error, a control character in a string, an unterminated string, too
/// deep a nesting, a top level that is not an object — it gives up, and the
/// byte state machine scans the record again and names the reason and the
/// offset. So reasons and offsets are those of the byte scanner by
/// construction, and a test checks on mutated records that the two paths agree
/// whenever the fast path accepts.
extension RecordScanner {
  /// Scans a record through the token index; `false` means "not decided
  /// here" and leaves the slots in an unspecified state.
  // swiftlint:disable:next function_body_length cyclomatic_complexity
  @inlinable
  func scanIndexed(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var specialCount = 0
    var flags: UInt32 = 0
    let tokenCount = txfold_json_index(bytes, count, tokens, specials, &specialCount, &flags, indexKernel)
    guard flags == 0, tokenCount > 0 else { return false }
    let tokens = self.tokens
    let slots = self.slots
    let isObject = containerIsObject
    let nodes = containerNode
    // Safe because every token and special is an offset below `count`, the
    // index holds `tokenCount` tokens followed by the sentinel below, and every
    // read of `tokens[k]` is preceded by a check that k < tokenCount, or, on
    // the key path, follows from the index (see `.key`) that k <= tokenCount.
    // Token arithmetic wraps (`&+`) without checks: token <= tokenCount <=
    // indexedLimit, far from overflow.
    guard bytes[Int(tokens[0])] == .openBrace else { return false }
    // The sentinel: one token past the last, the top-level `{` again (the index leaves slack
    // for it). Where the key path reads it, as a key, a colon, a string value or a comma, a `{`
    // is none of them, so the record ends there as it would on a count check: by the checks
    // of `.value` and `.afterValue`, or by giving up.
    tokens[tokenCount] = tokens[0]
    var nextSpecial = specialCount > 0 ? Int(specials[0]) : Int.max
    var specialIndex = 0
    var depth = 0
    var token = 0
    var pendingSlot = -1
    var pendingNode = 0
    var state = State.value
    while true {
      switch state {
      case .value:
        let at = Int(tokens[token])
        let byte = bytes[at]
        switch byte {
        case .openBrace, .openBracket:
          if depth == Self.maxDepth { return false }
          let opensObject = byte == .openBrace
          if pendingSlot >= 0 {
            slots[pendingSlot] = ValueRef(start: at, end: at, kind: opensObject ? .object : .array)
          }
          depth += 1
          isObject[depth] = opensObject ? 1 : 0
          // Safe because depth <= maxDepth, checked above.
          nodes[depth] = opensObject ? Int32(pendingNode) : -1
          pendingSlot = -1
          pendingNode = -1
          token &+= 1
          guard token < tokenCount else { return false }
          if bytes[Int(tokens[token])] == (opensObject ? UInt8.closeBrace : .closeBracket) {
            depth -= 1
            token &+= 1
            state = .afterValue
          } else {
            state = opensObject ? .key : .value
          }
          continue
        case .quote:
          // Safe because quotes pair up in the index (an unterminated string is flagged).
          guard token &+ 1 < tokenCount else { return false }
          let close = Int(tokens[token &+ 1])
          var kind = ValueRef.Kind.string
          if nextSpecial < close {
            guard let escaped = validateSpecials(bytes, before: close, &specialIndex, &nextSpecial, specialCount) else {
              return false
            }
            if escaped { kind = .escapedString }
          }
          if pendingSlot >= 0 { slots[pendingSlot] = ValueRef(start: at + 1, end: close, kind: kind) }
          token &+= 2
        case .minus, .zero ... .nine:
          guard let end = scanNumber(bytes, at, count),
            scalarEnds(bytes, end, count, nextToken: token &+ 1 < tokenCount ? Int(tokens[token &+ 1]) : count)
          else { return false }
          if pendingSlot >= 0 { slots[pendingSlot] = ValueRef(start: at, end: end, kind: .number) }
          token &+= 1
        case .lowerT, .lowerF, .lowerN:
          let (literal, kind): (StaticString, ValueRef.Kind) =
            byte == .lowerT ? ("true", .trueValue) : byte == .lowerF ? ("false", .falseValue) : ("null", .null)
          let end = at + literal.utf8CodeUnitCount
          guard end <= count, Self.bytesEqual(bytes + at, literal.utf8Start, literal.utf8CodeUnitCount),
            scalarEnds(bytes, end, count, nextToken: token &+ 1 < tokenCount ? Int(tokens[token &+ 1]) : count)
          else { return false }
          if pendingSlot >= 0 { slots[pendingSlot] = ValueRef(start: at, end: end, kind: kind) }
          token &+= 1
        default:
          return false
        }
        pendingSlot = -1
        pendingNode = -1
        state = .afterValue

      case .key:
        // The common case, straight through: a key, its colon and a string value, then `,`
        // and the next key. Anything else goes through `.value` and `.afterValue`.
        // Entered with token <= tokenCount (at tokenCount, the sentinel's `{` gives up). Its
        // reads need no count checks: a quote token's closing quote is the next token (the
        // index pairs them and flags an unterminated string), so each read is at most one
        // past a token known to exist, and the furthest is the sentinel.
        let at = Int(tokens[token])
        guard bytes[at] == .quote else {
          // `,}`: a trailing comma (the empty object `{}` is handled where it opens).
          guard allowTrailingCommas, bytes[at] == .closeBrace else { return false }
          depth -= 1
          token &+= 1
          state = .afterValue
          continue
        }
        guard bytes[Int(tokens[token &+ 2])] == .colon else { return false }
        let close = Int(tokens[token &+ 1])
        var escaped = false
        if nextSpecial < close {
          guard let keyEscaped = validateSpecials(bytes, before: close, &specialIndex, &nextSpecial, specialCount)
          else {
            return false
          }
          escaped = keyEscaped
        }
        let node = Int(nodes[depth])
        var slot = -1
        var child = -1
        if node >= 0 {
          // `matchKey`'s two cases, written out: through `matchKey` the compiler keeps this hot
          // loop's state in memory across the call instead of in registers.
          if escaped {
            (slot, child) = matchEscapedKey(node: node, bytes + at + 1, close - at - 1)
          } else {
            (slot, child) = matchPlainKey(node: node, bytes + at + 1, close - at - 1, readable: count - at - 1)
          }
          if child >= 0 { clearSlots(under: child, slots) }
        }
        token &+= 3
        let valueAt = Int(tokens[token])
        guard bytes[valueAt] == .quote else {
          pendingSlot = slot
          pendingNode = child
          state = .value
          continue
        }
        let valueClose = Int(tokens[token &+ 1])
        var kind = ValueRef.Kind.string
        if nextSpecial < valueClose {
          guard
            let valueEscaped = validateSpecials(bytes, before: valueClose, &specialIndex, &nextSpecial, specialCount)
          else {
            return false
          }
          if valueEscaped { kind = .escapedString }
        }
        if slot >= 0 { slots[slot] = ValueRef(start: valueAt + 1, end: valueClose, kind: kind) }
        token &+= 2
        if bytes[Int(tokens[token])] == .comma {
          token &+= 1
          continue
        }
        state = .afterValue

      case .afterValue:
        if depth == 0 {
          // The top-level object has closed: it must be the last token.
          return token == tokenCount
        }
        guard token < tokenCount else { return false }
        let byte = bytes[Int(tokens[token])]
        let inObject = isObject[depth] == 1
        if byte == .comma {
          token &+= 1
          guard token < tokenCount else { return false }
          if bytes[Int(tokens[token])] == (inObject ? UInt8.closeBrace : .closeBracket) {
            guard allowTrailingCommas else { return false }
            depth -= 1
            token &+= 1
          } else {
            state = inObject ? .key : .value
          }
        } else if byte == (inObject ? UInt8.closeBrace : .closeBracket) {
          depth -= 1
          token &+= 1
        } else {
          return false
        }
      }
    }
  }

  /// Validates the special bytes of one string — its backslashes and non-ASCII
  /// bytes, listed in `specials` from `index` on, up to its closing quote at
  /// `close` — and moves `index` and `next` past them. The bytes between
  /// specials need no look: the index lists every backslash and non-ASCII byte
  /// of a string and flags any control character. Accepts exactly what the
  /// byte scanner's `scanString` accepts (a test and the fuzz target compare
  /// them). Returns whether the string has escapes, or `nil` when it is invalid.
  @inlinable
  func validateSpecials(
    _ bytes: UnsafePointer<UInt8>, before close: Int, _ index: inout Int, _ next: inout Int, _ count: Int
  ) -> Bool? {
    var escaped = false
    var position = index
    // Safe because position < count before each read of specials, every
    // special lies inside the record, and every byte read below is checked
    // against `close`, which is inside the record.
    while position < count {
      let at = Int(specials[position])
      if at >= close { break }
      if bytes[at] == .backslash {
        escaped = true
        // The escaped byte cannot be the closing quote (that quote would be escaped), so at + 1 < close.
        switch bytes[at &+ 1] {
        case .backslash:
          // Both backslashes are specials.
          position &+= 2
        case .quote, .slash, .lowerB, .lowerF, .lowerN, .lowerR, .lowerT:
          position &+= 1
        case .lowerU:
          guard at &+ 6 <= close else { return nil }
          for offset in 2..<6 where StringDecoder.hexValue(bytes[at &+ offset]) == nil { return nil }
          position &+= 1
        default:
          return nil
        }
      } else {
        // A lead byte: its continuation bytes, specials too, follow it in the list.
        guard let length = Self.utf8SequenceLength(bytes, at, close) else { return nil }
        position &+= length
      }
    }
    index = position
    next = position < count ? Int(specials[position]) : Int.max
    return escaped
  }

  /// True when a number or literal ending at `end` is followed by whitespace,
  /// the next token or the end: anything else means the scalar's run of bytes
  /// holds more than the scalar.
  @inlinable @inline(__always)
  func scalarEnds(_ bytes: UnsafePointer<UInt8>, _ end: Int, _ count: Int, nextToken: Int) -> Bool {
    // Safe because end < count is checked before the read.
    end == count || end == nextToken || bytes[end].isJSONWhitespace
  }
}
