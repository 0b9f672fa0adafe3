/// The bytes of one `list` entry as the parallel list sorts, spills and
/// merges it (`ListRunBuffer`, `ListRunCursor`): the sort key, what the sum
/// line needs, and the output row already rendered, with no `String` or
/// `Transaction` per record.
///
/// ```
/// 0   UInt32  length of the whole entry, header included
/// 4   UInt32  nanosecond of the instant
/// 8   Int64   epoch seconds of the instant
/// 16  UInt64  input order: chunk sequence << 32 | record index in its chunk
///             (a count entry: the count)
/// 24  UInt32  id bytes
/// 28  UInt32  currency bytes
/// 32  UInt8   flags: 1 has a fee, 2 amount + fee overflows, 4 a credit,
///             8 the payload is a csv row, 16 a json row, 32 a count entry
/// 33  UInt8   a csv row's text marks (`textMarks`)
/// 36  UInt32  account bytes (0 outside per-account runs)
/// 40  amount  ExactDecimal, as laid out in memory
/// 40+S fee    ExactDecimal (zero without one)
/// header      id bytes, currency bytes, account bytes, then the payload to the end
/// ```
///
/// The payload is the output row of a list, or the key of a per-account
/// summary (`AccountSummaryEntries`).
/// Entries never leave the process (spill files are unlinked and read back
/// by the same run), so the decimals are stored as their memory layout. The
/// order is the account byte-wise, then `TransactionOrder`'s: instant later
/// first, then id byte-wise, then what the row shows (read back from it,
/// `ListEntryRow`), then input order (`precedes`) — `SortEntry`'s, total, so
/// any grouping of the entries into runs merges to the same sequence, each
/// account's entries together, and rows that differ come in the same order
/// whatever the order of the input.
///
/// A per-account list's runs also hold a *count entry* before each account's
/// entries: the header alone (no id, no currency, zero amounts, the count in
/// the input order's place) and the account. Its instant is the latest an
/// entry can have (`Int64.max` seconds; a record's year is 1–9999), so it
/// comes before every entry of its account in `precedes` order, in a run and
/// in any merge of runs: when an account's first entry comes out of a merge,
/// every run's count of that account came out before it, and their sum is
/// the account's count (`AccountListRows`). A merge into a new run adds the
/// count entries of an account into one (`ListRunCursor.merge`), so the
/// counts take one entry per account and run, on disk, never a table in memory.
/// Unlike the `Transaction` sort's (`SortEntry.count`), a count entry here
/// carries no days: the parallel list writes csv, json and jsonl, which name
/// no period, and an entry would need its row's day to give them.
enum ListEntryLayout {
  static let decimalSize = MemoryLayout<ExactDecimal>.size
  static let amountOffset = 40
  static let feeOffset = amountOffset + decimalSize
  /// The fixed part before the id.
  static let headerSize = feeOffset + decimalSize
  static let hasFee: UInt8 = 1
  static let totalOverflows: UInt8 = 2
  static let credit: UInt8 = 4
  static let csvRow: UInt8 = 8
  static let jsonRow: UInt8 = 16
  static let countsAccount: UInt8 = 32
  /// A csv row whose cells kept control characters (`CSVReportWriter.ControlCharacters.kept`):
  /// exact for the tie-break, replaced when the row is written out (`ListCSVWriter.appendRendered`).
  static let csvControls: UInt8 = 64

  /// Text marks: what a csv row cannot tell of its texts — whether an optional one is present
  /// (an absent and an empty one are both an empty cell) and whether a text was neutralised
  /// against formulas (`'=x` is the cell of both `=x` and `'=x`).
  static let hasDescription: UInt8 = 1
  static let hasCategory: UInt8 = 2
  static let hasCounterparty: UInt8 = 4
  static let neutralisedState: UInt8 = 8
  static let neutralisedDescription: UInt8 = 16
  static let neutralisedCategory: UInt8 = 32
  static let neutralisedCounterparty: UInt8 = 64

