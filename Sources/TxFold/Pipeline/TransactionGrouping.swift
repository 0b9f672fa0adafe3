/// Groups in-memory transactions the way `txfold group` groups a dump: what a
/// banking app calls on the transactions it has on screen.
///
/// ```swift
/// let report = try TransactionGrouping.group(transactions)
/// for section in report.sections {          // PENDING, then COMPLETED, …
///   for group in section.groups { … }       // most recent day first
/// }
/// ```
public enum TransactionGrouping {
  /// Groups `transactions` by (state, day, indicator) into ordered sections.
  ///
  /// - Parameters:
  ///   - memberLimit: members kept per group, the most recent (`Int.max`: all).
  ///   - dedupe: count transactions that share an id once: the latest, and on
  ///     a tie the later one in the array.
  ///   - zone: the zone days are taken in (`.asWritten` keeps dates as written).
  /// - Complexity: O(n + g log g) for n transactions in g groups.
  public static func group(
    _ transactions: [Transaction], memberLimit: Int = Int.max, dedupe: Bool = false, zone: ZoneResolver = .asWritten
  ) throws(SumOverflow) -> GroupReport {
    let table = GroupTable(memberLimit: memberLimit)
    var stats = RunStats()
    stats.lines = transactions.count
    stats.accepted = transactions.count
    var chosen = transactions
    if dedupe {
      // The one rule of `list --dedupe` in memory: ids compared by their bytes, as the CLI's.
      (chosen, stats.duplicates) = TransactionDeduplication.latestPerID(transactions)
    }
    for transaction in chosen where !table.fold(transaction, zone: zone) {
      let found = table.overflow
      throw SumOverflow(currency: found?.currency ?? "?", state: found?.state ?? "?", date: found?.date ?? "?")
    }
    return table.report(stats: stats)
  }
}

extension TransactionGrouping {
  /// Groups `transactions` per account (`Transaction.account`), handing the
  /// accounts out one at a time, in byte-wise order of their ids: what a
  /// backend calls to upsert each customer's grouped view as it comes.
  ///
  /// ```swift
  /// for account in TransactionGrouping.groupPerAccount(transactions) {
  ///   try store.upsert(account.get())      // AccountReport, or the overflow that stopped it
  /// }
  /// ```
  ///
  /// Transactions without an account are skipped; `unassigned` counts them.
  /// Each account's report is `group(_:memberLimit:zone:)` of its own
  /// transactions, built when the sequence reaches it.
  /// - Complexity: O(n log a) to order a accounts, then O(n_a + g_a log g_a) per account.
  public static func groupPerAccount(
    _ transactions: [Transaction], memberLimit: Int = Int.max, zone: ZoneResolver = .asWritten
  ) -> PerAccountGrouping {
    PerAccountGrouping(transactions: transactions, memberLimit: memberLimit, zone: zone)
  }

  /// The accounts of `groupPerAccount`, built one at a time as they are
  /// reached (iterated or subscripted), in byte-wise order of their ids.
  public struct PerAccountGrouping: RandomAccessCollection, Sendable {
    private let transactions: [Transaction]
    private let memberLimit: Int
    private let zone: ZoneResolver
    /// Each account's transactions (their positions), accounts in byte-wise order.
    private let accounts: [(account: String, positions: [Int])]
    /// Transactions without an account, which no report holds.
    public let unassigned: Int

    init(transactions: [Transaction], memberLimit: Int, zone: ZoneResolver) {
      self.transactions = transactions
      self.memberLimit = memberLimit
      self.zone = zone
      var byAccount: [UTF8Key: [Int]] = [:]
      var unassigned = 0
      for (position, transaction) in transactions.enumerated() {
        guard let account = transaction.account, !account.isEmpty else {
          unassigned += 1
          continue
        }
        byAccount[UTF8Key(account), default: []].append(position)
      }
      self.unassigned = unassigned
      accounts = byAccount.map { ($0.key.string, $0.value) }.sorted {
        Array($0.account.utf8).lexicographicallyPrecedes(Array($1.account.utf8))
      }
    }

    /// How many accounts the sequence hands out (its `count`).
    public var accountCount: Int { accounts.count }

    /// The first account's position: 0.
    public var startIndex: Int { 0 }
    /// One past the last account's position.
    public var endIndex: Int { accounts.count }

    /// The report of the account at `position`, built now, or the overflow
    /// that stopped grouping it.
    public subscript(position: Int) -> Result<AccountReport, SumOverflow> {
      let (account, positions) = accounts[position]
      let own = positions.map { transactions[$0] }
      do throws(SumOverflow) {
        let report = try TransactionGrouping.group(own, memberLimit: memberLimit, zone: zone)
        return .success(AccountReport(account: account, count: own.count, sections: report.sections))
      } catch {
        return .failure(error)
      }
    }
  }
}
