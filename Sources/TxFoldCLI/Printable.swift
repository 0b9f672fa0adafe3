import TxFold

/// Text from outside the program (a file name, a partial header's schema, a
/// record's bytes) made safe to print on a terminal: control characters are
/// shown as escapes instead of being sent as they are, so `evil\e[31m…`
/// cannot recolour, move the cursor or retitle the operator's terminal, and
/// the characters that print nothing or reorder text (bidirectional controls,
/// zero-width and other format characters: `Unicode.Scalar.isHiddenFromDisplay`,
/// the ones the text and html reports replace) cannot make
/// `evil\u{202E}lmth.exe` read as `evilexe.html`, nor two names look alike.
enum Printable {
  /// `text` with every control character (C0, DEL and C1, newline included) written as `\xHH`,
  /// and every other scalar that prints nothing (`isHiddenFromDisplay`) as `\u{HHHH}`.
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
    return scalar.isHiddenFromDisplay
  }
}
