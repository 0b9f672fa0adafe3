/// One account's summary: what `summary --per-account` prints for it.
public struct AccountSummary: Sendable, Hashable {
  /// The account id as written (a JSON number's decimal text).
  public var account: String
  /// The account's transactions that passed the filter (the sum of its entries' counts).
  public var count: Int
  /// The account's summary, exactly a summary over its transactions alone
  /// (`stats` is the run's accounting so far; an account's object in the
  /// `json` and `jsonl` formats does not carry it, and `==` does not compare it).
  public var report: SummaryReport

  /// Creates an account's summary.
  public init(account: String, count: Int, report: SummaryReport) {
    self.account = account
    self.count = count
    self.report = report
  }

  /// Whether two accounts' summaries are equal as the formats write them: the
  /// account, its count and its summary's dimension, entries and totals. The
  /// run's accounting in `report.stats`, which an account's object does not
  /// carry, is not compared, so an account decoded from a report equals the
  /// one the run handed out.
  public static func == (lhs: AccountSummary, rhs: AccountSummary) -> Bool {
    lhs.account == rhs.account && lhs.count == rhs.count && lhs.report.dimension == rhs.report.dimension
      && lhs.report.entries == rhs.report.entries && lhs.report.totals == rhs.report.totals
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(account)
    hasher.combine(count)
    hasher.combine(report.dimension)
    hasher.combine(report.entries)
    hasher.combine(report.totals)
  }

  /// The same summary with its entries in `order`.
  public func sorted(by order: SummaryOrder) -> AccountSummary {
    AccountSummary(account: account, count: count, report: report.sorted(by: order))
  }
}
