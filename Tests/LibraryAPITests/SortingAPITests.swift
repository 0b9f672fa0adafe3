import Foundation
import Testing
import TxFold

/// The list's order on transactions an app holds: `TransactionQuery.sorted(_:)` in memory, and
/// `ListCursor(sorting:)` in bounded memory, spilling sorted runs to disk as `ListPipeline` does.
@Suite("Sorting transactions in list order")
struct SortingAPITests {
  /// The corpus's transactions in a scrambled but fixed order.
  static func scrambled() throws -> [Transaction] {
    let listed = try ListPipeline(options: ListOptions()).run(paths: [Fixture.path("corpus.jsonl")])
      .remainingTransactions()
    return listed.enumerated().sorted { ($0.offset * 7919) % 101 < ($1.offset * 7919) % 101 }.map(\.element)
  }

  @Test("TransactionQuery.sorted is newest first, and compare agrees with it")
  func inMemory() throws {
    let transactions = try Self.scrambled()
    let sorted = TransactionQuery.sorted(transactions)
    #expect(sorted.count == transactions.count && !sorted.isEmpty)
    for (earlier, later) in zip(sorted, sorted.dropFirst()) {
      #expect(TransactionQuery.compare(earlier, later) <= 0)
      #expect(earlier.instant.compareInstant(later.instant) >= 0)
    }
    #expect(TransactionQuery.sortedPositions(transactions).map { transactions[$0] } == sorted)
    #expect(TransactionQuery().run(transactions).transactions == sorted)
  }

  @Test("ListCursor(sorting:) gives the same order and page, spilled to disk or not", arguments: [1, 256 << 20])
  func spilling(memoryLimit: Int) throws {
    let transactions = try Self.scrambled()
    let expected = TransactionQuery.sorted(transactions)
    let cursor = try ListCursor(sorting: transactions, memoryLimit: memoryLimit)
    #expect(try cursor.remainingTransactions() == expected)
    #expect(cursor.matched == transactions.count && cursor.stats.accepted == transactions.count)
    #expect((cursor.spilledRuns > 0) == (memoryLimit == 1))
    let page = PageRequest(offset: 2, limit: 3)
    let paged = try ListCursor(sorting: transactions, page: page, memoryLimit: memoryLimit)
    #expect(try paged.remainingTransactions() == Array(expected[2..<5]))
  }
}
