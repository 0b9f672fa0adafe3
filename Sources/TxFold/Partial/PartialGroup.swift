/// One group of a partial state as plain values: what `--emit partial` writes
/// for it and what `txfold merge` reads back.
///
/// It carries everything the group table needs to continue folding exactly:
/// the key, the count of every transaction folded in, the exact total per
/// currency (scale included), the latest timestamp (with its instant, which
/// `--timezone` may have moved) and the kept members.
@_spi(Benchmarks) public struct PartialGroup: Sendable, Hashable {
  /// The upper-cased state.
  public var state: [UInt8]
  /// The day, already resolved in `--timezone`.
  public var day: CalendarDay
  /// Whether the group is money in or out.
  public var indicator: CreditDebitIndicator
  /// Transactions folded in (all of them, not only the kept members).
  public var count: Int
  /// Exact sums of magnitudes, one per currency code; their counts add up to `count`.
  public var totals: [Total]
  /// The latest timestamp of any transaction folded in.
  public var latest: Timestamp
  /// The kept members, in report order (most recent first).
  public var members: [KeptMember]

  /// An exact sum in one currency.
  public struct Total: Sendable, Hashable {
    /// The currency code as written.
    public var currency: [UInt8]
    /// The exact sum of magnitudes, scale included.
    public var sum: ExactDecimal
    /// How many of the group's transactions are in `currency`.
    public var count: Int

    /// Creates the total `sum` of `count` transactions in `currency`.
    public init(currency: [UInt8], sum: ExactDecimal, count: Int) {
      self.currency = currency
      self.sum = sum
      self.count = count
    }
  }

  /// Why a group could not be merged into a table.
  public enum MergeError: Error, Sendable, Equatable {
    /// The group's count no longer fits in an `Int`.
    case countOverflow(state: String, date: String)
    /// A currency total no longer fits in 128 bits.
    case totalOverflow(state: String, date: String, currency: String)

    /// What overflowed, for a message.
    public var what: String {
      switch self {
      case .countOverflow(let state, let date): return "The count of the \(state) group of \(date)"
      case .totalOverflow(let state, let date, let currency):
        return "The \(currency) total of the \(state) group of \(date)"
      }
    }
  }

  /// Creates a group as read from a partial line; the merger checks it before merging.
  public init(
    state: [UInt8], day: CalendarDay, indicator: CreditDebitIndicator, count: Int, totals: [Total],
    latest: Timestamp, members: [KeptMember]
  ) {
    self.state = state
    self.day = day
    self.indicator = indicator
    self.count = count
    self.totals = totals
    self.latest = latest
    self.members = members
  }
}
