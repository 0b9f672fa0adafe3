/// One account's sums per key and currency, added up from its sorted entries
/// (`AccountEntrySummer`) with no allocation per entry, then appended to a
/// batch of summed accounts (`SummedAccounts`) whose reports the cursor's
/// thread makes by the accumulator's one rule (`SummaryAccumulator.report`).
///
/// A per-account summary sums a few transactions per account for hundreds
/// of thousands of accounts. Adding each one to a `SummaryAccumulator` made
/// an array of the key's bytes, hashed it byte by byte into a dictionary and
/// made the currency's `String`, per entry, and a summing thread allocating
/// what the writing thread freed kept the two waiting on the allocator's
/// lock. Here text keys are interned once for the run (`ByteStringInterner`,
/// which hashes and compares bytes), an account's keys, currencies and cells
/// are found along short arrays reused from account to account, and a batch
/// of accounts travels in a few arrays.
///
/// Currencies are told apart as the accumulator tells them (`String`
/// equality; bytes first, as equal bytes are equal strings), and each cell
/// keeps the currency as its first transaction wrote it, so the cells, their
/// names and the keys are those `add` would make, in the same order. An
/// overflow is found at the transaction that `add` would find it at, and
/// named alike.
final class AccountKeySums {
  // Unchecked: one thread (the summing one) uses an instance, and no method
  // calls out while it modifies a property; the dynamic checks were a tenth of its time.
  /// Text keys by their bytes, for the whole run (emptied between accounts once large).
  private let texts = ByteStringInterner(upperCasing: false)
  /// Each interned text key's slot, made once.
  @exclusivity(unchecked) private var textSlots: [SummaryAccumulator.Slot] = []
  /// The account's keys in the order they first came, with what identifies each (`identity`).
  @exclusivity(unchecked) private var keys: [SummaryAccumulator.Slot] = []
  @exclusivity(unchecked) private var keyIdentities: [UInt64] = []
  /// The account's currencies in the order they first came: the first
  /// writing's bytes (in `currencyBytes`, ending at `currencyEnds`) and its `String`.
  @exclusivity(unchecked) private var currencyBytes: [UInt8] = []
  @exclusivity(unchecked) private var currencyEnds: [Int] = []
  @exclusivity(unchecked) private var currencyNames: [String] = []
  /// Per currency, every key's sums together (the accumulator's `grand`), for its overflow check.
  @exclusivity(unchecked) private var grand: [SummarySums] = []
  /// The account's cells in the order they first came.
  @exclusivity(unchecked) private var cells: [Cell] = []
  /// Look-ups of keys and cells once an account has more than `linearLimit` of them.
  @exclusivity(unchecked) private var keyIndex: [UInt64: Int32] = [:]
  @exclusivity(unchecked) private var cellIndex: [UInt64: Int32] = [:]

  private struct Cell {
    var key: Int32
    var currency: Int32
    /// The currency as the cell's first transaction wrote it.
    var name: String
    var sums = SummarySums()
  }

  /// Keys or cells past which a dictionary finds them rather than a look along the array.
  private static let linearLimit = 16
  /// Distinct text keys held for the run before the interner is emptied (between two accounts).
  private let textLimit: Int

  /// Sums whose interned keys are emptied past `textLimit` of them (a run
  /// by counterparty may meet millions): the room they hold, not the time a
  /// look-up takes, is what the limit bounds.
  init(textLimit: Int = 1 << 16) {
    self.textLimit = textLimit
  }

  /// The transactions added since `startAccount()`, and the first and last of their days.
  @exclusivity(unchecked) private(set) var count = 0
  @exclusivity(unchecked) private var days: DaySpan?

  /// Forgets the previous account's keys and sums, keeping the arrays' room.
  func startAccount() {
    if texts.count > textLimit {
      texts.removeAll()
      textSlots.removeAll(keepingCapacity: true)
    }
    keys.removeAll(keepingCapacity: true)
    keyIdentities.removeAll(keepingCapacity: true)
    currencyBytes.removeAll(keepingCapacity: true)
    currencyEnds.removeAll(keepingCapacity: true)
    currencyNames.removeAll(keepingCapacity: true)
    grand.removeAll(keepingCapacity: true)
    cells.removeAll(keepingCapacity: true)
    if !keyIndex.isEmpty { keyIndex.removeAll(keepingCapacity: true) }
    if !cellIndex.isEmpty { cellIndex.removeAll(keepingCapacity: true) }
    count = 0
    days = nil
  }