  /// The input order key of record `index` of chunk `sequence`.
  @inline(__always)
  static func order(sequence: Int, index: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: sequence) << 32 | UInt64(truncatingIfNeeded: index)
  }

  @inline(__always)
  static func length(_ entry: UnsafeRawPointer) -> Int {
    Int(entry.loadUnaligned(as: UInt32.self))
  }

  @inline(__always)
  static func seconds(_ entry: UnsafeRawPointer) -> Int64 {
    entry.loadUnaligned(fromByteOffset: 8, as: Int64.self)
  }

  @inline(__always)
  static func nanosecond(_ entry: UnsafeRawPointer) -> UInt32 {
    entry.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
  }

  @inline(__always)
  static func inputOrder(_ entry: UnsafeRawPointer) -> UInt64 {
    entry.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
  }

  @inline(__always)
  static func id(_ entry: UnsafeRawPointer) -> UnsafeRawBufferPointer {
    let count = Int(entry.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
    return UnsafeRawBufferPointer(start: entry + headerSize, count: count)
  }

  @inline(__always)
  static func currency(_ entry: UnsafeRawPointer) -> UnsafeRawBufferPointer {
    let idCount = Int(entry.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
    let count = Int(entry.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
    return UnsafeRawBufferPointer(start: entry + headerSize + idCount, count: count)
  }

  /// The account's bytes (none outside per-account runs).
  @inline(__always)
  static func account(_ entry: UnsafeRawPointer) -> UnsafeRawBufferPointer {
    let idCount = Int(entry.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
    let currencyCount = Int(entry.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
    let count = Int(entry.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
    return UnsafeRawBufferPointer(start: entry + headerSize + idCount + currencyCount, count: count)
  }

  /// The payload: the rendered row, or a summary's key.
  @inline(__always)
  static func row(_ entry: UnsafeRawPointer) -> UnsafeRawBufferPointer {
    let idCount = Int(entry.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
    let currencyCount = Int(entry.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
    let accountCount = Int(entry.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
    let start = headerSize + idCount + currencyCount + accountCount
    return UnsafeRawBufferPointer(start: entry + start, count: length(entry) - start)
  }

  /// An account's first sixteen bytes as two big-endian integers
  /// (zero-padded) and its length: a sort key that orders accounts as their
  /// bytes do, the bytes read only for two longer accounts that share those.
  struct AccountKey: Equatable {
    var high: UInt64 = 0
    var low: UInt64 = 0
    /// The length (an account's fits: records are at most 1 GiB).
    var count: UInt32 = 0

    @inline(__always)
    init(_ account: UnsafeRawBufferPointer) {
      count = UInt32(truncatingIfNeeded: account.count)
      guard !account.isEmpty else { return }
      for index in 0..<min(8, account.count) { high |= UInt64(account[index]) << (56 - 8 * UInt64(index)) }
      for index in 8..<min(16, max(8, account.count)) {
        low |= UInt64(account[index]) << (56 - 8 * UInt64(index - 8))
      }
    }

    /// Three-way comparison of the accounts; `bytes` gives both accounts' bytes when the keys cannot tell.
    @inline(__always)
    func compare(_ other: AccountKey, bytes: () -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer)) -> Int {
      if high != other.high { return high < other.high ? -1 : 1 }
      if low != other.low { return low < other.low ? -1 : 1 }
      if count > 16 && other.count > 16 {
        let (left, right) = bytes()
        return compareBytes(left, right)
      }
      // Equal first bytes, one account at most sixteen long: it is the other's start (zeros pad it).
      return count == other.count ? 0 : (count < other.count ? -1 : 1)
    }
  }
  @inline(__always)
  static func flags(_ entry: UnsafeRawPointer) -> UInt8 {
    entry.load(fromByteOffset: 32, as: UInt8.self)
  }

  @inline(__always)
  static func textMarks(_ entry: UnsafeRawPointer) -> UInt8 {
    entry.load(fromByteOffset: 33, as: UInt8.self)
  }

  @inline(__always)
  static func amount(_ entry: UnsafeRawPointer) -> ExactDecimal {
    entry.loadUnaligned(fromByteOffset: amountOffset, as: ExactDecimal.self)
  }

  /// The fee, `nil` without one.
  @inline(__always)
  static func fee(_ entry: UnsafeRawPointer) -> ExactDecimal? {
    guard flags(entry) & hasFee != 0 else { return nil }
    return entry.loadUnaligned(fromByteOffset: feeOffset, as: ExactDecimal.self)
  }

  /// Writes the fixed header at the start of `entry` (`length` is the whole entry's). A row's
  /// `rowFlags` (`credit`, `csvRow` or `jsonRow`) and `textMarks` let the tie-break read it back.
  ///
  /// Lengths fit in 32 bits: a record is at most 1 GiB (`--max-record-bytes`), and its row is
  /// about as long as the record (a decoded text is never longer than its JSON, and escaping it
  /// again for CSV or JSON gives back at most that), so an entry stays far below 4 GiB.
  @inline(__always)
  static func writeHeader(
    _ entry: UnsafeMutableRawPointer, length: Int, instant: Timestamp, order: UInt64, idCount: Int,
    currencyCount: Int, accountCount: Int = 0, amount: ExactDecimal, fee: ExactDecimal?, totalOverflows overflows: Bool,
    rowFlags: UInt8 = 0, textMarks: UInt8 = 0
  ) {
    entry.storeBytes(of: UInt32(truncatingIfNeeded: length), as: UInt32.self)
    entry.storeBytes(of: instant.nanosecond, toByteOffset: 4, as: UInt32.self)
    entry.storeBytes(of: instant.epochSeconds, toByteOffset: 8, as: Int64.self)
    entry.storeBytes(of: order, toByteOffset: 16, as: UInt64.self)
    entry.storeBytes(of: UInt32(truncatingIfNeeded: idCount), toByteOffset: 24, as: UInt32.self)
    entry.storeBytes(of: UInt32(truncatingIfNeeded: currencyCount), toByteOffset: 28, as: UInt32.self)
    let flags: UInt8 = (fee == nil ? 0 : hasFee) | (overflows ? totalOverflows : 0) | rowFlags
    entry.storeBytes(of: flags, toByteOffset: 32, as: UInt8.self)
    entry.storeBytes(of: textMarks, toByteOffset: 33, as: UInt8.self)
    entry.storeBytes(of: UInt32(truncatingIfNeeded: accountCount), toByteOffset: 36, as: UInt32.self)
    entry.storeBytes(of: amount, toByteOffset: amountOffset, as: ExactDecimal.self)
    entry.storeBytes(of: fee ?? .zero, toByteOffset: feeOffset, as: ExactDecimal.self)
  }

  /// The length of a count entry of an account of `accountCount` bytes.
  @inline(__always)
  static func countEntryLength(accountCount: Int) -> Int { headerSize + accountCount }

  /// Writes a count entry (`countEntryLength(accountCount: account.count)`
  /// bytes): `count` entries of `account` follow it in its run.
  static func writeCount(_ entry: UnsafeMutableRawPointer, account: UnsafeRawBufferPointer, count: Int) {
    entry.storeBytes(of: UInt32(truncatingIfNeeded: countEntryLength(accountCount: account.count)), as: UInt32.self)
    entry.storeBytes(of: UInt32.max, toByteOffset: 4, as: UInt32.self)
    entry.storeBytes(of: Int64.max, toByteOffset: 8, as: Int64.self)
    entry.storeBytes(of: UInt64(truncatingIfNeeded: count), toByteOffset: 16, as: UInt64.self)
    entry.storeBytes(of: UInt32(0), toByteOffset: 24, as: UInt32.self)
    entry.storeBytes(of: UInt32(0), toByteOffset: 28, as: UInt32.self)
    entry.storeBytes(of: UInt32(0), toByteOffset: 32, as: UInt32.self)
    entry.storeBytes(of: countsAccount, toByteOffset: 32, as: UInt8.self)
    entry.storeBytes(of: UInt32(truncatingIfNeeded: account.count), toByteOffset: 36, as: UInt32.self)
    entry.storeBytes(of: ExactDecimal.zero, toByteOffset: amountOffset, as: ExactDecimal.self)
    entry.storeBytes(of: ExactDecimal.zero, toByteOffset: feeOffset, as: ExactDecimal.self)
    if let source = account.baseAddress { (entry + headerSize).copyMemory(from: source, byteCount: account.count) }
  }

  /// Appends a count entry (`writeCount`) to `out`.
  static func appendCount(account: UnsafeRawBufferPointer, count: Int, to out: inout [UInt8]) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: countEntryLength(accountCount: account.count)))
    out.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      writeCount(base + start, account: account, count: count)
    }
  }

  /// Whether `entry` is a count entry (`writeCount`).
  @inline(__always)
  static func isCount(_ entry: UnsafeRawPointer) -> Bool { flags(entry) & countsAccount != 0 }

  /// A count entry's count.
  @inline(__always)
  static func count(_ entry: UnsafeRawPointer) -> Int { Int(truncatingIfNeeded: inputOrder(entry)) }

  /// `SortEntry.precedes` on two entries: the account byte-wise, then later
  /// instant first, then id byte-wise, then what the row shows, then input order.
  @inline(__always)
  static func precedes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    let leftAccount = account(lhs)
    let rightAccount = account(rhs)
    if leftAccount.count | rightAccount.count != 0 {
      let byAccount = compareBytes(leftAccount, rightAccount)
      if byAccount != 0 { return byAccount < 0 }
    }
    let leftSeconds = seconds(lhs)
    let rightSeconds = seconds(rhs)
    if leftSeconds != rightSeconds { return leftSeconds > rightSeconds }
    let leftNanosecond = nanosecond(lhs)
    let rightNanosecond = nanosecond(rhs)
    if leftNanosecond != rightNanosecond { return leftNanosecond > rightNanosecond }
    return tieBreak(lhs, rhs)
  }

  /// The order of two entries of the same account and instant: id byte-wise, then what the
  /// row shows (`TransactionOrder.compareShown`, as the `Transaction` path orders), then input
  /// order — which only rows equal in every value shown reach, and a summary's keys.
  static func tieBreak(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    let byID = compareBytes(id(lhs), id(rhs))
    if byID != 0 { return byID < 0 }
    if let left = ListEntryRow(lhs), let right = ListEntryRow(rhs) {
      let byShown = TransactionOrder.compareShown(left, right)
      if byShown != 0 { return byShown < 0 }
    }
    return inputOrder(lhs) < inputOrder(rhs)
  }

  /// Three-way byte-wise comparison (a prefix first).
  @inline(__always)
  static func compareBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
    let common = min(lhs.count, rhs.count)
    if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
      let result = memcmpBytes(left, right, common)
      if result != 0 { return result }
    }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
  }

  @inline(__always)
  private static func memcmpBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Int {
    var index = 0
    while index + 8 <= count {
      let left = UInt64(bigEndian: lhs.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let right = UInt64(bigEndian: rhs.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      if left != right { return left < right ? -1 : 1 }
      index += 8
    }
    while index < count {
      let left = lhs.load(fromByteOffset: index, as: UInt8.self)
      let right = rhs.load(fromByteOffset: index, as: UInt8.self)
      if left != right { return left < right ? -1 : 1 }
      index += 1
    }
    return 0
  }
}
