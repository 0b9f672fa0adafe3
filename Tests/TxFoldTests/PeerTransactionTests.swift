import Foundation
import Testing

@testable import TxFold

/// The real files in `../shared/peers` (next to the package), read as they
/// are into whole transactions: each known quirk handled as SPEC.md says.
enum Peers {
  static let directory = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/peers")
  static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }
  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Every transaction of a peer file, the rejections as `line:reason:field`, and the stats.
  static func read(_ name: String, configure: (inout GroupOptions) -> Void = { _ in }) throws -> (
    transactions: [Transaction], rejected: [String], stats: RunStats
  ) {
    var options = GroupOptions()
    configure(&options)
    var transactions: [Transaction] = []
    var rejected: [String] = []
    let reader = TransactionReader(options: options.read)
    reader.onRejection = { rejection in
      rejected.append("\(rejection.line):\(rejection.reason.code):\(rejection.field ?? "-")")
    }
    let stats = try reader.read(paths: [path(name)]) { (transaction, _) throws(Never) in
      transactions.append(transaction)
    }
    return (transactions, rejected, stats)
  }
}

@Suite("Peer files as transactions", .enabled(if: Peers.available, "needs ../shared/peers next to the package"))
struct PeerTransactionTests {
  @Test("Backbase mocks: trailing commas rejected alone without the option, all read with it")
  func backbase() throws {
    let strict = try Peers.read("backbase-transactions/grouped_transactions_P_C_mixed.json")
    #expect(strict.stats.schema == "backbase")
    #expect(strict.rejected == ["21:invalid-json:-", "144:invalid-json:-"])
    #expect(strict.transactions.count == 7)
    let lenient = try Peers.read("backbase-transactions/grouped_transactions_P_C_mixed.json") {
      $0.read.allowTrailingCommas = true
    }
    #expect(lenient.rejected.isEmpty)
    #expect(lenient.transactions.count == 9)
    // Unsigned amounts with varying precision; the indicator gives the sign.
    let amounts = lenient.transactions.map(\.amount.description)
    #expect(amounts.contains("-7.5"))
    #expect(amounts.contains("5200"))
    #expect(lenient.transactions.allSatisfy { $0.instant.offsetMinutes == 0 && $0.currency == "EUR" })
    let empty = try Peers.read("backbase-transactions/empty_transactions.json")
    #expect(empty.stats.lines == 0)
  }

  @Test(
    "The Spanish ledger: malformed dates rejected by line, duplicate ids kept, fee missing or 0.0, null descriptions")
  func ledger() throws {
    let file = try Peers.read("bank-code-challenge/transactions.json")
    #expect(file.stats.schema == "ledger")
    #expect(file.stats.lines == 15)
    #expect(
      file.rejected == [
        "17:invalid-timestamp:date", "55:invalid-timestamp:date", "59:invalid-timestamp:date",
        "70:invalid-timestamp:date",
      ])
    let byID = Dictionary(grouping: file.transactions, by: \.id)
    #expect(byID["2911"]?.count == 2)
    #expect(byID["2911"]?.map { $0.fee?.description ?? "none" }.sorted() == ["-1.11", "0.0"])
    #expect(byID["3369"]?.first?.fee == nil)
    #expect(byID["3369"]?.first?.description == nil)
    #expect(byID["3371"]?.first?.description == nil)
    #expect(byID["1442"]?.first?.description == "")
    #expect(byID["4734"]?.first?.amount.description == "-193.38")
    #expect(file.transactions.allSatisfy { $0.currency == "EUR" && $0.state == "COMPLETED" })
    let small = try Peers.read("bank-code-challenge/mvc-swift-transactions-test-data.json")
    #expect(small.stats.schema == "ledger")
    #expect(small.rejected == ["21:invalid-timestamp:date"])  // the file starts with a blank line
    #expect(small.transactions.filter { $0.id == "5" }.count == 2)
  }

  @Test("PAYBACK: +0200 offsets, PBP, leading-zero references as written, missing descriptions, equal timestamps")
  func payback() throws {
    let file = try Peers.read("payback/PBTransactions.json")
    #expect(file.stats.schema == "payback")
    #expect(file.rejected.isEmpty)
    #expect(file.transactions.count == 21)
    #expect(file.transactions.allSatisfy { $0.currency == "PBP" && $0.instant.offsetMinutes == 120 })
    #expect(file.transactions.contains { $0.id == "098193809705561" })
    #expect(file.transactions.contains { $0.description == nil })
    #expect(file.transactions.allSatisfy { $0.category.map { Int($0) != nil } == true })
    #expect(file.transactions.first?.counterparty == "REWE Group")
    let instants = file.transactions.map(\.instant.description)
    #expect(Set(instants).count < instants.count)
  }

  @Test("Swile: no ids, so positions; null messages; +01:00 with milliseconds")
  func swile() throws {
    let file = try Peers.read("swile/transactions.json")
    #expect(file.stats.schema == "swile")
    #expect(file.rejected.isEmpty)
    #expect(file.transactions.map(\.id) == (1...8).map(String.init))
    #expect(file.transactions.contains { $0.description == nil })
    #expect(file.transactions.allSatisfy { $0.instant.fractionDigits == 3 && $0.instant.offsetMinutes == 60 })
    #expect(file.transactions.first?.counterparty == "Restos du coeur")
    #expect(file.transactions.first?.category == "donation")
  }

  @Test("PSD2: one instant written three ways, an id in both arrays, signed string amounts")
  func psd2() throws {
    let file = try Peers.read("openbanking/nordigendotnet-GetTransactions.json")
    #expect(file.stats.schema == "psd2")
    #expect(file.transactions.map(\.state) == ["COMPLETED", "COMPLETED", "COMPLETED", "PENDING"])
    #expect(file.transactions.map(\.id).filter { $0 == "2023111101697308-1" }.count == 2)
    #expect(file.transactions.allSatisfy { $0.amount.description == "-10.00" && $0.creditDebitIndicator == .debit })
    #expect(file.transactions.allSatisfy { $0.counterparty == "Alderaan Coffee" })
    let written = file.transactions.prefix(3).map(\.instant.description)
    #expect(written == ["2023-11-08T10:05:00Z", "2023-11-08T10:05:00+00:00", "2023-11-08T10:05:00+01:00"])
    #expect(file.transactions[0].instant.compareInstant(file.transactions[1].instant) == 0)
    let bundle = try Peers.read("openbanking/nordigenapiclient-responses.json") {
      $0.read.itemsPath = ["AccountsEndpointMockData", "GetTransactions"]
    }
    #expect(bundle.transactions.map(\.state) == ["COMPLETED", "COMPLETED", "PENDING"])
    #expect(bundle.transactions.map(\.id) == ["string", "string", "3"])
    #expect(bundle.transactions.first?.counterparty == "MON MOTHMA")
  }
}
