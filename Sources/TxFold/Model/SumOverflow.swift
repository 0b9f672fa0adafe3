/// An exact sum no longer fits in 128 bits. Sums never wrap around: the run
/// stops instead (exit 65 in the CLI).
public struct SumOverflow: Error, Sendable, Hashable, CustomStringConvertible {
  /// The currency whose sum overflowed.
  public var currency: String
  /// The summary key whose sum overflowed (`nil` for a list's sum, a group's total or a summary's
  /// total over every key).
  public var key: String?
  /// The state of the group whose total overflowed (`TransactionGrouping`), else `nil`.
  public var state: String?
  /// The day of the group whose total overflowed (`TransactionGrouping`), else `nil`.
  public var date: String?

  /// Creates the error for a sum in `currency` (of the summary key `key`, if any) that left 128 bits.
  public init(currency: String, key: String? = nil) {
    self.currency = currency
    self.key = key
  }

  /// Creates the error for the total in `currency` of the group of `state` and `date` that left 128 bits.
  public init(currency: String, state: String, date: String) {
    self.currency = currency
    self.state = state
    self.date = date
  }

  /// The sentence the CLI prints: which total overflowed and that no report is written.
  public var description: String {
    if let state, let date { return "The \(currency) total of the \(state) group of \(date) overflows 128 bits." }
    if let key { return "The \(currency) total of '\(key)' overflows 128 bits; no report is written." }
    return "The \(currency) sum overflows 128 bits; no report is written."
  }
}
