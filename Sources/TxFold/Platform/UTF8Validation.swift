/// Checks that bytes are well-formed UTF-8 on every system `Package.swift` declares.
///
/// Why: the standard library's `String(validating:as:)` exists on Apple's systems only from
/// macOS 15 / iOS 18 on, later than the library's platforms; there, where it exists, and always
/// on Linux, it is used as is. Older Apple systems take `decodingFallback`, which gives the same
/// answers (a test compares the two over every kind of ill-formed sequence).
enum UTF8Validation {
  /// The text the bytes spell, or `nil` when they are not well-formed UTF-8.
  static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return String(validating: bytes, as: UTF8.self)
    }
    return decodingFallback(bytes)
  }

  /// True when the bytes are well-formed UTF-8 (RFC 3629: shortest forms
  /// only, no surrogates, nothing above U+10FFFF), checked without making
  /// a `String`: writers that render straight from stored bytes call it for
  /// every string.
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // ASCII words first, eight bytes at a time; a word boundary after ASCII
    // bytes starts a character, so the rest is checked on its own.
    var index = 0
    if let base = bytes.baseAddress {
      let count = bytes.count
      // Safe because index + 8 <= count: the word lies inside the buffer.
      while index &+ 8 <= count,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index &+= 8
      }
      // Fewer than eight bytes left after ASCII words (most fields are short ASCII): an ASCII
      // tail ends it without the byte-by-byte walk — the last eight bytes as a word, overlapping
      // those checked, or each byte of a shorter field. (After a word that is not ASCII, the
      // rest is walked.)
      if index == count { return true }
      if index &+ 8 > count {
        if count >= 8 {
          // Safe because count >= 8: the word lies inside the buffer.
          if UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            return true
          }
        } else {
          var high: UInt8 = 0
          for offset in 0..<count { high |= base[offset] }
          if high < 0x80 { return true }
        }
      }
    }
    return isValid(bytes[index...])
  }

  /// `isValid` on any collection of bytes, checked byte by byte.
  static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    var index = bytes.startIndex
    while index != bytes.endIndex {
      let lead = bytes[index]
      bytes.formIndex(after: &index)
      if lead < 0x80 { continue }
      let continuation: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: continuation = 1
      case 0xE0: continuation = 2; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: continuation = 2
      case 0xED: continuation = 2; high = 0x9F
      case 0xF0: continuation = 3; low = 0x90
      case 0xF1...0xF3: continuation = 3
      case 0xF4: continuation = 3; high = 0x8F
      default: return false
      }
      // Only the first continuation byte has the narrower range.
      for position in 0..<continuation {
        guard index != bytes.endIndex else { return false }
        let byte = bytes[index]
        if position == 0 {
          guard byte >= low && byte <= high else { return false }
        } else {
          guard byte >= 0x80 && byte <= 0xBF else { return false }
        }
        bytes.formIndex(after: &index)
      }
    }
    return true
  }

  /// The same answer as `String(validating:as: UTF8.self)`, from APIs every system has:
  /// decoding replaces each ill-formed sequence with U+FFFD (three bytes that are themselves
  /// well-formed), so the bytes were well-formed exactly when the decoded text's UTF-8 is them.
  static func decodingFallback<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    let decoded = String(decoding: bytes, as: UTF8.self)
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }
}
