/// What a `TransactionQuery` found.
public struct TransactionQueryResult: Sendable, Hashable {
  /// The page, newest first.
  public var transactions: [Transaction]
  /// Transactions that passed dedupe and the filter, before paging.
  public var matched: Int
  /// Transactions dropped by dedupe.
  public var duplicates: Int
  /// The newest transaction that matched (the ledger seed's "latest
  /// transaction" shown on top), whatever the page.
  public var latest: Transaction?

  /// Creates a result from a query's page and counts.
  public init(transactions: [Transaction], matched: Int, duplicates: Int, latest: Transaction?) {
    self.transactions = transactions
    self.matched = matched
    self.duplicates = duplicates
    self.latest = latest
  }
}
