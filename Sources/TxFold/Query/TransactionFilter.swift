/// Which transactions a list or summary keeps: the seeds' category filter
/// (with "all"), a state, a currency, a date range and the pinned subset.
///
/// Every condition left unset keeps everything; set conditions must all hold.
/// Texts are compared byte-wise as UTF-8, like ids everywhere in TxFold;
/// states and currency codes are compared upper-cased (ASCII) on both sides.
///
/// ```swift
/// // The tech-challenge seed: the "Food" button, only pinned transactions.
/// let filter = TransactionFilter(categories: ["Food"], onlyIDs: pinned)
/// let shown = transactions.filter(filter.matches)
/// ```
public struct TransactionFilter: Sendable {
  /// The category text that selects transactions without a category (the
  /// placeholder summaries show for them).
  public static let uncategorized = TransactionSummary.missingKey

  /// Categories kept, as UTF-8; `nil` keeps all.
  public private(set) var categories: Set<[UInt8]>?
  /// Whether transactions without a category are kept when `categories` is set.
  public private(set) var keepsUncategorized = false
  /// States kept, upper-cased; `nil` keeps all.
  public private(set) var states: Set<[UInt8]>?
  /// Currency codes kept, upper-cased; `nil` keeps all (the CLI's `--only-currency`).
  public private(set) var currencies: Set<[UInt8]>?
  /// The first day kept, inclusive.
  public var since: CalendarDay?
  /// The last day kept, inclusive.
  public var until: CalendarDay?
  /// When set, only these ids are kept (the pinned subset).
  public private(set) var onlyIDs: Set<[UInt8]>?
  /// Ids never kept.
  public private(set) var excludedIDs: Set<[UInt8]> = []
  /// The zone days are taken in (`--timezone`); `.asWritten` keeps dates as written. For a
  /// pipeline's run it is the run's `ReadOptions.zone` (`ListOptions.filter`): set that one.
  public var zone: ZoneResolver

  /// A filter; every argument left out keeps everything.
  ///
  /// - Parameters:
  ///   - categories: categories to keep; `nil`, or a list containing `"all"`,
  ///     keeps every category; `TransactionFilter.uncategorized` (`(none)`)
  ///     keeps transactions without one (absent, `null` or empty).
  ///   - states: states to keep, in any case (`pending` keeps `PENDING`).
  ///   - currencies: currency codes to keep, in any case (`eur` keeps `EUR`).
  ///   - since: first day kept, inclusive. - until: last day kept, inclusive.
  ///   - onlyIDs: when not `nil`, keep only these ids (the pinned subset).
  ///   - excludedIDs: never keep these ids.
  ///   - zone: the zone days are taken in.
  public init(
    categories: [String]? = nil, states: [String]? = nil, currencies: [String]? = nil, since: CalendarDay? = nil,
    until: CalendarDay? = nil, onlyIDs: [String]? = nil, excludedIDs: [String] = [], zone: ZoneResolver = .asWritten
  ) {
    if let categories, !categories.contains(Self.allCategories) {
      self.categories = Set(categories.filter { $0 != Self.uncategorized }.map { Array($0.utf8) })
      keepsUncategorized = categories.contains(Self.uncategorized)
    }
    self.states = states.map { Set($0.map { Array($0.utf8).map(ByteStringInterner.upper) }) }
    self.currencies = currencies.map { Set($0.map { Array($0.utf8).map(ByteStringInterner.upper) }) }
    self.since = since
    self.until = until
    self.onlyIDs = onlyIDs.map { Set($0.map { Array($0.utf8) }) }
    self.excludedIDs = Set(excludedIDs.map { Array($0.utf8) })
    self.zone = zone
  }

  /// The category text that keeps every category (the seed's "all" button).
  public static let allCategories = "all"

  /// True when no condition is set.
  public var keepsEverything: Bool {
    categories == nil && states == nil && currencies == nil && since == nil && until == nil && onlyIDs == nil
      && excludedIDs.isEmpty
  }

  /// Whether a condition reads ids (`onlyIDs`, `excludedIDs`): only then does a
  /// record without an id need its position, which stands for its id.
  var readsIDs: Bool { onlyIDs != nil || !excludedIDs.isEmpty }

  /// Whether `transaction` passes every condition.
  ///
  /// - Complexity: O(length of the compared texts), plus a zone look-up
  ///   (a binary search) when a date range and a zone are set.
  public func matches(_ transaction: Transaction) -> Bool {
    if let categories {
      if let category = transaction.category, !category.isEmpty {
        guard categories.contains(Array(category.utf8)) else { return false }
      } else if !keepsUncategorized {
        return false
      }
    }
    if let states, !states.contains(transaction.state.utf8.map(ByteStringInterner.upper)) { return false }
    if let currencies, !currencies.contains(transaction.currency.utf8.map(ByteStringInterner.upper)) { return false }
    if since != nil || until != nil {
      let day = zone.day(of: transaction.instant)
      if let since, day < since { return false }
      if let until, until < day { return false }
    }
    if readsIDs {
      let id = Array(transaction.id.utf8)
      if let onlyIDs, !onlyIDs.contains(id) { return false }
      if excludedIDs.contains(id) { return false }
    }
    return true
  }
}
