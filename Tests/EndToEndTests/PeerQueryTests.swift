import Foundation
import Testing

/// `txfold list` and `txfold summary` on the real files of `../shared/peers`: the
/// seeds' own rules (the Spanish ledger's fees and dedupe, PAYBACK's category
/// filter and sum, Swile's pages, the insights by category) on their own data.
@Suite("txfold list and summary on the peer files", .enabled(if: CLIRunner.peersAvailable, "needs ../shared/peers"))
struct PeerQueryTests {
  @Test(
    "Seed rules on seed data",
    arguments: [
      ("list-ledger.dedupe", ["list", "--dedupe", "../shared/peers/bank-code-challenge/transactions.json"]),
      ("list-ledger.csv", ["list", "--format", "csv", "../shared/peers/bank-code-challenge/transactions.json"]),
      (
        "list-payback.category",
        ["list", "--category", "2", "--format", "json", "../shared/peers/payback/PBTransactions.json"]
      ),
      (
        "list-swile.page2",
        ["list", "--page-size", "3", "--page", "2", "--locale", "fr", "../shared/peers/swile/transactions.json"]
      ),
      ("summary-payback.category", ["summary", "--by", "category", "../shared/peers/payback/PBTransactions.json"]),
      (
        "summary-psd2.counterparty",
        [
          "summary", "--by", "counterparty", "--format", "csv",
          "../shared/peers/openbanking/nordigendotnet-GetTransactions.json",
        ]
      ),
    ] as [(String, [String])])
  func seedRules(name: String, arguments: [String]) throws {
    let outcome = try CLIRunner.run(
      arguments + ["--quiet"], environment: ["COLUMNS": "80"], in: CLIRunner.packageRoot)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let text = "$ txfold \(arguments.joined(separator: " "))\nexit \(outcome.status)\n\(outcome.text)"
    Snapshot.assertMatches(Array(text.utf8), named: "peer-\(name).txt")
  }
}
