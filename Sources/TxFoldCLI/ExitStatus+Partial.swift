import ArgumentParser
import TxFold

extension ExitStatus {
  /// The exit code for an error reading or merging partial states, after printing its message:
  /// the input codes of `code(for:)` (66, 65 for another compression format, 74), 74 for the
  /// temporary runs of a merge in passes,
  /// 65 for a malformed, truncated, mismatched, repeated or overflowing partial.
  static func fail(_ error: PartialStateError) -> ExitCode {
    complainOfFailure(error.commandLineDescription)
    switch error {
    case .input(let input):
      return ExitCode(code(for: input))
    case .temporaryStorage:
      return ExitCode(ioError)
    case .malformed, .unsupportedVersion, .mismatch, .duplicateInput, .overflow:
      return ExitCode(dataError)
    }
  }
}

extension ExitStatus {
  /// Writing a per-account partial failed: reading or merging (65, 66, 74) or the output.
  static func fail(_ error: AccountPartialWriteError<OutputError>) -> ExitCode {
    switch error {
    case .partial(let failure): return fail(failure)
    case .output(let failure): return fail(failure)
    }
  }
}
