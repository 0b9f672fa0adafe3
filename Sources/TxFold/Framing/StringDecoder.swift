/// Decodes the body of a JSON string (already validated by `RecordScanner`)
/// into UTF-8 bytes: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX`
/// escapes, with surrogate pairs joined.
///
/// Only strings a report keeps are decoded, so this is off the per-field path;
/// `isDecodable(_:)` validates the others without writing them.
@usableFromInline package enum StringDecoder {
  /// Appends the decoded bytes of `body` to `out`. Returns `false` for an
  /// escaped lone surrogate (`\ud800` without its pair), which has no UTF-8
  /// form: the record is rejected as `invalid-utf8` rather than altered.
  @inlinable
  public static func decode(_ body: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
    var index = 0
    let count = body.count
    while index < count {
      let byte = body[index]
      if byte != .backslash {
        out.append(byte)
        index += 1
        continue
      }
      guard index + 1 < count else { return false }
      let escape = body[index + 1]
      index += 2
      switch escape {
      case .lowerB: out.append(0x08)
      case .lowerF: out.append(0x0C)
      case .lowerN: out.append(.newline)
      case .lowerR: out.append(.carriageReturn)
      case .lowerT: out.append(.tab)
      case .lowerU:
        guard let unit = hex4(body, index) else { return false }
        index += 4
        var scalar = UInt32(unit)
        if unit >= 0xD800 && unit <= 0xDBFF {
          // A high surrogate must be followed by an escaped low surrogate.
          guard index + 6 <= count, body[index] == .backslash, body[index + 1] == .lowerU,
            let low = hex4(body, index + 2), low >= 0xDC00, low <= 0xDFFF
          else { return false }
          index += 6
          scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
          return false
        }
        appendUTF8(scalar, to: &out)
      default: out.append(escape)  // `"`, `\` and `/` stand for themselves.
      }
    }
    return true
  }

  /// Whether `body` decodes, without decoding it: `false` exactly when
  /// `decode(_:into:)` would return `false` (an escaped lone surrogate, or an
  /// escape the scanner would not have let through). The decoder validates
  /// the strings the scanner found with `isDecodableScanned`, which takes
  /// their escapes as validated, and decodes them only if they are kept.
  ///
  /// - Complexity: O(n), no writes.
  @inlinable
  public static func isDecodable(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = body.count
    while true {
      // The bytes between escapes need no look: skipped eight at a time.
      index = nextBackslash(body, from: index)
      guard index < count else { return true }
      guard index + 1 < count else { return false }
      let escape = body[index + 1]
      index += 2
      guard escape == .lowerU else { continue }
      guard let unit = hex4(body, index) else { return false }
      index += 4
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard index + 6 <= count, body[index] == .backslash, body[index + 1] == .lowerU,
          let low = hex4(body, index + 2), low >= 0xDC00, low <= 0xDFFF
        else { return false }
        index += 6
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        return false
      }
    }
    return true
  }

  /// Decodes a whole string body to a Swift `String`, or `nil` for a lone surrogate.
  public static func decodeToString(_ body: UnsafeBufferPointer<UInt8>) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(body.count)
    guard decode(body, into: &bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  @inlinable
  static func hex4(_ body: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16? {
    guard at + 4 <= body.count else { return nil }
    var value: UInt16 = 0
    for offset in 0..<4 {
      guard let digit = hexValue(body[at + offset]) else { return nil }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// The value of one hexadecimal digit, or `nil`.
  @inlinable
  public static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case .zero ... .nine: return byte - .zero
    case .lowerA ... .lowerF: return byte - .lowerA + 10
    case .upperA ... .upperF: return byte - .upperA + 10
    default: return nil
    }
  }

  @inlinable
  static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      out.append(UInt8(0xF0 | (scalar >> 18)))
      out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }
}
