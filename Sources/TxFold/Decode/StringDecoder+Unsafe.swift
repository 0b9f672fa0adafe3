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

  /// Decodes `body` into `out`, which must have room for `body.count` bytes,
  /// and returns how many it wrote; `nil` when `decode(_:into:)` would
  /// return `false`.
  ///
  /// Decoding never lengthens a string: a plain byte stays one byte, a
  /// two-byte escape becomes one byte, `\uXXXX` (six bytes) at most three and
  /// a surrogate pair (twelve) four. So `body.count` bytes always suffice.
  ///
  /// - Complexity: O(n), no allocation.
  @inlinable
  static func decode(_ body: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int? {
    var index = 0
    var written = 0
    let count = body.count
    @inline(__always) func put(_ byte: UInt8) {
      // Safe because each escape writes no more bytes than it reads (see above),
      // so `written` stays below `index` ≤ `count`, the room the caller gave.
      out[written] = byte
      written += 1
    }
    while index < count {
      let byte = body[index]
      if byte != .backslash {
        put(byte)
        index += 1
        continue
      }
      guard index + 1 < count else { return nil }
      let escape = body[index + 1]
      index += 2
      switch escape {
      case .lowerB: put(0x08)
      case .lowerF: put(0x0C)
      case .lowerN: put(.newline)
      case .lowerR: put(.carriageReturn)
      case .lowerT: put(.tab)
      case .lowerU:
        guard let unit = hex4(body, index) else { return nil }
        index += 4
        var scalar = UInt32(unit)
        if unit >= 0xD800 && unit <= 0xDBFF {
          guard index + 6 <= count, body[index] == .backslash, body[index + 1] == .lowerU,
            let low = hex4(body, index + 2), low >= 0xDC00, low <= 0xDFFF
          else { return nil }
          index += 6
          scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
          return nil
        }
        switch scalar {
        case 0..<0x80:
          put(UInt8(scalar))
        case 0x80..<0x800:
          put(UInt8(0xC0 | (scalar >> 6)))
          put(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
          put(UInt8(0xE0 | (scalar >> 12)))
          put(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
          put(UInt8(0x80 | (scalar & 0x3F)))
        default:
          put(UInt8(0xF0 | (scalar >> 18)))
          put(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
          put(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
          put(UInt8(0x80 | (scalar & 0x3F)))
        }
      default: put(escape)  // `"`, `\` and `/` stand for themselves.
      }
    }
    return written
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