  /// Adds one entry's amount in `currency` under the key its payload holds
  /// (`SummaryKeyPayload`), as `SummaryAccumulator.add` would, and its day.
  ///
  /// - Throws: `SumOverflow` (naming the key, or no key for the currency's
  ///   total), leaving the sums as they were.
  func add(_ amount: ExactDecimal, currency written: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer)
    throws(SumOverflow)
  {
    let key = keyNumber(SummaryKeyPayload.key(payload))
    let currency = currencyNumber(written)
    let cell = cellNumber(key: key, currency: currency, written: written)
    var keyed = cells[cell].sums
    var all = grand[Int(currency)]
    // The error is made only when thrown, as the accumulator's.
    guard keyed.add(amount) else {
      throw SumOverflow(
        currency: String(decoding: written, as: UTF8.self),
        key: SummaryAccumulator.key(of: keys[Int(key)]).text ?? TransactionSummary.missingKey)
    }
    guard all.add(amount) else {
      // The grand total: no key to name (`missingKey` would read as the key of records without one).
      throw SumOverflow(currency: String(decoding: written, as: UTF8.self))
    }
    cells[cell].sums = keyed
    grand[Int(currency)] = all
    count += 1
    days.add(SummaryKeyPayload.recordDay(payload))
  }

  /// Appends the account (its id `account`) to `batch`.
  func finishAccount(_ account: UnsafeRawBufferPointer, to batch: inout SummedAccounts) {
    let bytes = batch.accountBytes.count..<(batch.accountBytes.count + account.count)
    batch.accountBytes.append(contentsOf: account)
    let keyRange = batch.keys.count..<(batch.keys.count + keys.count)
    batch.keys.append(contentsOf: keys)
    let cellRange = batch.cells.count..<(batch.cells.count + cells.count)
    for cell in cells {
      batch.cells.append(.init(key: cell.key, currency: cell.currency, name: cell.name, sums: cell.sums))
    }
    let currencyRange = batch.currencies.count..<(batch.currencies.count + grand.count)
    for (currency, sums) in grand.enumerated() {
      batch.currencies.append(.init(key: -1, currency: Int32(currency), name: currencyNames[currency], sums: sums))
    }
    batch.accounts.append(
      .init(account: bytes, count: count, keys: keyRange, cells: cellRange, currencies: currencyRange, days: days))
  }

  /// The number of a key (`SummaryKeyPayload.key`) among the account's keys, added when new.
  private func keyNumber(_ key: UnsafeRawBufferPointer) -> Int32 {
    let identity = identity(key)
    if keys.count <= Self.linearLimit {
      for index in keyIdentities.indices where keyIdentities[index] == identity { return Int32(index) }
    } else if let found = keyIndex[identity] {
      return found
    }
    let number = Int32(keys.count)
    keys.append(slot(identity, key))
    keyIdentities.append(identity)
    if keys.count > Self.linearLimit {
      if keyIndex.isEmpty {
        for (index, known) in keyIdentities.enumerated() { keyIndex[known] = Int32(index) }
      } else {
        keyIndex[identity] = number
      }
    }
    return number
  }

  /// What tells a key apart from others in the run: its tag in
  /// the high half, and the interned text's number or the date slot's code
  /// in the low half.
  private func identity(_ key: UnsafeRawBufferPointer) -> UInt64 {
    guard let tag = key.first else { return 0 }
    if SummaryKeyPayload.isText(tag) {
      let text = UnsafeRawBufferPointer(rebasing: key.dropFirst())
      let number = text.withMemoryRebound(to: UInt8.self) { texts.intern($0) }
      if number == textSlots.count { textSlots.append(.text(texts.strings[number])) }
      return UInt64(tag) << 32 | UInt64(number)
    }
    return UInt64(tag) << 32 | UInt64(UInt32(bitPattern: SummaryKeyPayload.code(key)))
  }

