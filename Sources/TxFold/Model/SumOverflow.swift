/// An exact sum no longer fits in 128 bits. Sums never wrap around: the run
/// stops instead (exit 65 in the CLI).
public struct SumOverflow: Error, Sendable, Hashable, CustomStringConvertible {
  /// The currency whose sum overflowed.
  public var currency: String
  /// The summary key whose sum overflowed (`nil` for a list's sum).
  public var key: String?

  /// Creates the error for a sum in `currency` (of the summary key `key`, if any) that left 128 bits.
  public init(currency: String, key: String? = nil) {
    self.currency = currency
    self.key = key
  }

  /// The sentence the CLI prints: which total overflowed and that no report is written.
  public var description: String {
    if let key { return "The \(currency) total of '\(key)' overflows 128 bits; no report is written." }
    return "The \(currency) sum overflows 128 bits; no report is written."
  }
}
