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
