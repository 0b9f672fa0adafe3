/// Writes JSON string literals for the machine formats.
///
/// Escapes exactly what RFC 8259 requires: `"` as `\"`, `\` as `\\`, and the
/// control characters below U+0020 — as `\n`, `\r`, `\t`, `\b`, `\f`, or
/// `\u00XX` (lower-case hex) for the others. Every other byte, including
/// non-ASCII UTF-8 such as `é` and DEL, passes through unchanged, so the output
/// stays readable and round-trips byte for byte. The input must be valid UTF-8
/// (a Swift `String` always is).
enum JSONEscaping {
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
  private static let backspace: UInt8 = 0x08
  private static let formFeed: UInt8 = 0x0C
  /// The first byte that needs no escape (U+0020 SPACE).
  private static let firstPlain: UInt8 = 0x20

  /// Appends `"…"` with the string's UTF-8, escaped.
  static func appendString(_ string: String, to out: inout [UInt8]) {
    // A native string's UTF-8 is contiguous: copied in runs, not byte by byte
    // (the reports' member ids and descriptions were a tenth of a run).
    let copied: Void? = string.utf8.withContiguousStorageIfAvailable { appendString(contiguous: $0, to: &out) }
    if copied == nil { appendString(bytes: string.utf8, to: &out) }
  }

  /// `appendString(bytes:to:)` for bytes in memory: runs that need no
  /// escape (nearly every string) are copied whole rather than byte by byte.
  static func appendString(contiguous bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(.quote)
    var plainFrom = 0
    for index in 0..<bytes.count {
      let byte = bytes[index]
      if byte >= firstPlain && byte != .quote && byte != .backslash { continue }
      if index > plainFrom { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<index])) }
      appendEscape(byte, to: &out)
      plainFrom = index + 1
    }
    if bytes.count > plainFrom { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom...])) }
    out.append(.quote)
  }

  /// Appends `"…"` with the given UTF-8 bytes, escaped.
  static func appendString<Bytes: Sequence>(bytes: Bytes, to out: inout [UInt8]) where Bytes.Element == UInt8 {
    out.append(.quote)
    for byte in bytes {
      if byte >= firstPlain && byte != .quote && byte != .backslash {
        out.append(byte)
        continue
      }
      appendEscape(byte, to: &out)
    }
    out.append(.quote)
  }

  /// The escape of a byte that needs one: `\"`, `\\`, a short control escape or `\u00XX`.
  private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
    out.append(.backslash)
    switch byte {
    case .quote: out.append(.quote)
    case .backslash: out.append(.backslash)
    case .newline: out.append(.lowerN)
    case .carriageReturn: out.append(.lowerR)
    case .tab: out.append(.lowerT)
    case backspace: out.append(.lowerB)
    case formFeed: out.append(.lowerF)
    default:
      out.append(.lowerU)
      out.append(.zero)
      out.append(.zero)
      out.append(hexDigits[Int(byte >> 4)])
      out.append(hexDigits[Int(byte & 0x0F)])
    }
  }
}
