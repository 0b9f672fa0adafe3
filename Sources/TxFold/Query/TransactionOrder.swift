/// The order of a transaction list: newest first (Documentation/Formats.md, "`txfold list`"; the PAYBACK seed's
/// "sorted by bookingDate from newest to oldest", the ledger seed's "latest first").
///
/// A total order, so a list prints the same on every run, in memory or
/// through `ExternalSorter`:
///
/// 1. the absolute instant, later first (`…T10:00:00Z` and `…T12:00:00+02:00`
///    are the same instant and tie here);
/// 2. then `id` ascending, compared byte-wise as UTF-8 (not by Unicode
///    canonical equivalence, so the order never depends on normalisation);
/// 3. then what the row shows, field by field (`compareShown`), so that
///    records sharing an instant and an id (a `PENDING` copy and its
///    `COMPLETED` copy) list in the same order whatever the input's order;
/// 4. then the account (none first, then byte-wise), which a plain list does not show;
/// 5. then the position in the input, earlier first: only transactions equal
///    in all of the above, whose rows are the same bytes in every format, get here.
///
/// Callers outside the package use it through `TransactionQuery.compare(_:_:)`,
/// `TransactionQuery.sorted(_:)` and `TransactionQuery.sortedPositions(_:)`.
@usableFromInline package enum TransactionOrder {
  /// Three-way comparison by instant (later first), then id (byte-wise),
  /// then what the row shows and the account: negative when `lhs` comes
  /// first, 0 when only the input position can tell.
  @inlinable
  public static func compare(_ lhs: Transaction, _ rhs: Transaction) -> Int {
    let byInstant = lhs.instant.compareInstant(rhs.instant)
    if byInstant != 0 { return -byInstant }
    let byID = compareUTF8(lhs.id, rhs.id)
    if byID != 0 { return byID }
    return compareTied(lhs, rhs)
  }

  /// `compare` of two transactions with the same instant and id: what their
  /// rows show, then the account. Rare, so not inlined.
  @usableFromInline
  static func compareTied(_ lhs: Transaction, _ rhs: Transaction) -> Int {
    let byShown = compareShown(TransactionTieFields(transaction: lhs), TransactionTieFields(transaction: rhs))
    if byShown != 0 { return byShown }
    return compareTexts(lhs.account?.utf8, rhs.account?.utf8)
  }

  /// Three-way comparison of what two rows with the same instant and id show
  /// (Documentation/Formats.md, "`txfold list`"), in this order: the instant
  /// as written, the state, the indicator (`CRDT` first), the amount (smaller
  /// first, then fewer fraction digits: `1.5` before `1.50`), the currency,
  /// the fee (none first, then as the amount), the description, the category
  /// and the counterparty (each absent first, then byte-wise). Texts compare
  /// byte-wise as UTF-8, a prefix first. The date and the total follow from
  /// these, so two rows equal here are the same bytes in every format.
  static func compareShown<Row: ListTieFields>(_ lhs: Row, _ rhs: Row) -> Int {
    var order = compareBytes(lhs.writtenInstant, rhs.writtenInstant)
    if order == 0 { order = compareBytes(lhs.state, rhs.state) }
    if order == 0 && lhs.isCredit != rhs.isCredit { order = lhs.isCredit ? -1 : 1 }
    if order == 0 { order = compareDecimals(lhs.amount, rhs.amount) }
    if order == 0 { order = compareBytes(lhs.currency, rhs.currency) }
    if order == 0 {
      switch (lhs.fee, rhs.fee) {
      case (nil, nil): break
      case (nil, _): order = -1
      case (_, nil): order = 1
      case (let left?, let right?): order = compareDecimals(left, right)
      }
    }
    if order == 0 { order = compareTexts(lhs.description, rhs.description) }
    if order == 0 { order = compareTexts(lhs.category, rhs.category) }
    if order == 0 { order = compareTexts(lhs.counterparty, rhs.counterparty) }
    return order
  }

  /// Three-way comparison of two byte sequences, byte-wise, a prefix first.
  @inlinable
  static func compareBytes<Bytes: Sequence>(_ lhs: Bytes, _ rhs: Bytes) -> Int where Bytes.Element == UInt8 {
    var left = lhs.makeIterator()
    var right = rhs.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
      }
    }
  }

  /// By value, then by fraction digits (fewer first), so that amounts that print differently never tie.
  static func compareDecimals(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Int {
    if lhs != rhs { return lhs < rhs ? -1 : 1 }
    return lhs.scale == rhs.scale ? 0 : (lhs.scale < rhs.scale ? -1 : 1)
  }

  /// An absent text first (before an empty one too), then byte-wise.
  static func compareTexts<Bytes: Sequence>(_ lhs: Bytes?, _ rhs: Bytes?) -> Int where Bytes.Element == UInt8 {
    switch (lhs, rhs) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let left?, let right?): return compareBytes(left, right)
    }
  }

  /// The total order: `compare(_:_:)`, then the input position (earlier first).
  @inlinable
  public static func precedes(
    _ lhs: Transaction, position lhsPosition: Int, _ rhs: Transaction, position rhsPosition: Int
  )
    -> Bool
  {
    let order = compare(lhs, rhs)
    return order != 0 ? order < 0 : lhsPosition < rhsPosition
  }

  /// The transactions newest first; transactions equal in everything the order compares keep their order in the array.
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sorted(_ transactions: [Transaction]) -> [Transaction] {
    sortedPositions(transactions).map { transactions[$0] }
  }

  /// The array's indices in newest-first order (transactions equal in all `compare` reads by index).
  ///
  /// - Complexity: O(n log n) comparisons.
  public static func sortedPositions(_ transactions: [Transaction]) -> [Int] {
    transactions.indices.sorted { precedes(transactions[$0], position: $0, transactions[$1], position: $1) }
  }

  /// Three-way byte-wise comparison of two strings' UTF-8 (which is also
  /// Unicode scalar order).
  @inlinable
  public static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
    compareBytes(lhs.utf8, rhs.utf8)
  }
}
