extension StringDecoder {
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
