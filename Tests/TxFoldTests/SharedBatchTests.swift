import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// `TablePool.write(_:with:members:flush:)`: a merged batch's accounts are
/// rendered by the writing thread from the front and by a thread waiting in
/// `acquire()` from the back; the bytes must be those of one thread writing
/// every account in order, however the two split the work.
@Suite("A batch rendered by two threads")
struct SharedBatchTests {
  /// A per-account table of many accounts and its batch, in account order.
  static func batch() throws -> AccountBatch {
    let table = GroupTable(memberLimit: 3, perAccount: true)
    GroupTableRecyclingTests.fold(try GroupTableRecyclingTests.transactions(seed: 3, accounts: 120), into: table)
    #expect(table.finishChunk())
    let accounts = table.groupsByAccount().map { account, groups in
      (account: table.accounts.strings[Int(account)], groups: groups)
    }
    return AccountBatch(table: table, accounts: accounts, pooled: true)
  }

  /// The batch written by one thread, after `before` accounts (so that json's separators show).
  static func alone(_ batch: AccountBatch, format: ReportFormat, before: Int) throws -> [UInt8] {
    var writer = try #require(AccountReportWriter(format: format))
    writer.document.resume(afterAccounts: before)
    var out: [UInt8] = []
    for (account, groups) in batch.accounts {
      writer.write(account: account, table: batch.table, groups: groups, members: true) { out += $0 }
    }
    return out + writer.buffer
  }

  @Test("an account too large to hold in memory is left to the writing thread, and the helper stops there")
  func largeAccountAtTheBack() throws {
    let table = GroupTable(memberLimit: 3, perAccount: true)
    GroupTableRecyclingTests.fold(try GroupTableRecyclingTests.transactions(seed: 5, accounts: 30), into: table)
    // "zz-corporate" sorts last: one group a day for more days than the helper takes groups.
    let groupCount = SharedBatch.largestHelpedAccount + 10
    for day in 0..<groupCount {
      let month = 1 + day / 28
      let dayOfMonth = 1 + day % 28
      let text = "2020-\(month < 10 ? "0" : "")\(month)-\(dayOfMonth < 10 ? "0" : "")\(dayOfMonth)T12:00:00Z"
      let instant = try #require(TimestampParser.parse(text))
      let transaction = Transaction(
        id: "big-\(day)", instant: instant, amount: ExactDecimal("1.25"),
        currency: "EUR", creditDebitIndicator: .credit, state: "COMPLETED")
      Array("zz-corporate".utf8).withUnsafeBufferPointer { table.setAccount($0) }
      #expect(table.fold(transaction))
    }
    #expect(table.finishChunk())
    let accounts = table.groupsByAccount().map { account, groups in
      (account: table.accounts.strings[Int(account)], groups: groups)
    }
    #expect(accounts.last?.groups.count == groupCount)
    let batch = AccountBatch(table: table, accounts: accounts, pooled: true)
    let pool = TablePool(count: 0, memberLimit: 3)
    let helperDone = DispatchSemaphore(value: 0)
    Thread {
      #expect(pool.acquire() == nil)
      helperDone.signal()
    }.start()
    var writer = try #require(AccountReportWriter(format: .jsonl))
    let shared = SharedBatch(batch, writer: writer, members: true)
    pool.share(shared)
    Thread.sleep(forTimeInterval: 0.2)
    var out: [UInt8] = []
    pool.write(batch, with: &writer, members: true, sharing: shared) { out += $0 }
    out += writer.buffer
    pool.close()
    helperDone.wait()
    #expect(shared.rendered.isEmpty)
    #expect(out == (try Self.alone(batch, format: .jsonl, before: 0)))
  }

  @Test(
    "the same bytes whether the helper renders none, some or nearly all of the accounts",
    arguments: [ReportFormat.jsonl, .json])
  func sameBytes(format: ReportFormat) throws {
    let batch = try Self.batch()
    #expect(batch.accounts.count > 50)
    for (before, delay) in [(0, 0.0), (0, 0.2), (5, 0.02), (5, 0.2)] {
      // No free table: `acquire()` helps with the shared batch until the pool closes.
      let pool = TablePool(count: 0, memberLimit: 3)
      let helperDone = DispatchSemaphore(value: 0)
      let helper = Thread {
        #expect(pool.acquire() == nil)
        helperDone.signal()
      }
      var writer = try #require(AccountReportWriter(format: format))
      writer.document.resume(afterAccounts: before)
      helper.start()
      var out: [UInt8] = []
      let shared = SharedBatch(batch, writer: writer, members: true)
      if delay > 0 {
        // The helper takes accounts from the back while this thread waits.
        pool.share(shared)
        Thread.sleep(forTimeInterval: delay)
      }
      pool.write(batch, with: &writer, members: true, sharing: delay > 0 ? shared : nil) { out += $0 }
      out += writer.buffer
      pool.close()
      helperDone.wait()
      #expect(out == (try Self.alone(batch, format: format, before: before)), "before \(before), delay \(delay)")
      #expect(writer.document.accounts == before + batch.accounts.count)
      if delay >= 0.2 {
        #expect(shared.rendered.count > batch.accounts.count / 2, "the helper rendered from the back")
      }
    }
  }
}
