/// A list writer for one format: a header, one call per transaction in list
/// order, and a footer with the sum of what was shown.
protocol ListFormatWriter {
  /// Appends what comes before the first transaction.
  mutating func begin(to out: inout [UInt8])
  /// Appends one transaction; `total` is `amount + fee` (the amount without a fee).
  mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8])
  /// Appends what comes after the last transaction.
  mutating func finish(sum: SelectionSum, to out: inout [UInt8])
}
