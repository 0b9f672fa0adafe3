import ArgumentParser
import TxFold

extension ExitStatus {
  /// The exit code for an error reading or merging partial states, after printing its message:
  /// the input codes of `code(for:)` (66, 65 for another compression format, 74),
  /// 65 for a malformed, truncated, mismatched or overflowing partial.
  static func fail(_ error: PartialStateError) -> ExitCode {
    complain(error.description)
    switch error {
    case .input(let input):
      return ExitCode(code(for: input))
    case .malformed, .unsupportedVersion, .mismatch, .overflow:
      return ExitCode(dataError)
    }
  }
}
