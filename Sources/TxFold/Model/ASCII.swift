/// Named byte constants for the scanners, so no bare numbers appear in parsing code.
extension UInt8 {
  @usableFromInline package static let tab = UInt8(ascii: "\t")
  @usableFromInline package static let newline = UInt8(ascii: "\n")
  @usableFromInline package static let carriageReturn = UInt8(ascii: "\r")
  @usableFromInline package static let space = UInt8(ascii: " ")
  @usableFromInline package static let quote = UInt8(ascii: "\"")
  @usableFromInline package static let backslash = UInt8(ascii: "\\")
  @usableFromInline package static let slash = UInt8(ascii: "/")
  @usableFromInline package static let comma = UInt8(ascii: ",")
  @usableFromInline package static let colon = UInt8(ascii: ":")
  @usableFromInline package static let openBrace = UInt8(ascii: "{")
  @usableFromInline package static let closeBrace = UInt8(ascii: "}")
  @usableFromInline package static let openBracket = UInt8(ascii: "[")
  @usableFromInline package static let closeBracket = UInt8(ascii: "]")
  @usableFromInline package static let minus = UInt8(ascii: "-")
  @usableFromInline package static let plus = UInt8(ascii: "+")
  @usableFromInline package static let dot = UInt8(ascii: ".")
  @usableFromInline package static let zero = UInt8(ascii: "0")
  @usableFromInline package static let nine = UInt8(ascii: "9")
  @usableFromInline package static let lowerE = UInt8(ascii: "e")
  @usableFromInline package static let upperE = UInt8(ascii: "E")
  @usableFromInline package static let upperT = UInt8(ascii: "T")
  @usableFromInline package static let upperZ = UInt8(ascii: "Z")
  @usableFromInline package static let lowerA = UInt8(ascii: "a")
  @usableFromInline package static let lowerF = UInt8(ascii: "f")
  @usableFromInline package static let lowerN = UInt8(ascii: "n")
  @usableFromInline package static let lowerT = UInt8(ascii: "t")
  @usableFromInline package static let lowerU = UInt8(ascii: "u")
  @usableFromInline package static let upperA = UInt8(ascii: "A")
  @usableFromInline package static let upperF = UInt8(ascii: "F")
  @usableFromInline package static let lowerB = UInt8(ascii: "b")
  @usableFromInline package static let lowerR = UInt8(ascii: "r")
  @usableFromInline package static let lowerZ = UInt8(ascii: "z")
  @usableFromInline package static let lowerL = UInt8(ascii: "l")
  @usableFromInline package static let lowerS = UInt8(ascii: "s")
  /// The byte-order mark UTF-8 encodes U+FEFF as.
  @usableFromInline package static let bom: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

  /// True for the four bytes JSON allows between tokens.
  @inlinable var isJSONWhitespace: Bool {
    self == .space || self == .newline || self == .carriageReturn || self == .tab
  }

  /// True for the bytes JSON text may hold outside its strings: whitespace,
  /// punctuation, the quote, and the characters of numbers and of `true`,
  /// `false` and `null`.
  var mayStandOutsideJSONString: Bool {
    switch self {
    case .space, .newline, .carriageReturn, .tab, .quote, .comma, .colon: return true
    case .openBrace, .closeBrace, .openBracket, .closeBracket: return true
    case .zero ... .nine, .minus, .plus, .dot, .lowerE, .upperE: return true
    case .lowerT, .lowerR, .lowerU, .lowerF, .lowerA, .lowerL, .lowerS, .lowerN: return true
    default: return false
    }
  }
}

extension UInt64 {
  /// Eight bytes at once (SWAR): the high bit of each byte lane that holds a
  /// byte ending a JSON string's plain run — `"`, `\` or a control byte below
  /// 0x20 — exact for the lowest such lane (a borrow may mark lanes above
  /// it). The string scanners of the walker and the record scanner share it;
  /// each adds its own lanes and test.
  @inlinable @inline(__always)
  var stringStopLanes: UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = self ^ (ones &* UInt64(UInt8.quote))
    let backslashes = self ^ (ones &* UInt64(UInt8.backslash))
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = (self &- ones &* 0x20) & ~self
    return (hasQuote | hasBackslash | hasControl) & 0x8080_8080_8080_8080
  }
}
