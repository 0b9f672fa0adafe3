/// Why `TransactionReader.read` stopped.
public enum TransactionReadError<BodyError: Error>: Error {
  /// Reading failed: an input, its gzip stream, `strict` / `maxRejects`, or
  /// the rejection callback.
  case input(PipelineError)
  /// The caller's `body` threw.
  case body(BodyError)
}

extension TransactionReadError: FramingFailure {
  static func reading(_ error: InputError) -> TransactionReadError { .input(.input(error)) }
}
