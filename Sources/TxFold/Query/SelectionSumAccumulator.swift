/// Adds transactions one at a time into a `SelectionSum` (a list's sum line,
/// built while the list streams out).
struct SelectionSumAccumulator: Sendable {
  private var sums: [CurrencySum] = []
  private var index: [String: Int] = [:]
  private var count = 0

  init() {}

  /// Adds one transaction's amount, fee and total.
  ///
  /// - Throws: `SumOverflow`, leaving the sums as they were.
  mutating func add(_ transaction: Transaction) throws(SumOverflow) {
    let fee = transaction.fee ?? .zero
    guard let total = transaction.amount.adding(fee) else { throw SumOverflow(currency: transaction.currency) }
    guard let position = index[transaction.currency] else {
      index[transaction.currency] = sums.count
      sums.append(
        CurrencySum(
          currency: transaction.currency, count: 1, amount: transaction.amount, fees: fee,
          feeCount: transaction.fee == nil ? 0 : 1, total: total))
      count += 1
      return
    }
    var sum = sums[position]
    guard let amount = sum.amount.adding(transaction.amount), let fees = sum.fees.adding(fee),
      let newTotal = sum.total.adding(total)
    else { throw SumOverflow(currency: transaction.currency) }
    sum.count += 1
    sum.amount = amount
    sum.fees = fees
    sum.total = newTotal
    if transaction.fee != nil { sum.feeCount += 1 }
    sums[position] = sum
    count += 1
  }

  /// The sums so far, currencies sorted by code.
  var result: SelectionSum {
    var result = SelectionSum()
    result.count = count
    result.currencies = sums.sorted { TransactionOrder.compareUTF8($0.currency, $1.currency) < 0 }
    return result
  }
}
