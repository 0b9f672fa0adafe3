import Foundation
import Testing

@testable import TxFold

/// Records that share an id and an instant (a `PENDING` copy and its
/// `COMPLETED` copy, a re-sent record with another description, …) list in
/// one order whatever the order of the input: on the parallel path (csv,
/// json, jsonl; plain and per account; any thread count; spilled or not), on
/// the `Transaction` path (every format) and in the library's sort.
@Suite("list order of tied records")
struct ListTieOrderTests {
  /// One Backbase record with a `fee` and an `arrangementId`.
  static func record(
    account: String = "A1", id: String = "t-1", time: String = "2024-03-01T10:00:00Z", amount: String = "2",
    currency: String = "EUR", indicator: String = "DBIT", state: String = "COMPLETED", description: String? = nil,
    category: String? = nil, counterparty: String? = nil, fee: String? = nil
  ) -> String {
    var fields = [
      "\"arrangementId\":\"\(account)\"", "\"id\":\"\(id)\"", "\"creationTime\":\"\(time)\"",
      "\"transactionAmountCurrency\":{\"amount\":\"\(amount)\",\"currencyCode\":\"\(currency)\"}",
      "\"creditDebitIndicator\":\"\(indicator)\"", "\"state\":\"\(state)\"",
    ]
    if let description { fields.append("\"description\":\"\(description)\"") }
    if let category { fields.append("\"category\":\"\(category)\"") }
    if let counterparty { fields.append("\"counterPartyName\":\"\(counterparty)\"") }
    if let fee { fields.append("\"fee\":\"\(fee)\"") }
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// Every record of account A1 has id `t-1` and the instant 2024-03-01T10:00:00Z, but for three
  /// neighbours; they differ in every other value a row shows, in ways that escape, quote or
  /// neutralise differently in csv and json; one is repeated exactly. A2 has ties of its own.
  static let lines: [String] = {
    let shifted = "2024-03-01T11:00:00+01:00"
    let quoted = #"a,b \"q\""#
    var lines = [
      record(amount: "1.5", state: "PENDING", description: "Rent", fee: "0.10"),
      record(time: shifted, amount: "1.50", description: "=x"),
      record(time: shifted, amount: "1.50", description: "'=x"),
      record(time: shifted, amount: "1.50", description: "("),
      record(),
      record(description: ""),
      record(description: quoted, category: "Food"),
      record(description: quoted, category: "Food", counterparty: "Shop"),
      record(indicator: "CRDT", description: quoted, category: "Food", counterparty: "Shop"),
      record(currency: "USD", description: quoted, category: "Food", counterparty: "Shop"),
      record(amount: "1.5", state: "PENDING", description: "Rent", fee: "0.10"),
      record(description: #"tab\there\nnl \u0001"#),
      record(time: "2024-03-01T10:00:00.000Z", amount: "1.5", state: "PENDING", description: "Rent", fee: "0.10"),
      record(amount: "1.5", state: "PENDING", description: "Rent", fee: "0.1"),
      record(amount: "1.5", state: "PENDING", description: "Rent", fee: "-0.10"),
      record(amount: "1.5", state: "pending", description: "Rent", fee: "0.10"),
      record(description: "Caf\\u00e9"),
      record(description: "Cafe"),
      record(description: " "),
      record(description: "!"),
      record(category: "-"),
      record(counterparty: "@x"),
      record(id: "t-0", description: "before"),
      record(id: "t-2", description: "after"),
      record(time: "2024-03-02T10:00:00Z", description: "later"),
    ]
    for description in ["=x", "'=x", "(", "", "Rent"] {
      lines.append(record(account: "A2", time: shifted, amount: "1.50", description: description))
    }
    return lines
  }()

  /// The input in its written order, reversed, and in two shuffles (a fixed linear congruential sequence).
  static let orders: [[Int]] = {
    let count = lines.count
    var orders = [Array(0..<count), Array((0..<count).reversed())]
    for seed in [UInt64(7), 12_345] {
      var state = seed
      var order = Array(0..<count)
      for index in stride(from: count - 1, to: 0, by: -1) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        order.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
      }
      orders.append(order)
    }
    return orders
  }()

  static func dump(_ order: [Int]) -> [UInt8] {
    Array((order.map { lines[$0] }.joined(separator: "\n") + "\n").utf8)
  }

  /// Output bytes as text, so that a failure shows the rows.
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static func options() -> ListOptions {
    var options = ListOptions()
    options.read.schema = RecordSchema.backbase.overriding([(.fee, "fee")])
    return options
  }

  @Test("The plain list prints the same bytes for every input order, format, thread count and memory limit")
  func plainList() {
    for format in [ReportFormat.csv, .json, .jsonl, .text, .html] {
      let expected = ListParallelTests.oracle(Self.options(), format: format, dump: Self.dump(Self.orders[0]))
      #expect(expected.error == nil)
      #expect(expected.counts.prefix(3) == [Self.lines.count, Self.lines.count, 0])
      for order in Self.orders {
        let dump = Self.dump(order)
        let oracle = ListParallelTests.oracle(Self.options(), format: format, dump: dump)
        #expect(Self.text(oracle.bytes) == Self.text(expected.bytes), "\(format), the Transaction path, order \(order)")
        guard format != .text && format != .html else { continue }
        for (threads, chunkSize, memoryLimit) in ListParallelTests.layouts {
          var options = Self.options()
          options.threads = threads
          options.memoryLimit = memoryLimit
          options.read.limits = RecordLimits(maxRecordBytes: 1 << 12, chunkSize: chunkSize)
          var spilled = 0
          let parallel = ListParallelTests.parallel(options, format: format, dump: dump, spilled: &spilled)
          #expect(
            Self.text(parallel.bytes) == Self.text(expected.bytes),
            "\(format), \(threads) threads, chunks of \(chunkSize), limit \(memoryLimit), order \(order)")
        }
      }
    }
  }

  @Test("The per-account list prints the same bytes for every input order, on both paths, spilled or not")
  func perAccountList() throws {
    for format in [ReportFormat.csv, .json, .jsonl, .text, .html] {
      let expected = try PerAccountListParallelTests.withFile(Self.dump(Self.orders[0])) { path in
        try PerAccountListParallelTests.run(Self.options(), format: format, path: path, parallel: false)
      }
      #expect(expected.error == nil)
      for order in Self.orders {
        for (threads, memoryLimit) in [(1, 64 << 20), (3, 1), (2, 2000)] {
          var options = Self.options()
          options.threads = threads
          options.memoryLimit = memoryLimit
          for parallel in [false, true] where !parallel || (format != .text && format != .html) {
            let outcome = try PerAccountListParallelTests.withFile(Self.dump(order)) { path in
              try PerAccountListParallelTests.run(options, format: format, path: path, parallel: parallel)
            }
            #expect(
              Self.text(outcome.bytes) == Self.text(expected.bytes),
              "\(format), parallel \(parallel), \(threads) threads, limit \(memoryLimit), order \(order)")
          }
        }
      }
    }
  }

  @Test("The library's sort gives tied transactions one order whatever the array's order")
  func librarySort() throws {
    let pipeline = ListPipeline(options: Self.options())
    let list = try pipeline.run(sources: [MemorySource(Self.dump(Self.orders[0]))])
    defer { list.close() }
    var transactions: [Transaction] = []
    while let transaction = try list.next() { transactions.append(transaction) }
    #expect(transactions.count == Self.lines.count)
    let expected = TransactionQuery.sorted(transactions)
    for order in Self.orders {
      #expect(TransactionQuery.sorted(order.map { transactions[$0] }) == expected, "order \(order)")
    }
  }
}
