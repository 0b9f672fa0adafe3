/// The `json` document of a per-account run: every account's report, in byte-wise order of
/// the ids, and the run's accounting — what an app downloads from a server that ran
/// `txfold group`, `list` or `summary` with `--per-account --format json`.
///
/// `Account` is the type of one account's object, the same as one line of the `jsonl` format:
/// ``AccountReport`` (`group`), ``AccountList`` (`list`) or ``AccountSummary`` (`summary`).
///
/// ```swift
/// let document = try JSONDecoder().decode(PerAccountReport<AccountSummary>.self, from: data)
/// for account in document.accounts { show(account.account, account.report.totals) }
/// print(document.stats.accounts ?? 0)
/// ```
///
/// `Codable` to and from exactly that document (equal as JSON values):
/// `{"accounts":[{"account":…,"count":…,…},…],"stats":{…,"accounts":K}}`.
public struct PerAccountReport<Account: Codable & Hashable & Sendable>: Sendable, Hashable, Codable {
  /// The accounts, in byte-wise order of their ids.
  public var accounts: [Account]
  /// The accounting of the run; `accounts` is the number of accounts written.
  public var stats: RunStats

  /// Creates a per-account document from accounts already in order.
  public init(accounts: [Account], stats: RunStats) {
    self.accounts = accounts
    self.stats = stats
  }

  private enum CodingKeys: String, CodingKey { case accounts, stats }

  /// Decodes the document's `accounts` and `stats`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(accounts: try container[.accounts], stats: try container[.stats])
  }

  /// Encodes the accounts and the accounting as the `json` document.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(keyedBy: CodingKeys.self, [.accounts: accounts, .stats: stats])
  }
}
