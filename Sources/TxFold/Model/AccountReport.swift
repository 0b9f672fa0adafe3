/// One account's grouped view: what `group --per-account` prints for it.
public struct AccountReport: Sendable, Hashable {
  /// The account id as written (a JSON number's decimal text).
  public var account: String
  /// The account's transactions, all of them (the sum of its groups' counts).
  public var count: Int
  /// The account's sections, ordered as a whole report's (`GroupReport.sections`).
  public var sections: [ReportSection]

  /// Creates an account's report.
  public init(account: String, count: Int, sections: [ReportSection]) {
    self.account = account
    self.count = count
    self.sections = sections
  }
}
