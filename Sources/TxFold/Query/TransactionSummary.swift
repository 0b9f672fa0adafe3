/// Per-key summaries of in-memory transactions: count and exact totals per
/// currency, split into income and expense (the tech-challenge seed's insights).
///
/// - Income is the sum of amounts of zero or more, expense the sum of the
///   negative amounts (it is zero or negative). Fees are not included, as in
///   `group`'s totals; a list's sum shows totals including fees. Both sums of
///   a currency print with the largest number of fraction digits among that
///   key's amounts in it (`0.00` beside `-45.50`, not `0`).
/// - **Order**: by absolute expense, largest first. With several currencies,
///   currencies are ranked by their absolute expense over the whole summary
///   (ties by code) and entries are compared by their expense in the first
///   ranked currency, then the second, and so on; then by key: the canonical
///   text byte-wise (days and months chronologically), the missing key last.
///   A total order, so equal input gives equal output.
/// - A transaction without a category (or counterparty) — absent, `null` or
///   empty — counts under `SummaryKey.missing`, shown as `(none)`.
///
/// ```swift
/// let insights = try TransactionSummary.summarize(pinned, by: .category)
/// for entry in insights.entries { print(entry.key.text ?? "(none)", entry.currencies) }
/// ```
public enum TransactionSummary {
  /// How text formats show `SummaryKey.missing`.
  public static let missingKey = "(none)"

  /// Summarises `transactions` by `dimension`.
  ///
  /// - Parameter zone: the zone days and months are taken in.
  /// - Throws: `SumOverflow` when a total no longer fits in 128 bits.
  /// - Complexity: O(n + k log k) for n transactions with k distinct keys; memory O(k).
  public static func summarize(
    _ transactions: [Transaction], by dimension: SummaryDimension, zone: ZoneResolver = .asWritten
  ) throws(SumOverflow) -> SummaryReport {
    var accumulator = SummaryAccumulator(dimension: dimension, zone: zone)
    for transaction in transactions { try accumulator.add(transaction) }
    var stats = RunStats()
    stats.lines = transactions.count
    stats.accepted = transactions.count
    return accumulator.report(stats: stats)
  }

  /// Currencies by total absolute expense, largest first, ties by code.
  ///
  /// Expenses are zero or negative, so they are summed and compared as they are, the most
  /// negative first: a cell's expense can be -2^127 (two debits of 38 digits), whose magnitude
  /// does not fit 128 bits.
  static func rankCurrencies(_ entries: [SummaryEntry]) -> [String] {
    // A report holds a few currencies: found by a look along an array, a dictionary (a hash of
    // each name, an allocation per report — and per account in a per-account summary) only past that.
    var few: [(currency: String, expense: ExactDecimal)] = []
    var many: [String: ExactDecimal]?
    for entry in entries {
      for cell in entry.currencies {
        // An overflowing grand total only affects the ranking: saturate by keeping the larger.
        if many == nil, let index = few.firstIndex(where: { $0.currency == cell.currency }) {
          few[index].expense = few[index].expense.adding(cell.expense) ?? few[index].expense
        } else if many == nil && few.count < 16 {
          few.append((cell.currency, cell.expense))
        } else {
          if many == nil { many = Dictionary(few, uniquingKeysWith: { first, _ in first }) }
          let current = many?[cell.currency] ?? .zero
          many?[cell.currency] = current.adding(cell.expense) ?? current
        }
      }
    }
    return rankCurrencies(totals: many.map { $0.map { ($0.key, $0.value) } } ?? few)
  }

  /// Currencies by their total expense (zero or negative), the most negative — the largest
  /// absolute expense — first, ties by code.
  static func rankCurrencies(totals: [(currency: String, expense: ExactDecimal)]) -> [String] {
    totals.sorted { lhs, rhs in
      let order = lhs.expense.compare(rhs.expense)
      return order != 0 ? order < 0 : TransactionOrder.compareUTF8(lhs.currency, rhs.currency) < 0
    }.map(\.currency)
  }

  /// The summary order (see the type's notes): true when `lhs` comes first.
  static func precedes(_ lhs: SummaryEntry, _ rhs: SummaryEntry, ranked: [String]) -> Bool {
    for currency in ranked {
      // Expenses are zero or negative: the larger absolute expense is the smaller value.
      let order = lhs.expense(in: currency).compare(rhs.expense(in: currency))
      if order != 0 { return order < 0 }
    }
    switch (lhs.key.text, rhs.key.text) {
    case (nil, nil): return false
    case (nil, _): return false
    case (_, nil): return true
    case (let left?, let right?): return TransactionOrder.compareUTF8(left, right) < 0
    }
  }
}