  /// The slot of a key new to the account.
  private func slot(_ identity: UInt64, _ key: UnsafeRawBufferPointer) -> SummaryAccumulator.Slot {
    guard let tag = key.first, SummaryKeyPayload.isText(tag) else { return SummaryKeyPayload.slot(key: key) }
    return textSlots[Int(identity & 0xFFFF_FFFF)]
  }

  /// The number of a currency among the account's, added when new: the
  /// same bytes as one already met, else a `String` equal to one's.
  private func currencyNumber(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    var start = 0
    for (index, end) in currencyEnds.enumerated() {
      if end - start == bytes.count
        && currencyBytes.withUnsafeBytes({ ListEntryLayout.compareBytes(.init(rebasing: $0[start..<end]), bytes) == 0 })
      {
        return Int32(index)
      }
      start = end
    }
    let name = String(decoding: bytes, as: UTF8.self)
    if let index = currencyNames.firstIndex(of: name) { return Int32(index) }
    currencyBytes.append(contentsOf: bytes)
    currencyEnds.append(currencyBytes.count)
    currencyNames.append(name)
    grand.append(SummarySums())
    return Int32(currencyNames.count - 1)
  }

  /// The number of the cell of `key` in `currency`, made when new and named
  /// as the transaction being added writes its currency.
  private func cellNumber(key: Int32, currency: Int32, written: UnsafeRawBufferPointer) -> Int {
    let identity = UInt64(UInt32(bitPattern: key)) << 32 | UInt64(UInt32(bitPattern: currency))
    if cells.count <= Self.linearLimit {
      for index in cells.indices where cells[index].key == key && cells[index].currency == currency { return index }
    } else if let found = cellIndex[identity] {
      return Int(found)
    }
    cells.append(Cell(key: key, currency: currency, name: String(decoding: written, as: UTF8.self)))
    let number = cells.count - 1
    if cells.count > Self.linearLimit {
      if cellIndex.isEmpty {
        for (index, cell) in cells.enumerated() {
          cellIndex[UInt64(UInt32(bitPattern: cell.key)) << 32 | UInt64(UInt32(bitPattern: cell.currency))] =
            Int32(index)
        }
      } else {
        cellIndex[identity] = Int32(number)
      }
    }
    return number
  }
}

/// Accounts summed by `AccountKeySums`, a batch of them in a few arrays,
/// from the summing thread to the cursor's, which makes each one's report.
struct SummedAccounts: Sendable {
  struct Account: Sendable {
    /// Where the account's id, keys, cells and totals per currency lie.
    var account: Range<Int>
    var count: Int
    var keys: Range<Int>
    var cells: Range<Int>
    var currencies: Range<Int>
    /// The first and last day of the account's transactions (`nil`: none), for its page.
    var days: DaySpan?
  }

  /// A key's sums in a currency, or (`key` -1) every key's: the currency
  /// numbered among the account's, named as its first transaction wrote it.
  struct Cell: Sendable {
    var key: Int32
    var currency: Int32
    var name: String
    var sums: SummarySums
  }

  var accounts: [Account] = []
  var accountBytes: [UInt8] = []
  var keys: [SummaryAccumulator.Slot] = []
  var cells: [Cell] = []
  var currencies: [Cell] = []

  /// The account numbered `index` in the batch: its id, its transactions, and its report.
  func summary(_ index: Int, dimension: SummaryDimension, stats: RunStats) -> AccountSummary {
    let account = accounts[index]
    var totals = keys[account.keys].map { SummaryAccumulator.Totals(key: SummaryAccumulator.key(of: $0)) }
    for cell in cells[account.cells] {
      let key = Int(cell.key)
      totals[key].count += cell.sums.count
      totals[key].cells.append(.init(currency: Int(cell.currency), name: cell.name, sums: cell.sums))
    }
    var grand = SummaryAccumulator.Totals(key: .missing, count: account.count)
    grand.cells = currencies[account.currencies].map { .init(currency: Int($0.currency), name: $0.name, sums: $0.sums) }
    return AccountSummary(
      account: String(decoding: accountBytes[account.account], as: UTF8.self), count: account.count,
      report: SummaryAccumulator.report(dimension: dimension, totals: totals, grand: grand, stats: stats))
  }
}
