/// ANSI escapes for the list and summary text writers.
enum TextStyle {
  static let bold: [UInt8] = [0x1B] + Array("[1m".utf8)
  static let green: [UInt8] = [0x1B] + Array("[32m".utf8)
  static let red: [UInt8] = [0x1B] + Array("[31m".utf8)
  static let reset: [UInt8] = [0x1B] + Array("[0m".utf8)
}

/// The colours of money in the text reports (`--theme`), used only when colour
/// is on. Every theme keeps the signs, words and the chart's sides, so colour
/// never carries meaning alone.
package enum ColorTheme: String, Sendable, Hashable, CaseIterable {
  /// Green income, red expense: the banking apps' usual colours.
  case standard
  /// Blue income, orange expense (256-colour escapes), as the html reports:
  /// told apart with red/green colour blindness (deuteranopia, protanopia)
  /// and in greyscale.
  case blueOrange = "blue-orange"
  /// No hue at all: income bold, expense underlined, for monochrome
  /// terminals and readers who set colours aside.
  case mono

  /// The escape that starts an income (credit) amount or bar.
  package var income: [UInt8] {
    switch self {
    case .standard: return TextStyle.green
    case .blueOrange: return [0x1B] + Array("[38;5;33m".utf8)
    case .mono: return TextStyle.bold
    }
  }

  /// The escape that starts an expense (debit) amount or bar.
  package var expense: [UInt8] {
    switch self {
    case .standard: return TextStyle.red
    case .blueOrange: return [0x1B] + Array("[38;5;208m".utf8)
    case .mono: return [0x1B] + Array("[4m".utf8)
    }
  }
}
