extension StringDecoder {
  /// The position of the first backslash in `body` at or after `start`, or
  /// `body.count` when there is none; eight bytes at a time.
  ///
  /// A word XORed with eight backslashes has a zero byte where a backslash
  /// was; `(x - 0x01…) & ~x & 0x80…` sets the top bit of the first zero byte
  /// exactly (a borrow can only mark bytes above it), found by counting
  /// trailing zeros of the little-endian word.
  @inlinable @inline(__always)
  static func nextBackslash(_ body: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let count = body.count
    guard let base = body.baseAddress else { return count }
    let raw = UnsafeRawPointer(base)
    var index = start
    while index + 8 <= count {
      // Safe because index + 8 <= count: the load lies within the body.
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let flipped = word ^ 0x5C5C_5C5C_5C5C_5C5C
      let found = (flipped &- 0x0101_0101_0101_0101) & ~flipped & 0x8080_8080_8080_8080
      if found != 0 { return index + found.trailingZeroBitCount / 8 }
      index += 8
    }
    // Safe because index < count inside the loop.
    while index < count && base[index] != .backslash { index += 1 }
    return index
  }

  /// `isDecodable(_:)` for the body of a string `RecordScanner` accepted:
  /// there every backslash starts a valid escape — one of `"\/bfnrt`, or
  /// `u` and four hexadecimal digits (the scanner validates escapes, see its
  /// design note) — so only escaped surrogates need a look, and of those only
  /// their first two digits: `\uD800`–`\uDBFF` (`d` or `D`, then one of
  /// `89abAB`) must be followed by an escaped `\uDC00`–`\uDFFF` (`d` or `D`,
  /// then one of `c`–`f` or `C`–`F`), and `\uDC00`–`\uDFFF` must not come
  /// alone. The hexadecimal digits are not checked again, so other text
  /// (`\uzz00`) may get another answer than `isDecodable`'s.
  ///
  /// Example: `caf\u00e9` is decodable after one look at `0`; `\ud83d\ude00`
  /// after a look at `d8`, then at `\ude`.
  ///
  /// - Complexity: O(n), no writes.
  @inlinable @inline(__always)
  static func isDecodableScanned(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = body.count
    guard let base = body.baseAddress else { return true }
    var index = 0
    while true {
      index = nextBackslash(body, from: index)
      // Safe because index + 1 < count is checked before the read of the escaped byte.
      guard index &+ 1 < count else { return index >= count }
      guard base[index &+ 1] == .lowerU else {
        index &+= 2
        continue
      }
      // A scanned `\u` has its four digits: index + 6 <= count.
      guard index &+ 6 <= count else { return false }
      // Safe because index + 6 <= count.
      let kind = surrogateKind(base[index &+ 2], base[index &+ 3])
      index &+= 6
      if kind == 0 { continue }
      // A low surrogate alone, or a high one without an escaped low one next.
      guard kind == 1, index &+ 6 <= count, base[index] == .backslash, base[index &+ 1] == .lowerU,
        surrogateKind(base[index &+ 2], base[index &+ 3]) == 2
      else { return false }
      index &+= 6
    }
  }

  /// What the first two hexadecimal digits of a `\u` escape make it: 1 for
  /// a high surrogate (`D8`–`DB`), 2 for a low one (`DC`–`DF`), 0 for no
  /// surrogate. Lower-cased with 0x20, `d` and `8`–`9` keep their codes and
  /// `a`–`f` are 0x61–0x66.
  @inlinable @inline(__always)
  static func surrogateKind(_ first: UInt8, _ second: UInt8) -> Int {
    guard first | 0x20 == UInt8(ascii: "d") else { return 0 }
    let low = second | 0x20
    if low == UInt8(ascii: "8") || low == UInt8(ascii: "9") || low == .lowerA || low == .lowerB { return 1 }
    return low >= UInt8(ascii: "c") && low <= .lowerF ? 2 : 0
  }

