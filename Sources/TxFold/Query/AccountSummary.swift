/// One account's summary: what `summary --per-account` prints for it.
public struct AccountSummary: Sendable, Hashable {
  /// The account id as written (a JSON number's decimal text).
  public var account: String
  /// The account's transactions that passed the filter (the sum of its entries' counts).
  public var count: Int
  /// The account's summary, exactly a summary over its transactions alone
  /// (`stats` is the whole run's accounting).
  public var report: SummaryReport

  /// Creates an account's summary.
  public init(account: String, count: Int, report: SummaryReport) {
    self.account = account
    self.count = count
    self.report = report
  }

  /// The same summary with its entries in `order`.
  public func sorted(by order: SummaryOrder) -> AccountSummary {
    AccountSummary(account: account, count: count, report: report.sorted(by: order))
  }
}
