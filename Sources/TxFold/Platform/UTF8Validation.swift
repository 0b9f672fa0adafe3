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

  /// True when the bytes are well-formed UTF-8.
  static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    string(bytes) != nil
  }

  /// The same answer as `String(validating:as: UTF8.self)`, from APIs every system has:
  /// decoding replaces each ill-formed sequence with U+FFFD (three bytes that are themselves
  /// well-formed), so the bytes were well-formed exactly when the decoded text's UTF-8 is them.
  static func decodingFallback<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    let decoded = String(decoding: bytes, as: UTF8.self)
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }
}
