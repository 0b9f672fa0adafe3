/// The bytes of one account's index entry (`HTMLAccountPages.Entry`) as the
/// index holds, spills and merges it (`HTMLIndexEntries`, `HTMLIndexRunCursor`):
/// what a row of the index shows, and where the account came.
///
/// ```
/// 0   UInt32  length of the whole entry, header included
/// 4   UInt64  arrival: the entries noted before this one
/// 12  Int64   the account's transactions
/// 20  UInt8   1 with a period, 0 without
/// 21  Int32   the period's first day (days since 1970-01-01; 0 without)
/// 25  Int32   its last day
/// 29  UInt32  account bytes, then the account's UTF-8 bytes
///     UInt32  file name bytes, then the file name's
///     UInt32  currencies, then for each: UInt32 code bytes, the code's bytes,
///             UInt8 flags (1 an income, 2 an expense: absent once its sum
///             overflowed), income and expense as `ExactDecimal`s (zero when absent)
/// ```
///
/// Entries never leave the process (spill files are unlinked and read back by
/// the same run), so integers and decimals are stored as their memory layout.
/// Each order of the index is a sort key (`key(_:order:)`) and then the
/// arrival: total, so any grouping of the entries into runs merges to the
/// same sequence, and ties come in the order the accounts came.
enum HTMLIndexEntryLayout {
  static let headerSize = 29
  static let decimalSize = MemoryLayout<ExactDecimal>.size
  private static let hasIncome: UInt8 = 1
  private static let hasExpense: UInt8 = 2

  /// The bytes `entry` takes.
  static func size(of entry: HTMLAccountPages.Entry) -> Int {
    var size = headerSize + 4 + entry.account.utf8.count + 4 + entry.fileName.utf8.count + 4
    for sum in entry.sums { size += 4 + sum.currency.utf8.count + 1 + 2 * decimalSize }
    return size
  }

