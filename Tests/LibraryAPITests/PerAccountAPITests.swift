import Foundation
import Testing
import TxFold

/// Per-account grouping as a backend uses it, through the public API only:
/// in-memory transactions and a byte stream, accounts handed out one at a time.
@Suite("Per-account grouping for a backend")
struct PerAccountAPITests {
  static func transactions() throws -> [Transaction] {
    let stamps = try JSONDecoder().decode(
      [Timestamp].self,
      from: Data(#"["2024-05-17T10:00:00Z","2024-05-17T12:30:00Z","2024-05-18T09:00:00Z","2024-05-19T08:00:00"]"#.utf8))
    var result: [Transaction] = []
    for index in 0..<40 {
      let account: String? = index % 9 == 8 ? nil : ["B-2", "A-10", "A-9", "Z"][index % 4]
      result.append(
        Transaction(
          id: "t\(index)", instant: stamps[index % stamps.count],
          amount: ExactDecimal("\(index).5\(index % 10)") ?? .zero, currency: index % 5 == 0 ? "USD" : "EUR",
          creditDebitIndicator: index % 3 == 0 ? .credit : .debit, state: index % 7 == 0 ? "PENDING" : "COMPLETED",
          account: account))
    }
    return result
  }

  @Test("groupPerAccount: accounts in byte-wise order, each the grouping of its own transactions")
  func inMemory() throws {
    let transactions = try Self.transactions()
    let grouping = TransactionGrouping.groupPerAccount(transactions, memberLimit: 3)
    #expect(grouping.unassigned == 4)
    #expect(grouping.accountCount == 4)
    var seen: [String] = []
    for result in grouping {
      let account = try result.get()
      seen.append(account.account)
      let own = transactions.filter { $0.account == account.account }
      #expect(account.count == own.count)
      #expect(account.sections == (try TransactionGrouping.group(own, memberLimit: 3)).sections)
    }
    // Byte-wise: "A-10" before "A-9", upper case before "Z"-less ids.
    #expect(seen == ["A-10", "A-9", "B-2", "Z"])
  }

  /// `é` as one scalar and as `e` with a combining accent are equal Swift `String`s, but ids
  /// (and accounts) are compared byte-wise, as the CLI compares them: two ids, two accounts.
  @Test("Ids and accounts that differ only in Unicode normalisation are two, in memory as in the CLI")
  func idsAndAccountsAreBytes() throws {
    let stamp = try JSONDecoder().decode(Timestamp.self, from: Data(#""2024-05-17T10:00:00Z""#.utf8))
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let transactions = [composed, decomposed].map {
      Transaction(
        id: $0, instant: stamp, amount: "1.00", currency: "EUR", creditDebitIndicator: .debit, state: "COMPLETED",
        account: $0)
    }
    let deduplicated = try TransactionGrouping.group(transactions, dedupe: true)
    #expect(deduplicated.stats.duplicates == 0)
    #expect(deduplicated.sections.first?.groups.first?.count == 2)
    let grouping = TransactionGrouping.groupPerAccount(transactions)
    #expect(grouping.accountCount == 2)
    #expect(try grouping.map { Array(try $0.get().account.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
  }

  @Test("A per-account run's cursor is a sequence of accounts, and its stats count them at the end")
  func cursorSequence() throws {
    let dump = """
      {"arrangementId":"acc-2","id":"1","creationTime":"2024-05-17T10:00:00","state":"COMPLETED","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"}}
      {"arrangementId":"acc-1","id":"2","creationTime":"2024-05-17T11:00:00","state":"COMPLETED","creditDebitIndicator":"CRDT","transactionAmountCurrency":{"amount":"10.00","currencyCode":"EUR"}}
      {"arrangementId":"acc-2","id":"3","creationTime":"2024-05-18T09:00:00","state":"PENDING","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"2.25","currencyCode":"EUR"}}
      {"id":"4","creationTime":"2024-05-18T09:00:00","state":"PENDING","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"2.25","currencyCode":"EUR"}}

      """
    var options = GroupOptions()
    options.read.accounts = .field
    let pipeline = GroupPipeline(options: options)
    var rejected: [RecordRejection] = []
    pipeline.onRejection = { rejected.append($0) }
    let cursor = try pipeline.runPerAccount(sources: [InputOpener.open(bytes: Array(dump.utf8), name: "dump.jsonl")])
    let accounts = try cursor.map { try $0.get() }
    #expect(accounts.map(\.account) == ["acc-1", "acc-2"])
    #expect(accounts.map(\.count) == [1, 2])
    #expect(accounts[1].sections.map(\.state) == ["PENDING", "COMPLETED"])
    #expect(cursor.stats.accounts == 2)
    #expect(cursor.stats.rejected == 1)
    #expect(rejected.first?.field == "account")
  }

  static let twoAccounts = """
    {"arrangementId":"acc-2","id":"1","creationTime":"2024-05-17T10:00:00","state":"COMPLETED","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"1.50","currencyCode":"EUR"}}
    {"arrangementId":"acc-1","id":"2","creationTime":"2024-05-17T11:00:00","state":"COMPLETED","creditDebitIndicator":"CRDT","transactionAmountCurrency":{"amount":"10.00","currencyCode":"EUR"}}
    {"arrangementId":"acc-2","id":"3","creationTime":"2024-05-18T09:00:00","state":"PENDING","creditDebitIndicator":"DBIT","transactionAmountCurrency":{"amount":"2.25","currencyCode":"EUR"}}

    """

  @Test("ReportRenderer writes a per-account list's cursor: a line per account, in byte-wise order")
  func perAccountListRendered() throws {
    var options = ListOptions()
    options.read.accounts = .field
    let cursor = try ListPipeline(options: options).runPerAccount(sources: [
      InputOpener.open(bytes: Array(Self.twoAccounts.utf8), name: "dump.jsonl")
    ])
    var bytes: [UInt8] = []
    try ReportRenderer.render(cursor, format: .jsonl) { (chunk: inout [UInt8]) in
      bytes += chunk
      chunk.removeAll(keepingCapacity: true)
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix(#"{"account":"acc-1","count":1,"#) == true)
    #expect(lines.last?.hasPrefix(#"{"account":"acc-2","count":2,"#) == true)
  }

  @Test("A partial state writes itself, and reads back to the same bytes")
  func partialWritesItself() throws {
    let partial = try GroupPipeline(options: GroupOptions()).runPartial(sources: [
      InputOpener.open(bytes: Array(Self.twoAccounts.utf8), name: "dump.jsonl")
    ])
    let bytes = partial.serialized()
    var written: [UInt8] = []
    // The closure throws nothing, so neither does the write.
    partial.write { (chunk: inout [UInt8]) in
      written += chunk
      chunk.removeAll(keepingCapacity: true)
    }
    #expect(written == bytes)
    #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"txfoldPartial":{"version":"#))
    let merger = PartialMerger()
    try merger.read(InputOpener.open(bytes: bytes, name: "shard.partial"))
    #expect(merger.merged?.serialized() == bytes)
  }
}
