import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// Count entries in the external sort's runs (`AccountCountingRun`,
/// `ExternalSorter.countsAccounts`): each account's count, read as
/// `AccountEntryStream` starts it, against the transactions' own counts,
/// whether the account's entries stayed in memory, spilled over many runs,
/// merged into runs or were cut to the page's end.
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

  /// Every account a stream starts, with its count and its entries.
  static func accounts(_ stream: AccountEntryStream) throws -> [(account: String, count: Int, entries: [SortEntry])] {
    var accounts: [(account: String, count: Int, entries: [SortEntry])] = []
    while let account = try stream.nextAccount() {
      var entries: [SortEntry] = []
      while let entry = try stream.next() { entries.append(entry) }
      accounts.append((account, stream.matched, entries))
    }
    return accounts
  }

  @Test(
    "Each account's count is its transactions', cut or not, in memory, spilled or merged into runs",
    arguments: [(1 << 20, nil), (4_000, nil), (4_000, 0), (4_000, 1), (4_000, 3), (1, 2)] as [(Int, Int?)])
  func countsTravel(memoryLimit: Int, keepFirstPerAccount: Int?) throws {
    let transactions = Self.transactions(seed: 41, count: 3_000, accounts: 400)
    let parent = try ExternalSorterTests.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let sorter = ExternalSorter(
      memoryLimit: memoryLimit, temporaryParent: parent, maxFanIn: 3, keepFirstPerAccount: keepFirstPerAccount,
      countsAccounts: true)
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
    #expect(read.allSatisfy { $0.count == 0 })
    #expect(read.map(\.entries.count).reduce(0, +) == transactions.count)
    #expect(read.count == Set(transactions.map { Array(($0.account ?? "").utf8) }).count)
  }

  @Test("A count entry spills and reads back as a count, sorting before every entry of its account")
  func countEntry() throws {
    let count = SortEntry.count(12_345, account: "acc-1")
    #expect(count.countedTransactions == 12_345)
    var latest = try #require(TimestampParser.parse("9999-12-31T23:59:59.999999999-23:59"))
    latest.nanosecond = 999_999_999
    let transaction = Transaction(
      id: "", instant: latest, amount: .zero, currency: "", creditDebitIndicator: .credit, state: "", account: "acc-1")
    let entry = SortEntry(transaction: transaction, position: 0)
    #expect(entry.countedTransactions == nil)
    #expect(SortEntry.precedes(count, entry))
    #expect(!SortEntry.precedes(count, SortEntry.count(1, account: "acc-0")))
    var bytes: [UInt8] = []
    SpillRecordFormat.append(count.transaction, position: count.position, to: &bytes)
    let back = try bytes.withUnsafeBufferPointer { try #require(try SpillRecordFormat.read($0, at: 0)) }
    #expect(SortEntry(transaction: back.transaction, position: back.position) == count)
  }
}
