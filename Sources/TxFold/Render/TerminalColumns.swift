/// How many terminal columns text takes, and text cut to a number of columns: the one measure
/// every text writer pads and cuts by, so a line fits the terminal whatever script it is in.
///
/// Measured per extended grapheme cluster (what the reader sees as one character), the way
/// terminals draw it, kept simple:
/// - a cluster is as wide as its first scalar: 2 for East Asian Wide and Fullwidth characters and
///   emoji (`wideRanges`), 0 for combining marks (general category Mn, Me), zero-width spaces and
///   marks (U+200B–U+200F) and variation selectors (U+FE00–U+FE0F), 1 for the rest;
/// - a 1-wide cluster with U+FE0F (emoji presentation, `❤️`) is 2.
/// Text that is all ASCII is as wide as it is long.
enum TerminalColumns {
  /// Two columns: Hangul Jamo leading consonants, CJK radicals to CJK symbols, kana to CJK
  /// compatibility, CJK ideographs (extension A, unified), Yi, Hangul syllables, CJK
  /// compatibility ideographs, CJK compatibility forms, full-width forms and signs, the emoji
  /// blocks (regional indicators: a flag; pictographs, emoticons, transport; supplemental), and
  /// the supplementary and tertiary ideographic planes. Sorted, so a lookup stops early.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F1E6...0x1F1FF,
    0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  /// The columns of UTF-8 text.
  static func width(of bytes: [UInt8]) -> Int {
    if isASCII(bytes) { return bytes.count }
    if let columns = latinColumns(of: bytes) { return columns }
    var columns = 0
    let text = String(decoding: bytes, as: UTF8.self)
    forEachCluster(of: text) { _, width in
      columns += width
      return true
    }
    return columns
  }

  /// `bytes` cut to at most `limit` columns, ending in `…` when cut; only whole clusters are kept.
  static func cut(_ bytes: [UInt8], to limit: Int) -> [UInt8] {
    guard width(of: bytes) > limit else { return bytes }
    let room = max(0, limit - 1)  // `…` takes one
    if latinColumns(of: bytes) != nil {
      // One column per scalar: the cut is after the `room`-th scalar's bytes.
      var end = 0
      var scalars = 0
      while end < bytes.count && scalars < room {
        end += bytes[end] < 0x80 ? 1 : 2
        scalars += 1
      }
      return Array(bytes[..<end]) + Array("…".utf8)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    var columns = 0
    var end = text.startIndex
    forEachCluster(of: text) { next, width in
      guard columns + width <= room else { return false }
      columns += width
      end = next
      return true
    }
    var result = Array(text.utf8[..<end])
    result.append(contentsOf: "…".utf8)
    return result
  }

  /// The columns of the scalar that starts a cluster.
  static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return 1 }  // Latin, before the first combining mark
    if (0x200B...0x200F).contains(value) || (0xFE00...0xFE0F).contains(value) { return 0 }
    if value >= 0x1100 {
      for range in wideRanges {
        if value < range.lowerBound { break }
        if value <= range.upperBound { return 2 }
      }
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return 0
    default: return 1
    }
  }

  /// Calls `body` with the end and the columns of each cluster of `text` in turn, until it says stop;
  /// by index, so no character is copied out of the text.
  private static func forEachCluster(of text: String, _ body: (String.Index, Int) -> Bool) {
    var start = text.startIndex
    while start < text.endIndex {
      let next = text.index(after: start)
      let scalars = text.unicodeScalars[start..<next]
      var width = Self.width(of: scalars[scalars.startIndex])
      if width == 1 && scalars.contains("\u{FE0F}") { width = 2 }
      guard body(next, width) else { return }
      start = next
    }
  }

  /// The columns of text whose scalars all lie below U+0300 (ASCII, Latin-1 and Latin
  /// Extended-A and B: `Café Müller`, `Øberg`, `Torstraße`), one each, as its clusters are one
  /// scalar each there (no combining mark, joiner or other scalar that joins a cluster, and no
  /// CR, which joins a following LF); `nil` for other text or bytes that are not such UTF-8
  /// (the cluster walk measures those). Such a scalar is one byte, or a lead byte C2–CB and
  /// one continuation byte.
  static func latinColumns(of bytes: [UInt8]) -> Int? {
    var columns = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        if byte == 0x0D { return nil }
        index += 1
      } else if (0xC2...0xCB).contains(byte), index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
        index += 2
      } else {
        return nil
      }
      columns += 1
    }
    return columns
  }

  private static func isASCII(_ bytes: [UInt8]) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
  }
}
