/// Whether bytes are well-formed UTF-8 (RFC 3629: shortest forms only, no
/// surrogates, nothing above U+10FFFF), without making a `String`.
///
/// Writers that render straight from stored bytes use it to keep the bytes
/// a `String` would have held: valid text passes through, anything else is
/// repaired by `String(decoding:as:)` as before.
enum UTF8Check {
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
}
