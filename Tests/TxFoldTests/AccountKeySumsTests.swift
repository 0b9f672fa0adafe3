import Testing

@testable import TxFold

/// `AccountKeySums` (a per-account summary's summing thread) against
/// `SummaryAccumulator.add`, the rule it must agree with: the same report for
/// each account — keys, cells, the names cells show, totals per currency —
/// past the look-up's switch from arrays to dictionaries, across accounts
/// that reuse its arrays and its interned keys, and after the interner is
/// emptied; and the same error, at the same transaction, on overflow.
@Suite("Per-account summing without an accumulator per entry")
struct AccountKeySumsTests {
  /// One transaction: its amount, its currency as written, and its key in the dimension.
  struct Entry {
    var amount: ExactDecimal
    var currency: String
    var slot: SummaryAccumulator.Slot
  }

  /// The entry's payload as the workers write it (`SummaryKeyPayload`): its day, then its key.
  static func payload(_ entry: Entry, dimension: SummaryDimension) -> [UInt8] {
    var bytes: [UInt8] = []
    let day = Self.day(of: entry)
    switch entry.slot {
    case .missing:
      SummaryKeyPayload.append(day: day, dimension: dimension, text: nil, code: 0, to: &bytes)
    case .text(let text):
      text.withUnsafeBufferPointer {
        SummaryKeyPayload.append(day: day, dimension: dimension, text: $0, code: 0, to: &bytes)
      }
    default:
      SummaryKeyPayload.append(
        day: day, dimension: dimension, text: nil, code: SummaryKeyPayload.code(of: entry.slot), to: &bytes)
    }
    return bytes
  }

  /// A day for each entry, told by its amount, so that accounts span different days.
  static func day(of entry: Entry) -> CalendarDay {
    CalendarDay(daysSinceEpoch: 19_000 + Int32(truncatingIfNeeded: entry.amount.hashValue & 0x3FF))
  }

  /// Each account summed by `sums` (one batch), or the error of the first that overflowed.
  static func summed(
    _ accounts: [[Entry]], dimension: SummaryDimension, sums: AccountKeySums = AccountKeySums()
  ) -> Result<[SummaryReport], SumOverflow> {
    var batch = SummedAccounts()
    for (number, entries) in accounts.enumerated() {
      sums.startAccount()
      for entry in entries {
        let currency = Array(entry.currency.utf8)
        let payload = payload(entry, dimension: dimension)
        let added = currency.withUnsafeBytes { currency in
          payload.withUnsafeBytes { payload in
            Result { () throws(SumOverflow) in try sums.add(entry.amount, currency: currency, payload: payload) }
          }
        }
        if case .failure(let error) = added { return .failure(error) }
      }
      Array("account-\(number)".utf8).withUnsafeBytes { sums.finishAccount($0, to: &batch) }
    }
    // Each account's days are its entries' first and last.
    for (account, entries) in zip(batch.accounts, accounts) {
      let days = entries.map(day(of:))
      #expect(account.days?.period.first == days.min() && account.days?.period.last == days.max())
    }
    return .success(batch.accounts.indices.map { batch.summary($0, dimension: dimension, stats: RunStats()).report })
  }

  /// Each account added one transaction at a time to an accumulator of its own.
  static func expected(_ accounts: [[Entry]], dimension: SummaryDimension) -> Result<[SummaryReport], SumOverflow> {
    var reports: [SummaryReport] = []
    for entries in accounts {
      var accumulator = SummaryAccumulator(dimension: dimension)
      for entry in entries {
        do throws(SumOverflow) {
          try accumulator.add(
            entry.amount, currency: entry.currency, slot: entry.slot, key: SummaryAccumulator.key(of: entry.slot))
        } catch {
          return .failure(error)
        }
      }
      reports.append(accumulator.report(stats: RunStats()))
    }
    return .success(reports)
  }

  static func text(_ text: String) -> SummaryAccumulator.Slot { .text(Array(text.utf8)) }

  /// The amount `text` writes (a test's own text: `nil` would be the test's mistake, shown as a zero that breaks it).
  static func amount(_ text: String) -> ExactDecimal {
    guard let amount = ExactDecimal(text) else {
      Issue.record("not an amount: \(text)")
      return .zero
    }
    return amount
  }

