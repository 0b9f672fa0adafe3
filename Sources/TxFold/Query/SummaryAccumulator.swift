/// Folds transactions one at a time into per-key totals (the streaming
/// `summary`); memory grows with the number of distinct keys.
struct SummaryAccumulator: Sendable {
  /// A key as bytes, so keys are told apart byte-wise.
  enum Slot: Hashable, Sendable {
    case missing
    case text([UInt8])
    case day(Int32)
    case month(Int32)
    case week(Int32)
    case year(Int32)
  }

  struct Cell: Sendable {
    /// The currency, by its number (`currencyNumber(_:)`): currencies equal as `String`s share one.
    var currency: Int
    /// The currency as the cell's first transaction wrote it, which the report shows.
    var name: String
    var sums = SummarySums()
  }

  struct Totals: Sendable {
    var key: SummaryKey
    var count = 0
    var cells: [Cell] = []
  }

  let dimension: SummaryDimension
  let zone: ZoneResolver
  private var index: [Slot: Int] = [:]
  private var totals: [Totals] = []
  /// All keys together, per currency.
  private var grand = Totals(key: .missing)
  /// The currencies met, numbered as `String`s compare (as cells matched them by name before).
  private var currencyNumbers: [String: Int] = [:]
  /// The first and last day of the transactions summed (`nil`: none), in `zone`.
  private(set) var days: DaySpan?
  /// The transactions summed per day, when counted (`countingDays`): `--dedupe` takes its losers
  /// out of the sums again, and the first or last day of what remains needs the counts of every day.
  private var dayCounts: [CalendarDay: Int]?

  init(dimension: SummaryDimension, zone: ZoneResolver = .asWritten) {
    self.dimension = dimension
    self.zone = zone
  }

  /// The accumulator, counting the transactions of each day from now on
  /// (`addDays`, `subtractDays`); memory O(days).
  func countingDays() -> SummaryAccumulator {
    var counting = self
    counting.dayCounts = [:]
    return counting
  }

  /// Adds transactions summed elsewhere (`merge`): their span, and their counts per day when counted.
  mutating func addDays(_ span: DaySpan?, counts: [(day: CalendarDay, count: Int)]) {
    days.merge(span)
    guard dayCounts != nil else { return }
    for (day, count) in counts { dayCounts?[day, default: 0] += count }
  }

  /// Takes out the days of transactions taken out of the sums (`subtract`): their counts per day.
  mutating func subtractDays(_ counts: [(day: CalendarDay, count: Int)]) {
    for (day, count) in counts { dayCounts?[day, default: 0] -= count }
  }

  /// The number of distinct keys so far.
  var keyCount: Int { totals.count }

  /// Counts `transaction` under its key and adds its amount to the key's
  /// income or expense in its currency.
  ///
  /// - Throws: `SumOverflow` (naming the key), leaving the totals as they were.
  mutating func add(_ transaction: Transaction) throws(SumOverflow) {
    let day = zone.day(of: transaction.instant)
    let (slot, key) = keyOf(transaction, day: day)
    try add(transaction.amount, currency: transaction.currency, slot: slot, key: key)
    days.add(day)
  }

