import ArgumentParser
import TxFold

extension ExitStatus {
  /// The exit code for a `list` or `summary` error, after printing its message:
  /// reading errors as for `group`, temporary sort storage 74, an overflowing sum 65.
  static func fail(_ error: QueryPipelineError) -> ExitCode {
    switch error {
    case .pipeline(let error):
      return fail(error)
    case .spill(let error):
      complainOfFailure(error.description)
      return ExitCode(ioError)
    case .sumOverflow(let error):
      complainOfFailure(error.description)
      return ExitCode(dataError)
    }
  }
}