  @Test("Reports as the accumulator makes them, past sixteen keys and cells, over reused arrays")
  func reports() {
    // Account 0: 40 categories in two currencies, a missing key, amounts of several scales and signs.
    var large: [Entry] = []
    for index in 0..<120 {
      let slot = index % 41 == 40 ? SummaryAccumulator.Slot.missing : Self.text("category-\(index % 41)")
      large.append(
        Entry(
          amount: Self.amount("\(index % 2 == 0 ? "-" : "")\(index).\(index % 3 == 0 ? "5" : "25")"),
          currency: index % 3 == 0 ? "USD" : "EUR", slot: slot))
    }
    // Account 1: a few keys, one of account 0's among them, so interned keys are shared.
    let small = [
      Entry(amount: Self.amount("-4.20"), currency: "EUR", slot: Self.text("category-3")),
      Entry(amount: Self.amount("10"), currency: "GBP", slot: Self.text("Rent")),
      Entry(amount: Self.amount("-1.005"), currency: "EUR", slot: Self.text("category-3")),
    ]
    // Account 2: the currency written two ways that are equal as strings (É as one scalar and
    // as E and an accent) and an ASCII one: one currency, each cell named by its first writing.
    let composed = "\u{C9}UR"
    let decomposed = "E\u{301}UR"
    let mixed = [
      Entry(amount: Self.amount("-1"), currency: decomposed, slot: Self.text("a")),
      Entry(amount: Self.amount("-2"), currency: composed, slot: Self.text("a")),
      Entry(amount: Self.amount("-3"), currency: composed, slot: Self.text("b")),
      Entry(amount: Self.amount("4"), currency: "EUR", slot: Self.text("b")),
    ]
    let accounts = [large, small, mixed, [], large.reversed(), small]
    let got = Self.summed(accounts, dimension: .category)
    let want = Self.expected(accounts, dimension: .category)
    #expect(got == want)
    // By their bytes too: `String` equality takes the two ways of writing É for one.
    #expect(Array("\(got)".utf8) == Array("\(want)".utf8))
    if case .success(let reports) = got {
      #expect(reports[0].entries.count == 41)
      #expect(reports[2].totals.count == 2, "\(reports[2].totals)")
    }
  }

  @Test("Date keys are told apart by their dimension's code")
  func dateKeys() {
    let days = (0..<30).map { CalendarDay(year: 2024, month: 1 + $0 % 12, day: 1 + $0 % 28) }
    for dimension in [SummaryDimension.day, .week, .month, .year] {
      let entries = days.enumerated().map { index, day in
        Entry(
          amount: Self.amount("-\(index + 1).10"), currency: "EUR",
          slot: SummaryAccumulator.slot(of: day, in: dimension))
      }
      #expect(
        Self.summed([entries, entries], dimension: dimension)
          == Self.expected([entries, entries], dimension: dimension))
    }
  }

  @Test("The interned keys are emptied between accounts once many, and later accounts still sum right")
  func internerEmptied() {
    let sums = AccountKeySums(textLimit: 8)
    let accounts = (0..<5).map { account in
      (0..<20).map { index in
        Entry(amount: Self.amount("-\(index).01"), currency: "EUR", slot: Self.text("key-\(account)-\(index % 12)"))
      }
    }
    #expect(
      Self.summed(accounts, dimension: .counterparty, sums: sums) == Self.expected(accounts, dimension: .counterparty))
  }

  @Test("An overflow is found at the same transaction, named as the accumulator names it")
  func overflow() {
    let huge = Self.amount(String(repeating: "9", count: 38))
    let keyed = [
      Entry(amount: Self.amount("1"), currency: "EUR", slot: Self.text("Rent")),
      Entry(amount: huge, currency: "EUR", slot: Self.text("Rent")),
      Entry(amount: huge, currency: "EUR", slot: Self.text("Rent")),
    ]
    // Apart per key, together past the currency's total.
    let total = [
      Entry(amount: huge, currency: "USD", slot: Self.text("a")),
      Entry(amount: huge, currency: "USD", slot: Self.text("b")),
    ]
    for accounts in [[keyed], [total], [[], keyed]] {
      let got = Self.summed(accounts, dimension: .category)
      #expect(got == Self.expected(accounts, dimension: .category))
      if case .success = got { Issue.record("no overflow in \(accounts)") }
    }
  }
}