  /// Counts an amount in `currency` (as `Transaction` holds it: upper-cased)
  /// under the key `slot` (`key`, made only for a slot not held yet).
  ///
  /// - Throws: `SumOverflow` (naming the key), leaving the totals as they were.
  mutating func add(
    _ amount: ExactDecimal, currency name: String, slot: Slot, key: @autoclosure () -> SummaryKey
  ) throws(SumOverflow) {
    let currency = currencyNumber(name)
    let position: Int
    if let found = index[slot] {
      position = found
    } else {
      position = totals.count
      index[slot] = position
      totals.append(Totals(key: key()))
    }
    // Both sums first, so an overflow leaves every count and sum as it was (a
    // cell it made stays empty, which the report leaves out). In place: a
    // copy of the key's totals to add to copied its cells, an allocation per transaction.
    let keyedCell = Self.cellIndex(currency, name: name, in: &totals[position])
    let allCell = Self.cellIndex(currency, name: name, in: &grand)
    var keyed = totals[position].cells[keyedCell].sums
    var all = grand.cells[allCell].sums
    // The error is made only when thrown: a key's text is a `String` (a date's is formatted).
    guard keyed.add(amount) else {
      throw SumOverflow(currency: name, key: totals[position].key.text ?? TransactionSummary.missingKey)
    }
    // The grand total: no key to name (`missingKey` would read as the key of records without one).
    guard all.add(amount) else { throw SumOverflow(currency: name) }
    totals[position].cells[keyedCell].sums = keyed
    totals[position].count += 1
    grand.cells[allCell].sums = all
    grand.count += 1
  }

  /// The number of the currency `name`, made when new.
  mutating func currencyNumber(_ name: String) -> Int {
    if let number = currencyNumbers[name] { return number }
    let number = currencyNumbers.count
    currencyNumbers[name] = number
    return number
  }

  /// The summary so far: entries in summary order, and the totals of all keys.
  ///
  /// - Complexity: O(k log k) comparisons for k keys.
  func report(stats: RunStats) -> SummaryReport {
    dated(stats: stats).report
  }

  /// `report(stats:)` with the first and last day of the transactions summed.
  func dated(stats: RunStats) -> DatedSummary {
    let report = Self.report(dimension: dimension, totals: totals, grand: grand, stats: stats)
    guard !report.entries.isEmpty else { return DatedSummary(report: report, days: nil) }
    guard let dayCounts else { return DatedSummary(report: report, days: days) }
    // The days that kept a transaction once the losers were taken out.
    var remaining: DaySpan?
    for (day, count) in dayCounts where count > 0 { remaining.add(day) }
    return DatedSummary(report: report, days: remaining)
  }

  /// The summary of `totals` (per key, in any order) and `grand` (all keys
  /// per currency): entries in summary order, and the totals of all keys —
  /// the report an accumulator makes, also of sums added up elsewhere
  /// (`AccountKeySums`).
  ///
  /// - Complexity: O(k log k) comparisons for k keys.
  static func report(dimension: SummaryDimension, totals: [Totals], grand: Totals, stats: RunStats)
    -> SummaryReport
  {
    // Keys and cells whose transactions were all taken out again (`subtract`) are not shown.
    let entries = totals.filter { $0.count > 0 }.map { totals in
      SummaryEntry(key: totals.key, count: totals.count, currencies: sortedCells(totals.cells))
    }
    let ranked = TransactionSummary.rankCurrencies(entries)
    return SummaryReport(
      dimension: dimension, entries: entries.sorted { TransactionSummary.precedes($0, $1, ranked: ranked) },
      totals: sortedCells(grand.cells), stats: stats)
  }

  /// The cells by currency code, income and expense both printed with the
  /// larger of their scales (so `0.00` shows beside `-45.50`, not `0`).
  private static func sortedCells(_ cells: [Cell]) -> [SummaryCurrencyTotals] {
    // One array, sorted in place: most keys hold one currency (a per-account summary makes
    // hundreds of thousands of these).
    var sorted: [SummaryCurrencyTotals] = []
    sorted.reserveCapacity(cells.count)
    for cell in cells where cell.sums.count > 0 {
      let sums = cell.sums
      let scale = max(sums.income.scale, sums.expense.scale)
      sorted.append(
        SummaryCurrencyTotals(
          currency: cell.name, count: sums.count,
          income: sums.income.rescaled(to: scale) ?? sums.income,
          expense: sums.expense.rescaled(to: scale) ?? sums.expense))
    }
    if sorted.count > 1 { sorted.sort { TransactionOrder.compareUTF8($0.currency, $1.currency) < 0 } }
    return sorted
  }

