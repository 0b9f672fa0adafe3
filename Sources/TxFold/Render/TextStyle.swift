/// ANSI escapes for the list and summary text writers.
enum TextStyle {
  static let bold: [UInt8] = [0x1B] + Array("[1m".utf8)
  static let green: [UInt8] = [0x1B] + Array("[32m".utf8)
  static let red: [UInt8] = [0x1B] + Array("[31m".utf8)
  static let reset: [UInt8] = [0x1B] + Array("[0m".utf8)
}
