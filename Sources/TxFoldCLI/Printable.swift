/// Text from outside the program (a file name, a partial header's schema, a
/// record's bytes) made safe to print on a terminal: control characters are
/// shown as escapes instead of being sent as they are, so `evil\e[31m…`
/// cannot recolour, move the cursor or retitle the operator's terminal, and
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069, the ones the text and html reports replace) cannot make
/// `evil\u{202E}lmth.exe` read as `evilexe.html`.
enum Printable {
  /// `text` with every control character (C0, DEL and C1, newline included) written as `\xHH`,
  /// and every bidirectional control as `\u{HHHH}`.
  static func escaped(_ text: String) -> String {
    escape(text, keepingLineBreaks: false)
  }

  /// A whole message: like `escaped`, but its own line breaks and tabs stay.
  static func message(_ text: String) -> String {
    escape(text, keepingLineBreaks: true)
  }

  private static func escape(_ text: String, keepingLineBreaks: Bool) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0, keepingLineBreaks: keepingLineBreaks) }) else {
      return text
    }
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if isControl(scalar, keepingLineBreaks: keepingLineBreaks) {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        if scalar.value > 0xFF {
          out += "\\u{" + digits + "}"
        } else {
          out += "\\x" + (digits.count < 2 ? "0" : "") + digits
        }
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  private static func isControl(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
    if keepingLineBreaks && (scalar == "\n" || scalar == "\t") { return false }
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
