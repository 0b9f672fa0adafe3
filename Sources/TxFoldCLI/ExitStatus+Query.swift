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

  /// The exit code for a failed `list` report: its sum overflowing fails as
  /// the pipeline's own overflow does, so both exit alike.
  static func fail(_ error: ListRenderer.Failure<QueryPipelineError, OutputError>) -> ExitCode {
    switch error {
    case .source(let error): return fail(error)
    case .sumOverflow(let error): return fail(QueryPipelineError.sumOverflow(error))
    case .output(let error): return fail(error)
    }
  }
}
