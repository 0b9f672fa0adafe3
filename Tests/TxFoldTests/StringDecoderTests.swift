import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// The decoder's fast forms against its reference ones: `decode(_:to:)`
/// (words copied eight at a time) against `decode(_:into:)`, and
/// `isDecodableScanned` (escapes taken as the scanner validated them)
/// against `isDecodable`.
@Suite("StringDecoder")
struct StringDecoderTests {
  /// Pieces of string bodies: plain ASCII and UTF-8, every kind of escape,
  /// surrogates high and low in both cases, and pieces that are not escapes.
  static let pieces: [String] = [
    "a", "p", "é", "😀", " ", "d", "D8", "u", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#,
    #"\u0041"#, #"\u00e9"#, #"\u20AC"#, #"\uD83D"#, #"\ud83d"#, #"\uDE00"#, #"\ude00"#, #"\uDBFF"#, #"\uDC00"#,
    #"\uD7FF"#, #"\uE000"#, #"\uDfFf"#, #"\ud8Aa"#, #"\udBcd"#, #"\u"#, #"\x"#, #"\"#, #"\u12"#, #"\uzz00"#,
    #"\u00G1"#, #"\u00`1"#, #"\u00/1"#, #"\u00:1"#, #"\u00@1"#, #"\uDBFF\uDFFF"#, "0123456789abcdef",
  ]

  /// A seeded body of one to `maxPieces` pieces.
  static func body(_ random: inout SplitMix64, maxPieces: Int) -> [UInt8] {
    let count = 1 + Int(random.next() % UInt64(maxPieces))
    return (0..<count).flatMap { _ in Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8) }
  }

  @Test("The scanned-string check agrees with isDecodable on every escaped string the scanner accepts")
  func scannedMatchesGeneral() {
    var trie = FieldTrie()
    trie.add(path: "a")
    let scanner = RecordScanner(trie: trie)
    var random = SplitMix64(seed: 20_251_208)
    var compared = 0
    var undecodable = 0
    for _ in 0..<100_000 {
      let body = Self.body(&random, maxPieces: 6)
      let record = Array(#"{"a":""#.utf8) + body + Array(#""}"#.utf8)
      record.withUnsafeBufferPointer { buffer in
        guard scanner.scan(buffer) == nil else { return }
        let value = scanner.value(0)
        guard value.kind == .escapedString else { return }
        let raw = UnsafeBufferPointer(rebasing: buffer[value.start..<value.end])
        let expected = StringDecoder.isDecodable(raw)
        if StringDecoder.isDecodableScanned(raw) != expected {
          Issue.record("\(String(decoding: body, as: UTF8.self)): isDecodable says \(expected)")
        }
        compared += 1
        if !expected { undecodable += 1 }
      }
    }
    #expect(compared > 30_000)
    #expect(undecodable > 5_000)
  }

  @Test("Decoding into a buffer writes exactly what decoding into an array appends")
  func bufferMatchesArray() {
    var random = SplitMix64(seed: 20_251_209)
    var decoded = 0
    for _ in 0..<100_000 {
      let body = Self.body(&random, maxPieces: 10)
      var expected: [UInt8] = []
      let valid = body.withUnsafeBufferPointer { StringDecoder.decode($0, into: &expected) }
      let out = UnsafeMutablePointer<UInt8>.allocate(capacity: body.count)
      defer { out.deallocate() }
      let written = body.withUnsafeBufferPointer { StringDecoder.decode($0, to: out) }
      let text = String(decoding: body, as: UTF8.self)
      guard let written else {
        if valid { Issue.record("\(text): not decoded into the buffer") }
        continue
      }
      if !valid || Array(UnsafeBufferPointer(start: out, count: written)) != expected {
        Issue.record("\(text): \(Array(UnsafeBufferPointer(start: out, count: written))) vs \(expected)")
      }
      decoded += 1
    }
    #expect(decoded > 15_000)
  }

  @Test("The next backslash is found from every start, eight bytes at a time and in the last eight")
  func nextBackslash() {
    // Backslashes next to bytes that borrow (`]` is one above it, 0x00 and 0x01 below everything).
    let alphabet: [UInt8] = [0x5C, 0x5C, 0x5D, 0x5B, 0x00, 0x01, 0x80, 0xDC, 0x61, 0x7F]
    var random = SplitMix64(seed: 20_251_211)
    var checked = 0
    for _ in 0..<20_000 {
      let count = Int(random.next() % 40)
      let body = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      body.withUnsafeBufferPointer { buffer in
        for start in 0...count {
          let expected = body[start...].firstIndex(of: 0x5C) ?? count
          let found = StringDecoder.nextBackslash(buffer, from: start)
          if found != expected { Issue.record("\(body) from \(start): \(found), not \(expected)") }
          checked += 1
        }
      }
    }
    #expect(checked > 300_000)
  }
}
