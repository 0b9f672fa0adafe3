/// What `txfold summary --by` groups on: the tech-challenge seed's insights
/// view, per category, and the same per day, month, counterparty or state.
public enum SummaryDimension: String, Sendable, Hashable, CaseIterable {
  /// The transaction's category.
  case category
  /// The transaction's day (`YYYY-MM-DD`, in `--timezone` when given).
  case day
  /// The transaction's ISO 8601 week (`YYYY-Www`: weeks start on Monday, and week 1 holds
  /// the year's first Thursday, so 2024-12-30 is in `2025-W01`).
  case week
  /// The transaction's month (`YYYY-MM`).
  case month
  /// The transaction's year (`YYYY`).
  case year
  /// The counterparty.
  case counterparty
  /// The state (`PENDING`, `COMPLETED`, …).
  case state
}

/// One key of a summary.
public enum SummaryKey: Sendable, Hashable {
  /// The transaction has no value for the dimension (no category, no
  /// counterparty); shown as `TransactionSummary.missingKey`, `(none)`.
  case missing
  /// A category, counterparty or state, as written.
  case text(String)
  /// A day.
  case day(CalendarDay)
  /// An ISO 8601 week of an ISO week-numbering year.
  case week(year: Int, week: Int)
  /// A month of a year.
  case month(year: Int, month: Int)
  /// A year.
  case year(Int)

  /// The key's canonical text: the text as written, `YYYY-MM-DD`, `YYYY-Www`, `YYYY-MM`,
  /// `YYYY`, or `nil` for `missing`.
  public var text: String? {
    switch self {
    case .missing: return nil
    case .text(let text): return text
    case .day(let day): return day.description
    case .month(let year, let month):
      var bytes: [UInt8] = []
      CalendarDay(year: year, month: month, day: 1).appendText(to: &bytes)
      // The day's text less its `-DD`: a year past 9999 or before 0001 has more than four digits.
      return String(decoding: bytes.dropLast(3), as: UTF8.self)
    case .week(let year, let week):
      var bytes: [UInt8] = []
      CalendarDay(year: year, month: 1, day: 1).appendText(to: &bytes)
      bytes.removeLast(6)
      bytes.append(contentsOf: "-W".utf8)
      bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: week / 10))
      bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: week % 10))
      return String(decoding: bytes, as: UTF8.self)
    case .year(let year):
      var bytes: [UInt8] = []
      CalendarDay(year: year, month: 1, day: 1).appendText(to: &bytes)
      return String(decoding: bytes.dropLast(6), as: UTF8.self)
    }
  }
}

/// The totals of one key in one currency, split into income and expense.
public struct SummaryCurrencyTotals: Sendable, Hashable {
  /// The currency code as written.
  public var currency: String
  /// Transactions of this key in this currency.
  public var count: Int
  /// The sum of the amounts of zero or more (positive amounts and zero).
  public var income: ExactDecimal
  /// The sum of the negative amounts: zero or negative.
  public var expense: ExactDecimal

  /// Creates one currency's totals of a key.
  public init(currency: String, count: Int, income: ExactDecimal, expense: ExactDecimal) {
    self.currency = currency
    self.count = count
    self.income = income
    self.expense = expense
  }
}

/// One key's line of a summary.
public struct SummaryEntry: Sendable, Hashable {
  /// The key the entry sums: a category, counterparty, state, day or month, or `missing`.
  public var key: SummaryKey
  /// Transactions with this key, all currencies.
  public var count: Int
  /// One entry per currency, sorted by currency code (byte-wise).
  public var currencies: [SummaryCurrencyTotals]

  /// Creates an entry with its per-currency totals sorted by code.
  public init(key: SummaryKey, count: Int, currencies: [SummaryCurrencyTotals]) {
    self.key = key
    self.count = count
    self.currencies = currencies
  }

  /// The expense in `currency` (zero when the key has none in it).
  public func expense(in currency: String) -> ExactDecimal {
    currencies.first { $0.currency == currency }?.expense ?? .zero
  }
}

/// The result of `txfold summary`: the entries in order and the run's accounting.
public struct SummaryReport: Sendable, Hashable {
  /// What the transactions are keyed by.
  public var dimension: SummaryDimension
  /// Ordered by absolute expense, largest first (see `TransactionSummary`).
  public var entries: [SummaryEntry]
  /// Every key together, per currency (sorted by code).
  public var totals: [SummaryCurrencyTotals]
  /// The accounting of the run that produced the summary.
  public var stats: RunStats

  /// Creates a summary from entries already in order.
  public init(
    dimension: SummaryDimension, entries: [SummaryEntry], totals: [SummaryCurrencyTotals], stats: RunStats
  ) {
    self.dimension = dimension
    self.entries = entries
    self.totals = totals
    self.stats = stats
  }

  /// The currencies by total absolute expense over all entries, largest
  /// first, ties by code: the order entries are compared in.
  public var rankedCurrencies: [String] { TransactionSummary.rankCurrencies(entries) }
}

/// A summary with the first and last day of the transactions it sums: the
/// period its `html` page names. The report leaves the days out because its
/// documents (the CLI's `json`) do, and `decode(encode(r)) == r` must hold.
package struct DatedSummary: Sendable {
  /// The summary.
  package var report: SummaryReport
  /// The first and last day of the transactions summed (`nil`: none, or unknown).
  package var days: DaySpan?

  /// Pairs a summary with its days.
  package init(report: SummaryReport, days: DaySpan?) {
    self.report = report
    self.days = days
  }
}
