import Foundation
import TxFold

/// What the CLI needs to know about terminals.
enum Terminal {
  /// Colour only on a terminal, and never with `NO_COLOR` set to a non-empty value (no-color.org).
  static func wantsColor(fileDescriptor: Int32) -> Bool {
    if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
    return SystemCalls.isTerminal(fileDescriptor)
  }

  /// Whether standard error is a terminal (for the progress line).
  static var standardErrorIsTerminal: Bool { SystemCalls.isTerminal(SystemCalls.standardError) }
}
