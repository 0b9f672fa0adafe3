/// The result of `txfold group`: sections in their fixed order, and the run's accounting.
///
/// This is what a banking app's grouped-transactions screen needs, and what
/// every renderer (text, json, jsonl, csv) prints.
public struct GroupReport: Sendable, Hashable {
  /// `PENDING` first, then `COMPLETED`, then other states alphabetically; a
  /// state with no groups has no section.
  public var sections: [ReportSection]
  /// The accounting of the run that produced the report: every record accepted or rejected.
  public var stats: RunStats

  /// Creates a report from sections already in report order; renderers print them as given.
  public init(sections: [ReportSection], stats: RunStats) {
    self.sections = sections
    self.stats = stats
  }
}

/// All groups of one state, most recent day first.
public struct ReportSection: Sendable, Hashable {
  /// The state every group of the section has (`PENDING`, `COMPLETED`, …), upper-cased.
  public var state: String
  /// The section's groups: day descending, then latest instant descending, then `CRDT` before `DBIT`.
  public var groups: [TransactionGroup]

  /// Creates a section from groups already in report order.
  public init(state: String, groups: [TransactionGroup]) {
    self.state = state
    self.groups = groups
  }
}

/// The transactions of one state, day and indicator.
public struct TransactionGroup: Sendable, Hashable {
  /// The state of every member (upper-cased), which also names the group's section.
  public var state: String
  /// The day the group covers.
  public var date: CalendarDay
  /// Whether the group holds money in (`CRDT`) or money out (`DBIT`).
  public var creditDebitIndicator: CreditDebitIndicator
  /// How many transactions were folded in (all of them, not only the kept members).
  public var count: Int
  /// One exact sum of magnitudes per currency, sorted by currency code.
  public var totals: [CurrencyTotal]
  /// The latest timestamp among the members, as written.
  public var latest: Timestamp
  /// The kept members, most recent first (ties: id ascending, byte-wise). At
  /// most `--members` of them; `count` may be larger.
  public var transactions: [GroupMember]

  /// Creates a group; `totals` sorted by currency code and `transactions` in report order, as the fold makes them.
  public init(
    state: String, date: CalendarDay, creditDebitIndicator: CreditDebitIndicator, count: Int,
    totals: [CurrencyTotal], latest: Timestamp, transactions: [GroupMember]
  ) {
    self.state = state
    self.date = date
    self.creditDebitIndicator = creditDebitIndicator
    self.count = count
    self.totals = totals
    self.latest = latest
    self.transactions = transactions
  }
}

/// An exact sum in one currency.
public struct CurrencyTotal: Sendable, Hashable {
  /// The currency code as written in the input (`EUR`).
  public var currency: String
  /// The exact sum of the magnitudes in `currency`, never rounded.
  public var amount: ExactDecimal
  /// How many of the group's transactions are in `currency` (the csv
  /// format's `currencyCount`): a group's totals' counts add up to its
  /// `count`. `nil` where it is not known — a total decoded from the `json`
  /// format, which does not carry it.
  public var count: Int?

  /// Creates a total of `amount` in `currency`, the sum of `count` transactions.
  public init(currency: String, amount: ExactDecimal, count: Int? = nil) {
    self.currency = currency
    self.amount = amount
    self.count = count
  }

  /// Whether two totals are equal as the reports show them: the same
  /// currency and the same amount (numerically). `count`, which the `json`
  /// format does not carry, is not compared, so a total decoded from a
  /// report equals the one the fold made.
  public static func == (lhs: CurrencyTotal, rhs: CurrencyTotal) -> Bool {
    lhs.currency == rhs.currency && lhs.amount == rhs.amount
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(currency)
    hasher.combine(amount)
  }
}

/// A transaction kept in a group, with what the reports show of it.
public struct GroupMember: Sendable, Hashable {
  /// The transaction's id as written, which breaks ties between members of the same instant.
  public var id: String
  /// The transaction's description, when the input has one; reports leave it out otherwise.
  public var description: String?
  /// The amount's magnitude; the group's indicator gives the direction.
  public var amount: ExactDecimal
  /// The currency code of `amount`, as written.
  public var currency: String
  /// When the transaction happened: it orders the members, most recent first.
  public var instant: Timestamp

  /// Creates a kept member from what the reports show of a transaction.
  public init(id: String, description: String?, amount: ExactDecimal, currency: String, instant: Timestamp) {
    self.id = id
    self.description = description
    self.amount = amount
    self.currency = currency
    self.instant = instant
  }
}

/// The accounting of a run: every input record is accepted or rejected.
///
/// `lines == accepted + rejected` always holds.
public struct RunStats: Sendable, Hashable {
  /// Input records seen: non-blank lines of JSON lines, elements of arrays,
  /// and problems between records reported as rejected records of their own.
  public var lines: Int = 0
  /// Records folded into the report.
  public var accepted: Int = 0
  /// Records refused, each with a reason in `rejectedByReason` (and in the rejects file).
  public var rejected: Int = 0
  /// Accepted records replaced by a later one with the same id (`--dedupe`).
  public var duplicates: Int = 0
  /// Rejections per reason.
  public var rejectedByReason: [RejectReason: Int] = [:]
  /// Bytes read from the inputs as stored (compressed bytes for gzip).
  public var bytesRead: Int64 = 0
  /// Bytes of JSON after decompression.
  public var bytesDecoded: Int64 = 0
  /// The schema used, or the schemas `--schema auto` chose, in order
  /// (`ledger, backbase`); empty when `--schema auto` found none (no record
  /// fitted one and no wrapper suggested one).
  public var schema: String = "backbase"
  /// Flags that would have accepted a large share of the records: one
  /// sentence each, for the run summary (see `RejectionHints`).
  public var hints: [String] = []
  /// Per-account runs: the number of accounts reported; `nil` otherwise.
  public var accounts: Int?
  /// Per-account runs with `--changed-only` (`NightlyState.changedOnly`):
  /// how many of `accounts` changed tonight and were written; `nil` otherwise.
  public var changedAccounts: Int?
  /// A `group` run with a selection (`GroupOptions.filter`): the accepted
  /// records it kept, which the report's counts add up to (after `--dedupe`,
  /// the kept winners); `nil` when nothing is selected.
  public var selected: Int?

  /// Creates empty accounting, to be filled as a run reads its inputs.
  public init() {}

  /// Whether two runs' accounting is equal as the reports show it: `lines`,
  /// `accepted`, `rejected`, `duplicates`, `selected`, `accounts` and `changedAccounts` (the
  /// `stats` object of the `json` formats). The run's diagnostics — byte
  /// counts, schema, hints and rejections per reason — are not in that
  /// object and are not compared, so stats decoded from a report equal the
  /// run's own.
  public static func == (lhs: RunStats, rhs: RunStats) -> Bool {
    lhs.lines == rhs.lines && lhs.accepted == rhs.accepted && lhs.rejected == rhs.rejected
      && lhs.duplicates == rhs.duplicates && lhs.selected == rhs.selected && lhs.accounts == rhs.accounts
      && lhs.changedAccounts == rhs.changedAccounts
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(lines)
    hasher.combine(accepted)
    hasher.combine(rejected)
    hasher.combine(duplicates)
    hasher.combine(selected)
    hasher.combine(accounts)
    hasher.combine(changedAccounts)
  }
}
