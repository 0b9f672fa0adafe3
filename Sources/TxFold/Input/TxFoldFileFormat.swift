/// TxFold's own files that hold no transactions, recognised by their first bytes: a state file
/// (`NightlyState`, `--state-out`) and a partial state (`--emit partial`).
///
/// An operator who forgets `--state-in` before last night's state, or gives a shard's partial to
/// `group` instead of `merge`, would otherwise have it read as records: every line rejected, and
/// with tonight's export beside it a run that succeeds (a state written without the history it
/// was meant to carry). Such an input is refused before anything is read, saying what it is.
package enum TxFoldFileFormat: String, Sendable, Hashable {
  case state
  case partial

  /// A state file's first bytes (`StateFile`).
  package static let stateMagic = Array("TXFSTATE".utf8)
  /// A partial state's first bytes: its header line's key, of a whole report's partial
  /// or a per-account one (`PartialStateWriter`).
  static let partialStarts = [Array("{\"txfoldPartial\"".utf8), Array("{\"txfoldAccountPartial\"".utf8)]
  /// The most bytes `detect(_:)` looks at.
  static let longestMagic = partialStarts.map(\.count).max() ?? 0

  /// The format whose first bytes `prefix` starts with, or `nil` for anything else.
  static func detect(_ prefix: [UInt8]) -> TxFoldFileFormat? {
    if prefix.starts(with: stateMagic) { return .state }
    if partialStarts.contains(where: { prefix.starts(with: $0) }) { return .partial }
    return nil
  }

  /// Whether `prefix`, after any whitespace, opens a JSON object or array: transactions (or a
  /// report) where one of TxFold's own files was expected.
  static func startsLikeJSON(_ prefix: [UInt8]) -> Bool {
    guard let first = prefix.first(where: { !$0.isJSONWhitespace }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }
}
