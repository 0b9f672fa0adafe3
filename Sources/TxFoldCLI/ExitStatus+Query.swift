import ArgumentParser
import TxFold

extension ExitStatus {
  /// The exit code for a failed `list` report: its sum overflowing fails as
  /// the pipeline's own overflow does, so both exit alike.
  static func fail(_ error: ListRenderer.Failure<PipelineError, OutputError>) -> ExitCode {
    switch error {
    case .source(let error): return fail(error)
    case .sumOverflow(let error): return fail(PipelineError.totalOverflow(error))
    case .output(let error): return fail(error)
    }
  }
}
