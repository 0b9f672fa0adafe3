import Testing

@testable import TxFold
@testable import TxFoldGen

/// `UTF8Validation`'s fallback for Apple systems older than macOS 15 / iOS 18 against the
/// standard library's `String(validating:as:)` (always there on Linux, where the tests run).
@Suite("UTF-8 validation on the older systems")
struct UTF8ValidationTests {
  /// Well-formed text and every kind of ill-formed sequence: lone continuation bytes, truncated
  /// sequences, overlong forms, surrogates, values past U+10FFFF, bytes that never occur.
  static let cases: [[UInt8]] = [
    [], Array("plain".utf8), Array("Café 🚆 東京".utf8), [0xEF, 0xBF, 0xBD], [0x80], [0xBF, 0x41], [0xC3],
    [0xE2, 0x82], [0xF0, 0x9F, 0x9A], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],
    [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
    [0x41, 0xC3, 0xA9, 0xFF, 0x42], [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0x00],
  ]

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test("The fallback agrees with String(validating:as:) on edge sequences", arguments: cases)
  func edges(bytes: [UInt8]) {
    let expected = String(validating: bytes, as: UTF8.self)
    #expect(UTF8Validation.decodingFallback(bytes) == expected, "\(bytes)")
    #expect(UTF8Validation.string(bytes) == expected)
    #expect(UTF8Validation.isValid(bytes) == (expected != nil))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test("The fallback agrees with String(validating:as:) on random bytes and random text")
  func random() {
    var random = SplitMix64(seed: 8)
    let pieces = ["a", "é", "€", "🚆", "\u{FFFD}", "\u{10FFFF}"].map { Array($0.utf8) }
    for round in 0..<4_000 {
      var bytes: [UInt8] = []
      for _ in 0..<random.next(below: 12) {
        if round % 2 == 0 {
          bytes.append(UInt8(truncatingIfNeeded: random.next()))
        } else {
          bytes += pieces[random.next(below: pieces.count)]
        }
      }
      // Every other text is cut short or has one byte changed, which mostly makes it ill-formed.
      if round % 4 == 1, !bytes.isEmpty { bytes.removeLast() }
      if round % 4 == 3, !bytes.isEmpty { bytes[random.next(below: bytes.count)] ^= 0x40 }
      #expect(UTF8Validation.decodingFallback(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
    }
  }

  /// The check on stored bytes (`isValid` of a buffer) reads eight ASCII bytes at a time and ends
  /// early on an ASCII tail: an ill-formed or multi-byte sequence before eight or more ASCII bytes,
  /// or after some, is still judged, wherever it falls against the words.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test("The buffer check judges what comes before an ASCII tail, at every offset")
  func bufferTails() {
    let odd: [[UInt8]] = [[0xFF], [0x80], [0xC3], [0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x9A, 0x86]]
    for sequence in odd {
      for before in 0..<18 {
        for after in 0..<18 {
          let bytes =
            Array(repeating: UInt8(ascii: "a"), count: before) + sequence
            + Array(repeating: UInt8(ascii: "b"), count: after)
          let expected = String(validating: bytes, as: UTF8.self) != nil
          bytes.withUnsafeBufferPointer { buffer in
            #expect(UTF8Validation.isValid(buffer) == expected, "\(bytes)")
          }
        }
      }
    }
  }
}
