/// Why a `list` or `summary` run stopped without a report.
public enum QueryPipelineError: Error, Sendable, CustomStringConvertible {
  /// Reading failed: an input, its gzip stream, `--strict` / `--max-rejects`,
  /// a JSON array input, or the rejects output.
  case pipeline(PipelineError)
  /// The external sort's temporary storage failed.
  case spill(SpillError)
  /// An exact sum no longer fits in 128 bits.
  case sumOverflow(SumOverflow)

  /// The sentence the CLI prints for the failure.
  public var description: String {
    switch self {
    case .pipeline(let error): return error.description
    case .spill(let error): return error.description
    case .sumOverflow(let error): return error.description
    }
  }
}

extension QueryPipelineError {
  /// A sorting read's failure: the reader's own stays a reading failure, and
  /// what the sort threw from the body is its storage's, so every sorting
  /// pipeline reports both alike.
  init(_ error: TransactionReadError<SpillError>) {
    switch error {
    case .input(let error): self = .pipeline(error)
    case .body(let error): self = .spill(error)
    }
  }
}
