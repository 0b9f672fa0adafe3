import Testing

@testable import TxFold

/// The one measure of text in a terminal that every text writer pads and cuts by.
@Suite("Terminal columns")
struct TerminalColumnsTests {
  static func width(_ text: String) -> Int { TerminalColumns.width(of: Array(text.utf8)) }
  static func cut(_ text: String, to limit: Int) -> String {
    String(decoding: TerminalColumns.cut(Array(text.utf8), to: limit), as: UTF8.self)
  }

  @Test("Wide and full-width characters and emoji take two columns, combining marks none")
  func widths() {
    #expect(Self.width("Rent €12.50") == 11)
    #expect(Self.width("東京") == 4)
    #expect(Self.width("한국어") == 6)
    #expect(Self.width("ｶﾀｶﾅＡ") == 6, "half-width katakana one column, a full-width letter two")
    #expect(Self.width("😀🤖") == 4)
    #expect(Self.width("e\u{0301}te\u{0301}") == 3, "decomposed accents add nothing")
    #expect(Self.width("a\u{200B}b") == 2, "a zero-width space is none")
    #expect(Self.width("❤\u{FE0F}") == 2, "an emoji presentation selector makes a text symbol two")
    #expect(Self.width("❤") == 1)
    #expect(Self.width("👩\u{200D}👩\u{200D}👧") == 2, "a joined emoji sequence is one wide character")
    #expect(Self.width("🇳🇱") == 2, "a flag: two regional indicators, one wide character")
    #expect(Self.width("\u{0301}") == 0, "a mark with no base")
  }

  @Test("A cut keeps whole characters, ends in …, and never passes the limit")
  func cuts() {
    #expect(Self.cut("東京都渋谷区", to: 12) == "東京都渋谷区", "fits exactly: uncut")
    #expect(Self.cut("東京都渋谷区", to: 11) == "東京都渋谷…")
    #expect(Self.cut("東京都渋谷区", to: 10) == "東京都渋…", "a wide character that would pass the limit goes whole")
    #expect(
      Self.cut(String(repeating: "e\u{0301}", count: 12), to: 10) == String(repeating: "e\u{0301}", count: 9) + "…")
    #expect(Self.cut("ab😀cd", to: 4) == "ab…")
    #expect(Self.cut("👩\u{200D}👩\u{200D}👧👩\u{200D}👩\u{200D}👧", to: 3) == "👩\u{200D}👩\u{200D}👧…")
    for limit in 1...20 {
      let text = "ab東e\u{0301}😀❤\u{FE0F}한x" + String(repeating: "東", count: 5)
      let cut = Self.cut(text, to: limit)
      #expect(Self.width(cut) <= limit, "limit \(limit): \(cut)")
      #expect(Array(text).starts(with: Array(cut.dropLast())), "limit \(limit): whole characters, \(cut)")
    }
  }

  @Test("Latin text (scalars below U+0300) is measured and cut a scalar a column, as the cluster walk does")
  func latin() {
    // ˿ and U+02FF: the last scalars before the combining marks.
    let alphabet = Array("aZ09 -.,éÉüÜøØßçñÿŁłŒœƒǅȷɐʯˆ˿\u{02FF}\t\n")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let text = String(
        (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
      let bytes = Array(text.utf8)
      #expect(TerminalColumns.latinColumns(of: bytes) == text.count, "\(text)")
      #expect(TerminalColumns.width(of: bytes) == text.count, "\(text)")
      for limit in 1...12 where text.count > limit {
        #expect(
          String(decoding: TerminalColumns.cut(bytes, to: limit), as: UTF8.self) == String(text.prefix(limit - 1)) + "…"
        )
      }
    }
    // Outside it, the cluster walk measures: a combining mark, CR LF (one cluster), a wide character, bytes that are not UTF-8.
    for text in ["e\u{0301}", "a\r\nb", "東", "\u{0300}"] {
      #expect(TerminalColumns.latinColumns(of: Array(text.utf8)) == nil, "\(text)")
    }
    #expect(TerminalColumns.latinColumns(of: [0xC3]) == nil)
    #expect(TerminalColumns.latinColumns(of: [0x80, 0x41]) == nil)
    #expect(TerminalColumns.latinColumns(of: [0xC3, 0x41]) == nil)
  }
}
