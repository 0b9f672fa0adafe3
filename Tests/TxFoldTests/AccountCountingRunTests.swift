import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// Count entries in the external sort's runs (`AccountCountingRun`,
/// `ExternalSorter.countsAccounts`): each account's count and first and last
/// day, read as `AccountEntryStream` starts it, against the transactions'
/// own, whether the account's entries stayed in memory, spilled over many
/// runs, merged into runs or were cut to the page's end.
@Suite("Count entries of the external sort")
struct AccountCountingRunTests {
  /// Random transactions over `accounts` accounts, skewed (a few with many
  /// transactions, most with few), with two ids that are canonically
  /// equivalent yet differ byte-wise, so sort apart.
  static func transactions(seed: UInt64, count: Int, accounts: Int) -> [Transaction] {
    var random = SplitMix64(seed: seed)
    let names = ["é", "e\u{301}"] + (0..<accounts - 2).map { "acc-\($0)" }
    return ExternalSorterTests.randomTransactions(seed: seed, count: count).map { transaction in
      var transaction = transaction
      let skewed = random.chance(percent: 30) ? random.next(below: 3) : random.next(below: names.count)
      transaction.account = names[skewed]
      return transaction
    }
  }

  /// Every account a stream starts, with its count, its days and its entries.
  static func accounts(_ stream: AccountEntryStream) throws -> [(
    account: String, count: Int, days: DaySpan?, entries: [SortEntry]
  )] {
    var accounts: [(account: String, count: Int, days: DaySpan?, entries: [SortEntry])] = []
    while let account = try stream.nextAccount() {
      var entries: [SortEntry] = []
      while let entry = try stream.next() { entries.append(entry) }
      accounts.append((account, stream.matched, stream.days, entries))
    }
    return accounts
  }

  @Test(
    "Each account's count and days are its transactions', cut or not, in memory, spilled or merged into runs",
    arguments: [(1 << 20, nil), (4_000, nil), (4_000, 0), (4_000, 1), (4_000, 3), (1, 2)] as [(Int, Int?)])
  func countsTravel(memoryLimit: Int, keepFirstPerAccount: Int?) throws {
    let transactions = Self.transactions(seed: 41, count: 3_000, accounts: 400)
    let parent = try ExternalSorterTests.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    // As written: a transaction's day is not its instant's (offsets of -01:30 to +02:00).
    let zone = ZoneResolver.asWritten
    let sorter = ExternalSorter(
      memoryLimit: memoryLimit, temporaryParent: parent, maxFanIn: 3, keepFirstPerAccount: keepFirstPerAccount,
      countsAccounts: true, accountDayZone: zone)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let stream = AccountEntryStream(sorted: try sorter.finish())
    let read = try Self.accounts(stream)

    // The oracle: the in-memory order, split by account byte-wise.
    var expected: [(account: String, entries: [SortEntry])] = []
    let sorted = transactions.enumerated().map { SortEntry(transaction: $1, position: $0) }
      .sorted(by: SortEntry.precedes)
    for entry in sorted {
      let account = entry.transaction.account ?? ""
      if expected.last.map({ Array($0.account.utf8) == Array(account.utf8) }) ?? false {
        expected[expected.count - 1].entries.append(entry)
      } else {
        expected.append((account, [entry]))
      }
    }
    #expect(expected.count > 300)
    // Compared whole, reported in figures (the arrays are long).
    #expect(read.count == expected.count)
    let sameAccounts = read.map { Array($0.account.utf8) } == expected.map { Array($0.account.utf8) }
    #expect(sameAccounts)
    let wrongCounts = zip(read, expected).filter { $0.count != $1.entries.count }.map(\.0.account)
    #expect(wrongCounts.isEmpty)
    // The days of every transaction of the account, those cut from the page too.
    let wrongDays = zip(read, expected).filter { read, expected in
      var days: DaySpan?
      for entry in expected.entries { days.add(zone.day(of: entry.transaction.instant)) }
      return read.days != days
    }.map(\.0.account)
    #expect(wrongDays.isEmpty)
    // A cut keeps each account's first entries in every run: the first n overall come first.
    let first = keepFirstPerAccount ?? .max
    let wrongEntries = zip(read, expected).filter { read, expected in
      read.entries.prefix(first) != expected.entries.prefix(first) || read.entries.count > expected.entries.count
    }.map(\.0.account)
    #expect(wrongEntries.isEmpty)
    if memoryLimit < 5_000 { #expect(sorter.spilledRuns > 20) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
  }

  @Test("Without counts, no count entry: each account starts at 0, its entries whole")
  func withoutCounts() throws {
    let transactions = Self.transactions(seed: 42, count: 1_000, accounts: 50)
    let sorter = ExternalSorter(memoryLimit: 4_000, maxFanIn: 3)
    for (position, transaction) in transactions.enumerated() { try sorter.add(transaction, position: position) }
    let read = try Self.accounts(AccountEntryStream(sorted: try sorter.finish()))
    #expect(read.allSatisfy { $0.count == 0 && $0.days == nil })
    #expect(read.map(\.entries.count).reduce(0, +) == transactions.count)
    #expect(read.count == Set(transactions.map { Array(($0.account ?? "").utf8) }).count)
  }

  @Test("A count entry spills and reads back as a count with its days, sorting before every entry of its account")
  func countEntry() throws {
    // Days before 1970 are negative numbers: they travel as the bits of a UInt32, the amount never negative.
    var days = DaySpan(CalendarDay(year: 1, month: 1, day: 1))
    days.add(CalendarDay(year: 9999, month: 12, day: 31))
    let count = SortEntry.count(AccountTally(count: 12_345, days: days), account: "acc-1")
    #expect(count.countedTally == AccountTally(count: 12_345, days: days))
    #expect(SortEntry.count(AccountTally(count: 2), account: "acc-1").countedTally == AccountTally(count: 2))
    var latest = try #require(TimestampParser.parse("9999-12-31T23:59:59.999999999-23:59"))
    latest._nanosecond = 999_999_999
    let transaction = Transaction(
      id: "", instant: latest, amount: .zero, currency: "", creditDebitIndicator: .credit, state: "", account: "acc-1")
    let entry = SortEntry(transaction: transaction, position: 0)
    #expect(entry.countedTally == nil)
    #expect(SortEntry.precedes(count, entry))
    #expect(!SortEntry.precedes(count, SortEntry.count(AccountTally(count: 1), account: "acc-0")))
    var bytes: [UInt8] = []
    SpillRecordFormat.append(count.transaction, position: count.position, to: &bytes)
    let back = try bytes.withUnsafeBufferPointer { try #require(try SpillRecordFormat.read($0, at: 0)) }
    #expect(SortEntry(transaction: back.transaction, position: back.position) == count)
    #expect(SortEntry(transaction: back.transaction, position: back.position).countedTally?.days == days)
  }
}
