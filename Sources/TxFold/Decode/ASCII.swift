/// Named byte constants for the scanners, so no bare numbers appear in parsing code.
extension UInt8 {
  @usableFromInline static let tab = UInt8(ascii: "\t")
  @usableFromInline static let newline = UInt8(ascii: "\n")
  @usableFromInline static let carriageReturn = UInt8(ascii: "\r")
  @usableFromInline static let space = UInt8(ascii: " ")
  @usableFromInline static let quote = UInt8(ascii: "\"")
  @usableFromInline static let backslash = UInt8(ascii: "\\")
  @usableFromInline static let slash = UInt8(ascii: "/")
  @usableFromInline static let comma = UInt8(ascii: ",")
  @usableFromInline static let colon = UInt8(ascii: ":")
  @usableFromInline static let openBrace = UInt8(ascii: "{")
  @usableFromInline static let closeBrace = UInt8(ascii: "}")
  @usableFromInline static let openBracket = UInt8(ascii: "[")
  @usableFromInline static let closeBracket = UInt8(ascii: "]")
  @usableFromInline static let minus = UInt8(ascii: "-")
  @usableFromInline static let plus = UInt8(ascii: "+")
  @usableFromInline static let dot = UInt8(ascii: ".")
  @usableFromInline static let zero = UInt8(ascii: "0")
  @usableFromInline static let nine = UInt8(ascii: "9")
  @usableFromInline static let lowerE = UInt8(ascii: "e")
  @usableFromInline static let upperE = UInt8(ascii: "E")
  @usableFromInline static let upperT = UInt8(ascii: "T")
  @usableFromInline static let upperZ = UInt8(ascii: "Z")
  @usableFromInline static let lowerA = UInt8(ascii: "a")
  @usableFromInline static let lowerF = UInt8(ascii: "f")
  @usableFromInline static let lowerN = UInt8(ascii: "n")
  @usableFromInline static let lowerT = UInt8(ascii: "t")
  @usableFromInline static let lowerU = UInt8(ascii: "u")
  @usableFromInline static let upperA = UInt8(ascii: "A")
  @usableFromInline static let upperF = UInt8(ascii: "F")
  @usableFromInline static let lowerB = UInt8(ascii: "b")
  @usableFromInline static let lowerR = UInt8(ascii: "r")
  @usableFromInline static let lowerZ = UInt8(ascii: "z")
  /// The byte-order mark UTF-8 encodes U+FEFF as.
  @usableFromInline static let bom: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

  /// True for the four bytes JSON allows between tokens.
  @inlinable var isJSONWhitespace: Bool {
    self == .space || self == .newline || self == .carriageReturn || self == .tab
  }
}