  /// The slot and key of a transaction (on `day` in `zone`) in this summary's dimension.
  private func keyOf(_ transaction: Transaction, day: CalendarDay) -> (Slot, SummaryKey) {
    switch dimension {
    case .category:
      guard let category = transaction.category, !category.isEmpty else { return (.missing, .missing) }
      return (.text(Array(category.utf8)), .text(category))
    case .counterparty:
      guard let counterparty = transaction.counterparty, !counterparty.isEmpty else { return (.missing, .missing) }
      return (.text(Array(counterparty.utf8)), .text(counterparty))
    case .state:
      return (.text(Array(transaction.state.utf8)), .text(transaction.state))
    case .day, .month, .week, .year:
      let slot = Self.slot(of: day, in: dimension)
      return (slot, Self.key(of: slot))
    }
  }

  /// The slot of `day` in a date dimension (day, month, week or year); `.missing` in the others.
  static func slot(of day: CalendarDay, in dimension: SummaryDimension) -> Slot {
    switch dimension {
    case .day:
      return .day(day.daysSinceEpoch)
    case .month:
      let (year, month, _) = day.components
      return .month(Int32(year * 12 + month - 1))
    case .week:
      let (year, week) = isoWeek(of: day)
      return .week(Int32(year * 100 + week))
    case .year:
      return .year(Int32(day.components.year))
    case .category, .counterparty, .state:
      return .missing
    }
  }

