/// Arguments that are not UTF-8. A file name is bytes on Linux, and one written in Latin-1
/// (`Überweisung.json` with `Ü` as the byte DC) is not UTF-8; Swift hands the arguments over as
/// text, each such byte replaced by U+FFFD, so the file would be looked for under another name
/// and reported missing though it is there. Such an argument is a usage error that names it.
enum ArgumentEncoding {
  /// The usage message for the first argument (after the program name) that is not valid
  /// UTF-8, else `nil`.
  static func message() -> String? {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      var length = 0
      while argument[length] != 0 { length += 1 }
      let bytes = UnsafeRawBufferPointer(start: argument, count: length)
      guard let shown = invalidUTF8Shown(Array(bytes)) else { continue }
      return "Error: The argument '\(shown)' is not valid UTF-8: txfold reads its arguments, file names "
        + "included, as UTF-8 text. Rename the file, or give its content on standard input.\n"
    }
    return nil
  }

  /// `bytes` as text with every byte that is not part of valid UTF-8 written as `\xHH` (and
  /// control characters escaped, as every message shows them), or `nil` when all are valid.
  static func invalidUTF8Shown(_ bytes: [UInt8]) -> String? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    var shown = ""
    var valid = true
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        shown += Printable.escaped(String(decoding: encoded, as: UTF8.self))
        position += encoded.count
      case .error(let length):
        valid = false
        for byte in bytes[position..<(position + length)] {
          shown += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        position += length
      case .emptyInput:
        return valid ? nil : shown
      }
    }
  }
}
