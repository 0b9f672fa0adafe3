import ArgumentParser

/// The numeric options' reading: a whole number in decimal, signs included, so
/// that `--offset -3` is judged by the option's own rule ("--offset must be at
/// least 0, not -3.") and `--threads x` says what it wanted, instead of
/// ArgumentParser's "Missing value" (it reads `-3` as an option) or a bare
/// "is invalid" ("The value 'x' is invalid for '--threads <threads>': it
/// must be a whole number.").
enum WholeNumber {
  /// The transform of an `@Option(parsing: .unconditional, …)` (ArgumentParser
  /// names the option and the value in its message).
  static func reader<T: FixedWidthInteger>() -> @Sendable (String) throws -> T {
    { text in
      guard let value = T(text, radix: 10) else {
        throw ValidationError("it must be a whole number\(T.isSigned ? "" : " of 0 or more").")
      }
      return value
    }
  }
}