  /// Decodes `body` into `out`, which must have room for `body.count` bytes,
  /// and returns how many it wrote; `nil` when `decode(_:into:)` would
  /// return `false`.
  ///
  /// Decoding never lengthens a string: a plain byte stays one byte, a
  /// two-byte escape becomes one byte, `\uXXXX` (six bytes) at most three and
  /// a surrogate pair (twelve) four. So `body.count` bytes always suffice.
  ///
  /// The bytes between escapes are copied eight at a time: each word is
  /// stored as it is loaded, and only its bytes before a backslash count as
  /// written (the next ones are written over). So any of the `body.count`
  /// bytes of room may be written, not only the first `written`.
  ///
  /// - Complexity: O(n), no allocation.
  @inlinable
  static func decode(_ body: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    var index = 0
    var written = 0
    let count = body.count
    guard let base = body.baseAddress else { return 0 }
    @inline(__always) func put(_ byte: UInt8) {
      // Safe because each escape writes no more bytes than it reads (see above),
      // so `written` stays below `index` ≤ `count`, the room the caller gave.
      out[written] = byte
      written &+= 1
    }
    while index < count {
      // Safe because index + 8 <= count: the load lies within the body, and
      // written <= index, so the store lies within the room the caller gave.
      while index &+ 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
        let flipped = UInt64(littleEndian: word) ^ 0x5C5C_5C5C_5C5C_5C5C
        let found = (flipped &- 0x0101_0101_0101_0101) & ~flipped & 0x8080_8080_8080_8080
        if found != 0 {
          let plain = found.trailingZeroBitCount &>> 3
          index &+= plain
          written &+= plain
          break
        }
        index &+= 8
        written &+= 8
      }
      // Safe because index < count before each read.
      while index < count && base[index] != .backslash {
        put(base[index])
        index &+= 1
      }
      guard index < count else { break }
      // Safe because index + 1 < count is checked before the read, and each
      // `\u` escape's bytes are checked against count before they are read.
      guard index &+ 1 < count else { return nil }
      let escape = base[index &+ 1]
      index &+= 2
      switch escape {
      case .lowerB: put(0x08)
      case .lowerF: put(0x0C)
      case .lowerN: put(.newline)
      case .lowerR: put(.carriageReturn)
      case .lowerT: put(.tab)
      case .lowerU:
        guard index &+ 4 <= count, let unit = hex4(base + index) else { return nil }
        index &+= 4
        var scalar = UInt32(unit)
        if unit >= 0xD800 && unit <= 0xDBFF {
          guard index &+ 6 <= count, base[index] == .backslash, base[index &+ 1] == .lowerU,
            let low = hex4(base + (index &+ 2)), low >= 0xDC00, low <= 0xDFFF
          else { return nil }
          index &+= 6
          scalar = 0x10000 &+ ((UInt32(unit) &- 0xD800) &<< 10) &+ (UInt32(low) &- 0xDC00)
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
          return nil
        }
        switch scalar {
        case 0..<0x80:
          put(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
          put(UInt8(truncatingIfNeeded: 0xC0 | (scalar &>> 6)))
          put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
          put(UInt8(truncatingIfNeeded: 0xE0 | (scalar &>> 12)))
          put(UInt8(truncatingIfNeeded: 0x80 | ((scalar &>> 6) & 0x3F)))
          put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        default:
          put(UInt8(truncatingIfNeeded: 0xF0 | (scalar &>> 18)))
          put(UInt8(truncatingIfNeeded: 0x80 | ((scalar &>> 12) & 0x3F)))
          put(UInt8(truncatingIfNeeded: 0x80 | ((scalar &>> 6) & 0x3F)))
          put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        }
      default: put(escape)  // `"`, `\` and `/` stand for themselves.
      }
    }
    return written
  }

  /// The four hexadecimal digits at `at` as a number, or `nil` when one is
  /// not a hexadecimal digit (`hex4(_:_:)` on a pointer, in line).
  ///
  /// - Precondition: four bytes are readable at `at`.
  @inlinable @inline(__always)
  static func hex4(_ at: UnsafePointer<UInt8>) -> UInt16? {
    var value: UInt16 = 0
    for offset in 0..<4 {
      // Safe because the caller checked that four bytes are readable.
      let byte = at[offset]
      let decimal = byte &- .zero
      let letter = (byte | 0x20) &- .lowerA
      guard decimal < 10 || letter < 6 else { return nil }
      value = value &<< 4 | UInt16(decimal < 10 ? decimal : letter &+ 10)
    }
    return value
  }

  /// Calls `body` with the decoded bytes of a string body, decoded into
  /// temporary (stack, when small) memory; `nil` for a lone surrogate.
  ///
  /// - Complexity: O(n); no heap allocation for strings under a few KiB.
  @inlinable
  static func withDecoded<T>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, raw.count)) { buffer -> T? in
      // Safe because the buffer holds `raw.count` bytes, all that decoding can write.
      guard let base = buffer.baseAddress, let written = decode(raw, to: base) else { return nil }
      return body(UnsafeBufferPointer(start: base, count: written))
    }
  }
}
