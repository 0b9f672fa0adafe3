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
    // (every member's id and description goes through here).
    let copied: Void? = string.utf8.withContiguousStorageIfAvailable { appendString(contiguous: $0, to: &out) }
    if copied == nil { appendString(bytes: string.utf8, to: &out) }
  }

  /// `appendString(contiguous:to:)` for bytes that may not be valid UTF-8
  /// (text a fold or a run stored: a damaged partial's may not be), repaired
  /// as `String(decoding:as:)` repairs them, so they give the bytes a
  /// `String` made from them would.
  static func appendString(repairing bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if appendPlainASCII(bytes, to: &out) { return }
    if UTF8Validation.isValid(bytes) {
      appendString(contiguous: bytes, to: &out)
    } else {
      appendString(String(decoding: bytes, as: UTF8.self), to: &out)
    }
  }

  /// `appendString(bytes:to:)` for bytes in memory: runs that need no
  /// escape (nearly every string) are copied whole rather than byte by byte,
  /// and found eight bytes at a time (`needsEscape`).
  static func appendString(contiguous bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(.quote)
    var plainFrom = 0
    var index = 0
    let count = bytes.count
    while index < count {
      // Safe because index + 8 <= count, so the word lies inside the buffer
      // (whose base address is not nil, as count > 0).
      if index &+ 8 <= count, let base = bytes.baseAddress,
        !needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      {
        index &+= 8
        continue
      }
      let byte = bytes[index]
      index &+= 1
      if byte >= firstPlain && byte != .quote && byte != .backslash { continue }
      if index - 1 > plainFrom { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<(index - 1)])) }
      appendEscape(byte, to: &out)
      plainFrom = index
    }
    if count > plainFrom { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom...])) }
    out.append(.quote)
  }

  /// Appends `"…"` with the bytes as they are and returns `true` when every
  /// byte is ASCII that needs no escape (most ids, codes and descriptions);
  /// appends nothing and returns `false` otherwise. Bytes that pass are
  /// well-formed UTF-8, so a writer of stored bytes need not validate them.
  static func appendPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
    guard isPlainASCII(bytes) else { return false }
    out.append(.quote)
    out.append(contentsOf: bytes)
    out.append(.quote)
    return true
  }

  /// True when every byte is ASCII that needs no escape: the string is its
  /// bytes between quotes. Checked eight bytes at a time.
  static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    var index = 0
    if let base = bytes.baseAddress {
      // Safe because every word read lies inside the buffer: index + 8 <= count.
      while index &+ 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & highBits != 0 || needsEscape(word) { return false }
        index &+= 8
      }
    }
    while index < count {
      let byte = bytes[index]
      if byte >= 0x80 || byte < firstPlain || byte == .quote || byte == .backslash { return false }
      index &+= 1
    }
    return true
  }

  /// True when the bytes need no escape and are well-formed UTF-8: the
  /// string is its bytes between quotes, as `appendString` would write it.
  /// Escapes are looked for eight bytes at a time; non-ASCII text is then
  /// validated (`UTF8Validation`).
  static func isPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    var index = 0
    var high: UInt64 = 0
    if let base = bytes.baseAddress {
      // Safe because every word read lies inside the buffer: index + 8 <= count.
      while index &+ 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if needsEscape(word) { return false }
        high |= word & highBits
        index &+= 8
      }
    }
    while index < count {
      let byte = bytes[index]
      if byte < firstPlain || byte == .quote || byte == .backslash { return false }
      high |= UInt64(byte & 0x80)
      index &+= 1
    }
    return high == 0 || UTF8Validation.isValid(bytes)
  }

  private static let lowBits: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// True when one of the eight bytes of `word` needs an escape: below
  /// U+0020, `"` or `\` (in any byte order: the tests are on each byte
  /// alike). Exact, not a guess: the classic "has a zero byte" and "has a
  /// byte below n" tests (n <= 128) are never wrong about whether one exists.
  @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    @inline(__always) func hasZeroByte(_ value: UInt64) -> Bool {
      (value &- lowBits) & ~value & highBits != 0
    }
    let below = (word &- lowBits &* UInt64(firstPlain)) & ~word & highBits != 0
    return below || hasZeroByte(word ^ (lowBits &* UInt64(UInt8.quote)))
      || hasZeroByte(word ^ (lowBits &* UInt64(UInt8.backslash)))
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