  /// The key a slot stands for: the inverse of `keyOf` (years 1 to 9999, so the codes are positive).
  static func key(of slot: Slot) -> SummaryKey {
    switch slot {
    case .missing: return .missing
    case .text(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
    case .day(let days): return .day(CalendarDay(daysSinceEpoch: days))
    // Floored division: a code below zero (a year before 0001, which only an app's own
    // transactions grouped in a zone reach) is a year below zero, not a month or week below one.
    case .month(let code):
      let year = CalendarMath.floorDivide(Int64(code), 12)
      return .month(year: Int(year), month: Int(Int64(code) - year * 12) + 1)
    case .week(let code):
      let year = CalendarMath.floorDivide(Int64(code), 100)
      return .week(year: Int(year), week: Int(Int64(code) - year * 100))
    case .year(let year): return .year(Int(year))
    }
  }

  /// One key's count and sums in one currency over part of the input (a
  /// chunk, folded by a worker): what `merge` adds in.
  struct Contribution: Sendable {
    /// The key, by the worker's number for it (`merge`'s `keys`).
    var key: Int
    /// The currency, by this accumulator's number (`currencyNumber(_:)`).
    var currency: Int
    /// The currency as written, for a cell it makes.
    var name: String
    var sums: SummarySums
  }

  /// Adds a chunk's contributions, given in the order their keys and
  /// currencies first appear in the chunk, so keys and cells are created in
  /// input order as `add` would; the result is what adding the chunk's
  /// transactions one by one gives (sums are exact, and a sum's scale is the
  /// largest of its addends').
  ///
  /// Returns `false`, changing nothing, when adding them one by one would
  /// overflow somewhere: a caller then does that, to find which transaction
  /// overflows first. Every keyed sum is part of the total of its currency
  /// (same sign, no larger scale), so checking those totals first is enough.
  ///
  /// The worker names keys by its own numbers: `keys` are its keys by
  /// number, and `positions` where each is among this accumulator's keys
  /// (-1 while not yet looked up), which `merge` fills in and the caller keeps
  /// for the worker's next chunk, so a key is looked up once per worker.
  ///
  /// - Complexity: O(contributions × currencies per key), plus a look-up per key new to `positions`.
  mutating func merge(_ contributions: [Contribution], keys: [Slot], positions: inout [Int]) throws(SumOverflow)
    -> Bool
  {
    var all = grand
    for contribution in contributions {
      guard Self.add(contribution, to: &all) else { return false }
    }
    if positions.count < keys.count {
      positions.append(contentsOf: repeatElement(-1, count: keys.count - positions.count))
    }
    for contribution in contributions {
      var position = positions[contribution.key]
      if position < 0 {
        let slot = keys[contribution.key]
        if let found = index[slot] {
          position = found
        } else {
          position = totals.count
          index[slot] = position
          totals.append(Totals(key: Self.key(of: slot)))
        }
        positions[contribution.key] = position
      }
      // Cannot fail once the totals fit (see above); reported as `add` would, not trapped.
      guard Self.add(contribution, to: &totals[position]) else {
        throw SumOverflow(
          currency: contribution.name,
          key: totals[position].key.text ?? TransactionSummary.missingKey)
      }
    }
    grand = all
    return true
  }

  /// The index of the cell of `currency` in `totals`, made when new (most keys hold a few currencies).
  @inline(__always)
  private static func cellIndex(_ currency: Int, name: String, in totals: inout Totals) -> Int {
    for index in totals.cells.indices where totals.cells[index].currency == currency { return index }
    totals.cells.append(Cell(currency: currency, name: name))
    return totals.cells.count - 1
  }

  /// Adds `contribution` to its currency's cell of `totals` (made when new); `false` on overflow.
  private static func add(_ contribution: Contribution, to totals: inout Totals) -> Bool {
    let cellIndex = Self.cellIndex(contribution.currency, name: contribution.name, in: &totals)
    guard totals.cells[cellIndex].sums.add(contribution.sums) else { return false }
    totals.count += contribution.sums.count
    return true
  }

  /// Takes contributions back out: `--dedupe`'s losers, which its first pass
  /// summed in with everything else. Sums are exact, so what is left is what
  /// summing the winners alone gives — counts, sums and, as long as an amount
  /// of a cell's largest scale is left in it, the scale its sums print with.
  /// Returns `false` when that scale is no longer known, or a contribution
  /// names a key or cell the accumulator does not hold; the accumulator is
  /// then to be dropped (the winners are summed again instead).
  ///
  /// Keys and cells left with no transaction stay until `report`, which leaves them out.
  ///
  /// - Complexity: O(contributions × currencies per key), plus a look-up per key new to `positions`.
  mutating func subtract(_ contributions: [Contribution], keys: [Slot], positions: inout [Int]) -> Bool {
    if positions.count < keys.count {
      positions.append(contentsOf: repeatElement(-1, count: keys.count - positions.count))
    }
    for contribution in contributions {
      var position = positions[contribution.key]
      if position < 0 {
        guard let found = index[keys[contribution.key]] else { return false }
        position = found
        positions[contribution.key] = position
      }
      guard Self.remove(contribution, from: &totals[position]), Self.remove(contribution, from: &grand) else {
        return false
      }
    }
    return true
  }

  /// Takes `contribution` out of its cell of `totals`; `false` as `subtract` says.
  private static func remove(_ contribution: Contribution, from totals: inout Totals) -> Bool {
    guard let cellIndex = totals.cells.firstIndex(where: { $0.currency == contribution.currency }),
      totals.cells[cellIndex].sums.remove(contribution.sums)
    else { return false }
    totals.count -= contribution.sums.count
    return true
  }

  /// The ISO 8601 week of `day`: the week (Monday to Sunday) is numbered in the year of its
  /// Thursday, and week 1 is the one holding that year's first Thursday.
  static func isoWeek(of day: CalendarDay) -> (year: Int, week: Int) {
    let days = Int(day.daysSinceEpoch)
    // 1970-01-01 was a Thursday: weekday 0 is Monday … 6 is Sunday.
    let weekday = ((days + 3) % 7 + 7) % 7
    let thursday = days - weekday + 3
    let year = CalendarDay(daysSinceEpoch: Int32(thursday)).components.year
    let firstOfYear = Int(CalendarDay(year: year, month: 1, day: 1).daysSinceEpoch)
    return (year, (thursday - firstOfYear) / 7 + 1)
  }
}
