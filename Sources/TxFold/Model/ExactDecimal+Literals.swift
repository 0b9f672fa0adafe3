/// A string literal is an exact amount: `let price: ExactDecimal = "12.80"`
/// is twelve eighty with two fraction digits, as `ExactDecimal("12.80")`.
///
/// There is no float-literal or `Double` path in: `12.80` as a binary
/// floating-point number is already not twelve eighty, so `ExactDecimal(exactly: 3.133)`
/// and `ExactDecimal(12.80)` do not compile. Write the amount as text.
extension ExactDecimal: ExpressibleByStringLiteral {
  /// Creates the amount a literal writes, with the rules of `init?(_:)`.
  ///
  /// A literal is the programmer's input, not data: one that is not a valid
  /// amount (`"1e3"`, `"12,80"`, more than 18 fraction digits) **traps**,
  /// as an out-of-range integer literal fails to compile. Text that comes
  /// from outside goes through the failable `init?(_:)`. Because `ExactDecimal`
  /// takes string literals, `ExactDecimal("12.80")` with a literal argument is this
  /// initialiser (not optional); pass a `String` value for the failable one.
  public init(stringLiteral value: String) {
    guard let parsed = ExactDecimal(value) else {
      preconditionFailure("'\(value)' is not an exact decimal amount (ExactDecimal string literal)")
    }
    self = parsed
  }

  /// Not available: a `Double` is binary and cannot hold most decimal
  /// amounts (`3.133` is `3.132999999999999488…`). Write the amount as a
  /// string literal, or parse text with `init?(_:)`.
  @available(*, unavailable, message: "a Double is not exact: write the amount as a string, ExactDecimal(\"3.133\")")
  public init?(exactly double: Double) { nil }

  /// Not available: see `init?(exactly:)` for `Double`.
  @available(*, unavailable, message: "a Double is not exact: write the amount as a string, ExactDecimal(\"12.80\")")
  public init(_ double: Double) { fatalError("unavailable") }

  /// The same amount with the opposite sign, with the same scale
  /// (`-ExactDecimal("1.50")` is `-1.50`); traps where the negation does
  /// not fit in 128 bits, as `-Int.min` does.
  public static prefix func - (operand: ExactDecimal) -> ExactDecimal {
    guard let negated = ExactDecimal(wide: 0, scale: operand.scale).subtracting(operand) else {
      preconditionFailure("ExactDecimal negation overflowed")
    }
    return negated
  }
}
