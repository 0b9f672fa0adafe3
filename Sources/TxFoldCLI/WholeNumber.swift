import ArgumentParser

/// The numeric options' reading: a whole number in decimal, signs included, so
/// that `--offset -3` is judged by the option's own rule ("--offset must be at
/// least 0, not -3.") and `--threads x` says what it wanted, instead of
/// ArgumentParser's "Missing value" (it reads `-3` as an option) or a bare
/// "is invalid" ("The value 'x' is invalid for '--threads <threads>': it
/// must be a whole number.").
///
/// One reader per type the options use, not one generic over the integer
/// type: a `@Sendable` closure of a generic one captures the metatype `T.Type`,
/// which is not `Sendable` (`#SendableMetatypes`).
enum WholeNumber {
  /// The transform of an `@Option(parsing: .unconditional, …)` of type `Int`
  /// (ArgumentParser names the option and the value in its message).
  static func reader() -> @Sendable (String) throws -> Int {
    { text in try whole(Int(text, radix: 10), signed: true) }
  }

  /// The transform of an `UInt64` option (`gen --seed`).
  static func reader() -> @Sendable (String) throws -> UInt64 {
    { text in try whole(UInt64(text, radix: 10), signed: false) }
  }

  /// `value`, or the usage error for text that is not a whole number.
  private static func whole<Value>(_ value: Value?, signed: Bool) throws -> Value {
    guard let value else {
      throw ValidationError("it must be a whole number\(signed ? "" : " of 0 or more").")
    }
    return value
  }
}