  /// Writes `entry`, noted `arrival`-th, at `target`, which has room for `size(of:)` bytes.
  static func write(_ entry: HTMLAccountPages.Entry, arrival: UInt64, size: Int, to target: UnsafeMutableRawPointer) {
    target.storeBytes(of: UInt32(truncatingIfNeeded: size), as: UInt32.self)
    target.storeBytes(of: arrival, toByteOffset: 4, as: UInt64.self)
    target.storeBytes(of: Int64(entry.count), toByteOffset: 12, as: Int64.self)
    target.storeBytes(of: entry.period == nil ? 0 : 1, toByteOffset: 20, as: UInt8.self)
    target.storeBytes(of: entry.period?.first.daysSinceEpoch ?? 0, toByteOffset: 21, as: Int32.self)
    target.storeBytes(of: entry.period?.last.daysSinceEpoch ?? 0, toByteOffset: 25, as: Int32.self)
    var offset = headerSize
    func put<Text: Collection<UInt8>>(_ bytes: Text) {
      target.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count), toByteOffset: offset, as: UInt32.self)
      UnsafeMutableRawBufferPointer(start: target + offset + 4, count: bytes.count).copyBytes(from: bytes)
      offset += 4 + bytes.count
    }
    put(entry.account.utf8)
    put(entry.fileName.utf8)
    target.storeBytes(of: UInt32(truncatingIfNeeded: entry.sums.count), toByteOffset: offset, as: UInt32.self)
    offset += 4
    for sum in entry.sums {
      put(sum.currency.utf8)
      let flags = (sum.income == nil ? 0 : hasIncome) | (sum.expense == nil ? 0 : hasExpense)
      target.storeBytes(of: flags, toByteOffset: offset, as: UInt8.self)
      target.storeBytes(of: sum.income ?? .zero, toByteOffset: offset + 1, as: ExactDecimal.self)
      target.storeBytes(of: sum.expense ?? .zero, toByteOffset: offset + 1 + decimalSize, as: ExactDecimal.self)
      offset += 1 + 2 * decimalSize
    }
  }

  @inline(__always)
  static func length(_ entry: UnsafeRawPointer) -> Int { Int(entry.loadUnaligned(as: UInt32.self)) }

  @inline(__always)
  static func arrival(_ entry: UnsafeRawPointer) -> UInt64 { entry.loadUnaligned(fromByteOffset: 4, as: UInt64.self) }

  /// Where `entry` comes in index page number `order` of
  /// `HTMLAccountPages.indexFiles`, before its arrival: lower first.
  /// - 0, by id: 0 for every entry (the accounts come in id order).
  /// - 1, by count: most transactions first (the count, its order reversed).
  /// - 2, by latest day: the latest last day first, entries without a period last.
  @inline(__always)
  static func key(_ entry: UnsafeRawPointer, order: Int) -> UInt64 {
    switch order {
    case 1:
      let count = entry.loadUnaligned(fromByteOffset: 12, as: Int64.self)
      // Flipping the sign bit orders signed counts as unsigned keys; the complement reverses them.
      return ~(UInt64(bitPattern: count) ^ (1 << 63))
    case 2:
      guard entry.loadUnaligned(fromByteOffset: 20, as: UInt8.self) != 0 else { return .max }
      let last = entry.loadUnaligned(fromByteOffset: 25, as: Int32.self)
      // At most 2³² - 1, so below every entry without a period.
      return UInt64(Int64(Int32.max) - Int64(last))
    default:
      return 0
    }
  }

  /// Whether `lhs` comes before `rhs` in index page number `order`.
  @inline(__always)
  static func precedes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, order: Int) -> Bool {
    let (left, right) = (key(lhs, order: order), key(rhs, order: order))
    return left != right ? left < right : arrival(lhs) < arrival(rhs)
  }

  /// The entry at `entry`, `length(entry)` bytes long; `nil` when its bytes
  /// do not hold one (a damaged run).
  static func entry(_ entry: UnsafeRawPointer) -> HTMLAccountPages.Entry? {
    let length = length(entry)
    guard length >= headerSize else { return nil }
    var offset = headerSize
    func take(_ count: Int) -> UnsafeRawBufferPointer? {
      guard count >= 0, length - offset >= count else { return nil }
      defer { offset += count }
      return UnsafeRawBufferPointer(start: entry + offset, count: count)
    }
    func count() -> Int? {
      guard let bytes = take(4) else { return nil }
      return Int(bytes.loadUnaligned(as: UInt32.self))
    }
    func text() -> String? {
      guard let count = count(), let bytes = take(count) else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }
    guard let account = text(), let fileName = text(), let currencies = count() else { return nil }
    var sums: [(currency: String, income: ExactDecimal?, expense: ExactDecimal?)] = []
    sums.reserveCapacity(min(currencies, length / (4 + 1 + 2 * decimalSize)))
    for _ in 0..<currencies {
      guard let currency = text(), let amounts = take(1 + 2 * decimalSize) else { return nil }
      let flags = amounts.load(as: UInt8.self)
      let income = amounts.loadUnaligned(fromByteOffset: 1, as: ExactDecimal.self)
      let expense = amounts.loadUnaligned(fromByteOffset: 1 + decimalSize, as: ExactDecimal.self)
      sums.append(
        (currency, flags & hasIncome == 0 ? nil : income, flags & hasExpense == 0 ? nil : expense))
    }
    let count = Int(entry.loadUnaligned(fromByteOffset: 12, as: Int64.self))
    var period: (first: CalendarDay, last: CalendarDay)?
    if entry.loadUnaligned(fromByteOffset: 20, as: UInt8.self) != 0 {
      period = (
        CalendarDay(daysSinceEpoch: entry.loadUnaligned(fromByteOffset: 21, as: Int32.self)),
        CalendarDay(daysSinceEpoch: entry.loadUnaligned(fromByteOffset: 25, as: Int32.self))
      )
    }
    return HTMLAccountPages.Entry(account: account, fileName: fileName, count: count, period: period, sums: sums)
  }
}
