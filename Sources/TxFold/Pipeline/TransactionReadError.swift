/// Why `TransactionReader.read` stopped, told apart by type: the reading's
/// failure, or the body's own error (which the public `read` rethrows as it is).
package enum TransactionReadError<BodyError: Error>: Error {
  /// Reading failed: an input, its gzip stream, `strict` / `maxRejects`, or
  /// the rejection callback.
  case input(PipelineError)
  /// The caller's `body` threw, given a record of the input `file`.
  case body(BodyError, file: String)
}

extension TransactionReadError: FramingFailure {
  static func reading(_ error: InputError) -> TransactionReadError { .input(.input(error)) }
}

extension TransactionReadError {
  /// The error itself: the reading's `PipelineError`, or the body's error.
  var unwrapped: any Error {
    switch self {
    case .input(let error): return error
    case .body(let error, _): return error
    }
  }
}
