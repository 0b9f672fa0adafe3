/// A transaction with its position in the input: what the external sort
/// orders (the position is the last tie-break of `TransactionOrder`).
package struct SortEntry: Sendable, Hashable {
  /// The transaction to order.
  package var transaction: Transaction
  /// Its 1-based position in its input, the final tie-break (of transactions that show the same).
  package var position: Int

  /// Pairs a transaction with its position.
  package init(transaction: Transaction, position: Int) {
    self.transaction = transaction
    self.position = position
  }

  /// The account (byte-wise ascending, transactions without one first),
  /// then `TransactionOrder`'s order (newest first, id, what the row shows),
  /// then position: a total order. Outside
  /// per-account runs no transaction has an account, and this is
  /// `TransactionOrder`'s order; in them, each account's entries come
  /// together, in the order of a list over that account alone.
  @inlinable
  package static func precedes(_ lhs: SortEntry, _ rhs: SortEntry) -> Bool {
    let byAccount = compareAccounts(lhs.transaction.account, rhs.transaction.account)
    if byAccount != 0 { return byAccount < 0 }
    // Two count entries of an account tie on everything but the count
    // (`count(_:account:)`): the order's last tie-break, reached at once.
    if lhs.transaction.instant.epochSeconds == .max && rhs.transaction.instant.epochSeconds == .max {
      return lhs.position < rhs.position
    }
    return TransactionOrder.precedes(lhs.transaction, position: lhs.position, rhs.transaction, position: rhs.position)
  }

  /// Whether two accounts are the same bytes, as the order compares them
  /// (`String`'s `==` takes canonically equivalent ids, which sort apart,
  /// for one).
  @inlinable
  package static func sameAccount(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    var lhs = lhs
    var rhs = rhs
    // In place for native strings (contiguous UTF-8): no copy.
    return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
  }

  /// Three-way comparison of accounts: `nil` first, then byte-wise.
  @inlinable
  package static func compareAccounts(_ lhs: String?, _ rhs: String?) -> Int {
    switch (lhs, rhs) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let left?, let right?): return TransactionOrder.compareUTF8(left, right)
    }
  }

  /// A *count entry* of a per-account list's sort (`AccountCountingRun`):
  /// `tally.count` transactions of `account`, the count in the position's
  /// place, and their first and last day (`tally.days`) in the amount's and
  /// the fee's (each day's number, `CalendarDay.daysSinceEpoch`, as the bits
  /// of a `UInt32`, so the amount is never negative and reads back as written).
  /// Its instant is the latest an instant can be (`Int64.max` seconds; a
  /// record's year is 1–9999), which no transaction has: it sorts before
  /// every entry of its account, and marks the entry as a count
  /// (`countedTally`). Its other fields are empty; it spills and reads
  /// back as any entry (`SpillRecordFormat`).
  package static func count(_ tally: AccountTally, account: String) -> SortEntry {
    var transaction = countTransaction
    transaction.account = account
    if let days = tally.days {
      transaction.amount = dayBits(days.first)
      transaction.fee = dayBits(days.last)
    }
    return SortEntry(transaction: transaction, position: tally.count)
  }

  /// A day's number as the non-negative integer of its bits, as a count entry holds it.
  private static func dayBits(_ day: CalendarDay) -> ExactDecimal {
    ExactDecimal(
      significandHigh: 0, significandLow: UInt64(UInt32(bitPattern: day.daysSinceEpoch)), scale: 0)
  }

  /// The day `dayBits` holds.
  private static func day(bits: ExactDecimal) -> CalendarDay {
    CalendarDay(daysSinceEpoch: Int32(bitPattern: UInt32(truncatingIfNeeded: bits.significandLow)))
  }

  /// Every count entry's transaction but its account: the latest instant there is, the rest empty.
  private static let countTransaction = Transaction(
    id: "",
    instant: Timestamp(
      year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, fractionDigits: 9, style: .zulu,
      offsetNegative: false, nanosecond: 999_999_999, offsetMinutes: 0, epochSeconds: .max),
    amount: .zero, currency: "", creditDebitIndicator: .credit, state: "")

  /// What a count entry (`count(_:account:)`) stands for: its transactions
  /// and their days; `nil` for an entry of a transaction.
  @inline(__always)
  package var countedTally: AccountTally? {
    guard transaction.instant.epochSeconds == .max else { return nil }
    guard let last = transaction.fee else { return AccountTally(count: position) }
    var days = DaySpan(Self.day(bits: transaction.amount))
    days.add(Self.day(bits: last))
    return AccountTally(count: position, days: days)
  }

  /// An estimate of the memory one entry holds in a run buffer: its slot in
  /// the buffer, counted twice because a growing array may hold up to twice
  /// the capacity it uses, and the heap storage of each string too long to be
  /// stored inline (Swift keeps up to 15 UTF-8 bytes in the string value; a
  /// longer one takes a 32-byte header, its bytes and a terminator, rounded
  /// up by the allocator to 16 bytes).
  @inlinable
  package static func estimatedBytes(_ transaction: Transaction) -> Int {
    var bytes = 2 * MemoryLayout<SortEntry>.stride
    @inline(__always) func add(_ string: String?) {
      if let count = string?.utf8.count, count > 15 { bytes += (count + 32 + 1 + 15) & ~15 }
    }
    add(transaction.id)
    add(transaction.currency)
    add(transaction.state)
    add(transaction.description)
    add(transaction.category)
    add(transaction.counterparty)
    add(transaction.account)
    return bytes
  }
}
