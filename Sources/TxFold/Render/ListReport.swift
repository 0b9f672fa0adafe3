/// The `json` document of `txfold list`: the page of transactions, their
/// sum, the page and the run's accounting — what an app downloads from a
/// server that ran `txfold list --format json`.
///
/// `Codable` to and from exactly that document (equal as JSON values):
/// `{"transactions":[…],"sum":[…],"page":{"offset":…,"limit":…,"shown":…,"matched":…},"stats":{…}}`.
/// A `jsonl` list is one `Transaction` per line.
public struct ListReport: Sendable, Hashable, Codable {
  /// The transactions shown, newest first.
  public var transactions: [Transaction]
  /// The exact sum of `transactions`, per currency.
  public var sum: SelectionSum
  /// Which page was shown, and how many matched before paging.
  public var page: ListPage
  /// The accounting of the run that produced the list.
  public var stats: RunStats

  /// Creates a list document.
  public init(transactions: [Transaction], sum: SelectionSum, page: ListPage, stats: RunStats) {
    self.transactions = transactions
    self.sum = sum
    self.page = page
    self.stats = stats
  }

  /// The page and the accounting a renderer needs to write this document again.
  func context(zone: ZoneResolver) -> ListContext {
    ListContext(
      stats: stats, matched: page.matched, page: PageRequest(offset: page.offset, limit: page.limit), zone: zone)
  }

  /// The document the `json` format writes for `transactions` (the page
  /// shown) under `context`: their sum, the page and the stats.
  ///
  /// - Throws: `SumOverflow` when a sum no longer fits in 128 bits.
  package init(transactions: [Transaction], context: ListContext) throws(SumOverflow) {
    self.init(
      transactions: transactions, sum: try SelectionSum.of(transactions),
      page: ListPage(
        offset: context.page.offset, limit: context.page.limit, shown: transactions.count, matched: context.matched),
      stats: context.stats)
  }
}

/// One account's list: a line of `txfold list --per-account --format jsonl`, and an element of
/// the `json` document's `accounts` (`PerAccountReport<AccountList>`) — the account's page of
/// transactions as `AccountListCursor` hands it out.
///
/// `Codable` to and from exactly that object (equal as JSON values), the list's `json` document
/// without its stats, after the account and its count:
/// `{"account":"A1","count":23,"transactions":[…],"sum":[…],"page":{"offset":0,"limit":2,"shown":2,"matched":23}}`.
/// Its transactions leave out the `account` the object already names, and decode with it, as
/// the cursor hands them out.
public struct AccountList: Sendable, Hashable, Codable {
  /// The account id as written (a JSON number's decimal text).
  public var account: String
  /// The account's transactions that passed dedupe and the filter, before paging (`page.matched`).
  public var count: Int
  /// The account's transactions on the page, newest first.
  public var transactions: [Transaction]
  /// The exact sum of `transactions`, per currency.
  public var sum: SelectionSum
  /// Which page of the account was shown, and how many of its transactions matched.
  public var page: ListPage

  /// Creates one account's list.
  public init(account: String, count: Int, transactions: [Transaction], sum: SelectionSum, page: ListPage) {
    self.account = account
    self.count = count
    self.transactions = transactions
    self.sum = sum
    self.page = page
  }

  private enum CodingKeys: String, CodingKey { case account, count, transactions, sum, page }

  /// Decodes one account's object; each transaction takes the account it names.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let account: String = try container[.account]
    var transactions: [Transaction] = try container[.transactions]
    for index in transactions.indices where transactions[index].account == nil {
      transactions[index].account = account
    }
    self.init(
      account: account, count: try container[.count], transactions: transactions, sum: try container[.sum],
      page: try container[.page])
  }

  /// Encodes the account's object, its transactions without the account it names.
  public func encode(to encoder: any Encoder) throws {
    let shown = transactions.map { transaction in
      var transaction = transaction
      if transaction.account == account { transaction.account = nil }
      return transaction
    }
    try encoder.encodeFields(
      keyedBy: CodingKeys.self, [.account: account, .count: count, .transactions: shown, .sum: sum, .page: page])
  }
}

/// The `page` object of a list document: `{"offset":0,"limit":null,"shown":2,"matched":2}`.
public struct ListPage: Sendable, Hashable, Codable {
  /// Transactions skipped before the first shown.
  public var offset: Int
  /// The most transactions a page shows; `nil` for no limit (`null`).
  public var limit: Int?
  /// Transactions shown.
  public var shown: Int
  /// Transactions that passed dedupe and the filter, before paging.
  public var matched: Int

  /// Creates a page description.
  public init(offset: Int, limit: Int?, shown: Int, matched: Int) {
    self.offset = offset
    self.limit = limit
    self.shown = shown
    self.matched = matched
  }

  private enum CodingKeys: String, CodingKey { case offset, limit, shown, matched }

  /// Decodes the page object; `limit` may be `null`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      offset: try container[.offset], limit: try container[ifPresent: .limit], shown: try container[.shown],
      matched: try container[.matched])
  }

  /// Encodes the page object, `limit` as `null` when there is none.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [.offset: offset, .limit: limit as any Encodable, .shown: shown, .matched: matched])
  }
}
