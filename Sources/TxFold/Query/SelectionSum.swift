/// The exact sum of a selection of transactions, per currency: the seeds'
/// "sum of the filtered transactions" (PAYBACK, tech challenge) and the
/// ledger seed's totals including fees.
///
/// Amounts are signed (income positive, expense negative), so `amount` is the
/// net. Each sum prints with the largest number of fraction digits among its
/// addends (Documentation/Formats.md, "Amounts are exact"); a currency without any fee has `fees` of `0`.
public struct SelectionSum: Sendable, Hashable {
  /// Transactions summed.
  public var count = 0
  /// One entry per currency, sorted by currency code (byte-wise).
  public var currencies: [CurrencySum] = []

  /// Creates the sum of no transactions.
  public init() {}

  /// Whether any transaction summed had a fee.
  public var hasFees: Bool { currencies.contains { $0.feeCount > 0 } }

  /// The exact sum of `transactions`.
  ///
  /// - Throws: `SumOverflow` when a sum no longer fits in 128 bits.
  /// - Complexity: O(n) for n transactions.
  public static func of<S: Sequence<Transaction>>(_ transactions: S) throws(SumOverflow) -> SelectionSum {
    var accumulator = SelectionSumAccumulator()
    for transaction in transactions { try accumulator.add(transaction) }
    return accumulator.result
  }
}

/// The sums of one currency.
public struct CurrencySum: Sendable, Hashable {
  /// The currency code as written.
  public var currency: String
  /// Transactions in this currency.
  public var count: Int
  /// The sum of the signed amounts.
  public var amount: ExactDecimal
  /// The sum of the signed fees (`0` when none had one).
  public var fees: ExactDecimal
  /// Transactions with a fee (not compared by `==`: the list format does not carry it).
  public var feeCount: Int
  /// `amount + fees`: the total including fees.
  public var total: ExactDecimal

  /// Creates the sums of one currency.
  public init(
    currency: String, count: Int, amount: ExactDecimal, fees: ExactDecimal, feeCount: Int, total: ExactDecimal
  ) {
    self.currency = currency
    self.count = count
    self.amount = amount
    self.fees = fees
    self.feeCount = feeCount
    self.total = total
  }

  /// Whether two sums are equal as the list format shows them: currency,
  /// count, amount, fees and total. `feeCount`, which the format does not
  /// carry, is not compared.
  public static func == (lhs: CurrencySum, rhs: CurrencySum) -> Bool {
    lhs.currency == rhs.currency && lhs.count == rhs.count && lhs.amount == rhs.amount && lhs.fees == rhs.fees
      && lhs.total == rhs.total
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(currency)
    hasher.combine(count)
    hasher.combine(amount)
    hasher.combine(fees)
    hasher.combine(total)
  }
}
