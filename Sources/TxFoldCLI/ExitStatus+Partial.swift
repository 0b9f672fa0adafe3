import ArgumentParser
import TxFold

extension ExitStatus {
  /// The exit code for an error reading or merging partial states, after printing its message:
  /// 66 for an input that cannot be opened, 74 for a read error or a corrupt gzip stream,
  /// 65 for a malformed, truncated, mismatched or overflowing partial.
  static func fail(_ error: PartialStateError) -> ExitCode {
    complain(error.commandLineDescription)
    switch error {
    case .input(let input):
      if case .cannotOpen = input { return ExitCode(cannotOpenInput) }
      return ExitCode(ioError)
    case .malformed, .unsupportedVersion, .mismatch, .overflow:
      return ExitCode(dataError)
    }
  }
}
