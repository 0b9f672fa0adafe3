import Foundation
import TxFold

/// What the CLI needs to know about terminals.
enum Terminal {
  /// Whether `--color auto` colours standard output (`fileDescriptor`), by the conventions terminal
  /// tools share: never with `NO_COLOR` set to a non-empty value (no-color.org) or `CLICOLOR=0`;
  /// always with `CLICOLOR_FORCE` set to a value other than `0` (a pipe into `less -R`, a CI log);
  /// else only on a terminal that shows escapes (`showsEscapes`).
  static func wantsColor(
    fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
    if environment["CLICOLOR"] == "0" { return false }
    return SystemCalls.isTerminal(fileDescriptor) && showsEscapes(environment)
  }

  /// Whether the terminal interprets escape sequences: `TERM` names one and it is not `dumb`
  /// (Emacs' shell, an editor's output pane). Without `TERM` nothing says it does.
  static func showsEscapes(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    guard let term = environment["TERM"], !term.isEmpty else { return false }
    return term != "dumb"
  }

  /// Whether standard error is a terminal (for the progress line).
  static var standardErrorIsTerminal: Bool { SystemCalls.isTerminal(SystemCalls.standardError) }
}
