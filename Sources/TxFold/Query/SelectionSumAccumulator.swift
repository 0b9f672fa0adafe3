/// Adds transactions one at a time into a `SelectionSum` (a list's sum line,
/// built while the list streams out).
struct SelectionSumAccumulator: Sendable {
  private var sums: [CurrencySum] = []
  private var index: [String: Int] = [:]
  private var count = 0
  /// Each sum's currency packed (`nil` past 15 bytes), and the one matched last, for
  /// `add(currency:amount:fee:)`.
  private var packedCurrencies: [Packed?] = []
  private var lastPosition: Int?

  init() {}

  /// Adds one transaction's amount, fee and total.
  ///
  /// - Throws: `SumOverflow`, leaving the sums as they were.
  mutating func add(_ transaction: Transaction) throws(SumOverflow) {
    try add(
      currency: transaction.currency, at: index[transaction.currency], amount: transaction.amount, fee: transaction.fee)
  }

  /// `add(_:)` for a transaction given as its currency's UTF-8 bytes, amount
  /// and fee (the parallel list's entries): a currency seen before is found
  /// by its bytes, without making a `String`.
  ///
  /// - Throws: `SumOverflow`, leaving the sums as they were.
  mutating func add(currency bytes: UnsafeRawBufferPointer, amount: ExactDecimal, fee: ExactDecimal?)
    throws(SumOverflow)
  {
    var position: Int?
    let key = Self.packed(bytes)
    if let key, let last = lastPosition, packedCurrencies[last] == key {
      position = last
    } else if let key, packedCurrencies.count <= 32, let found = packedCurrencies.firstIndex(of: key) {
      position = found
    }
    if let position {
      lastPosition = position
      return try add(at: position, amount: amount, fee: fee)
    }
    let currency = String(decoding: bytes, as: UTF8.self)
    try add(currency: currency, at: index[currency], amount: amount, fee: fee)
  }

  /// A currency of at most 16 bytes as two words and its length, compared without touching an
  /// array; `nil` for a longer one.
  @inline(__always)
  private static func packed(_ bytes: UnsafeRawBufferPointer) -> Packed? {
    guard bytes.count <= 16 else { return nil }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      if let base = bytes.baseAddress, let target = raw.baseAddress {
        target.copyMemory(from: base, byteCount: bytes.count)
      }
    }
    return Packed(low: words.0, high: words.1, count: bytes.count)
  }

  struct Packed: Equatable, Sendable {
    var low: UInt64
    var high: UInt64
    var count: Int
  }

  private mutating func add(currency: String, at position: Int?, amount: ExactDecimal, fee written: ExactDecimal?)
    throws(SumOverflow)
  {
    if let position { return try add(at: position, amount: amount, fee: written) }
    let fee = written ?? .zero
    guard let total = amount.adding(fee) else { throw SumOverflow(currency: currency) }
    index[currency] = sums.count
    packedCurrencies.append(Array(currency.utf8).withUnsafeBytes { Self.packed($0) })
    sums.append(
      CurrencySum(
        currency: currency, count: 1, amount: amount, fees: fee, feeCount: written == nil ? 0 : 1, total: total))
    count += 1
  }

  /// Adds to the sum at `position`, in place (no copy of its currency's name).
  private mutating func add(at position: Int, amount: ExactDecimal, fee written: ExactDecimal?) throws(SumOverflow) {
    guard let fee = written else {
      // Adding a zero fee (scale 0) changes neither the fees nor the total's value or scale.
      guard let newAmount = sums[position].amount.adding(amount), let newTotal = sums[position].total.adding(amount)
      else { throw SumOverflow(currency: sums[position].currency) }
      sums[position].count += 1
      sums[position].amount = newAmount
      sums[position].total = newTotal
      count += 1
      return
    }
    guard let total = amount.adding(fee), let newAmount = sums[position].amount.adding(amount),
      let fees = sums[position].fees.adding(fee), let newTotal = sums[position].total.adding(total)
    else { throw SumOverflow(currency: sums[position].currency) }
    sums[position].count += 1
    sums[position].amount = newAmount
    sums[position].fees = fees
    sums[position].total = newTotal
    sums[position].feeCount += 1
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
