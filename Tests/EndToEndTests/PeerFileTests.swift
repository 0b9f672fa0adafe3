import Foundation
import Testing

/// Runs `txfold group` with `arguments` in the package root and gives one
/// reviewable text: the command, its exit status, the summary's first line,
/// the report and the rejects file.
func transcript(_ arguments: [String], stdin: [UInt8]? = nil) throws -> (text: String, outcome: CLIRunner.Outcome) {
  let directory = try CLIRunner.temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let rejects = directory.appendingPathComponent("rejects.jsonl")
  let outcome = try CLIRunner.run(
    ["group", "--rejects", rejects.path] + arguments, stdin: stdin, in: CLIRunner.packageRoot)
  let summary = outcome.stderr.split(separator: "\n").first.map(String.init) ?? ""
  let rejected = (try? String(contentsOf: rejects, encoding: .utf8)) ?? "(no rejects file)\n"
  var text = "$ txfold group \(arguments.joined(separator: " "))\n"
  text += "exit \(outcome.status)\n\(summary)\n--- report\n\(outcome.text)--- rejects\n\(rejected)"
  return (text, outcome)
}

/// The real files of `../shared/peers`, as they are, against reviewed golden transcripts.
@Suite("txfold group on the peer files", .enabled(if: CLIRunner.peersAvailable, "needs ../shared/peers"))
struct PeerFileTests {
  static let backbase = [
    "empty_transactions", "single_transactions_P", "grouped_transactions_P", "single_transactions_C",
    "grouped_transactions_C", "single_transactions_P_C_mixed", "grouped_transactions_P_C_mixed",
    "ranjit-tests-Transactions",
  ]

  @Test("Backbase's mock users, with --allow-trailing-commas", arguments: backbase)
  func backbaseUsers(name: String) throws {
    let (text, outcome) = try transcript([
      "--allow-trailing-commas", "--format", "json", "../shared/peers/backbase-transactions/\(name).json",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    // An empty file detects no schema, and says so.
    #expect(outcome.stderr.contains(name == "empty_transactions" ? "no schema detected" : "schema backbase"))
    Snapshot.assertMatches(Array(text.utf8), named: "peer-backbase-\(name).txt")
  }

  @Test(
    "Backbase's files with trailing commas, without the option: only those records are rejected",
    arguments: [
      "single_transactions_P", "grouped_transactions_P", "single_transactions_P_C_mixed",
      "grouped_transactions_P_C_mixed",
    ])
  func backbaseStrict(name: String) throws {
    let (text, outcome) = try transcript([
      "--format", "jsonl", "../shared/peers/backbase-transactions/\(name).json",
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.contains("rejected (invalid-json"))
    Snapshot.assertMatches(Array(text.utf8), named: "peer-backbase-\(name).strict.txt")
  }

  @Test(
    "The other seeds' files, read with --schema auto",
    arguments: [
      ("ledger", ["--format", "json", "../shared/peers/bank-code-challenge/transactions.json"], "ledger"),
      (
        "ledger.dedupe", ["--dedupe", "--format", "json", "../shared/peers/bank-code-challenge/transactions.json"],
        "ledger"
      ),
      (
        "ledger-mvc",
        ["--format", "json", "../shared/peers/bank-code-challenge/mvc-swift-transactions-test-data.json"],
        "ledger"
      ),
      ("payback", ["--format", "json", "../shared/peers/payback/PBTransactions.json"], "payback"),
      ("payback.de", ["--locale", "de", "--members", "3", "../shared/peers/payback/PBTransactions.json"], "payback"),
      ("swile", ["--format", "json", "../shared/peers/swile/transactions.json"], "swile"),
      ("swile.fr", ["--locale", "fr", "../shared/peers/swile/transactions.json"], "swile"),
      ("psd2", ["--format", "json", "../shared/peers/openbanking/nordigendotnet-GetTransactions.json"], "psd2"),
      (
        "psd2.dedupe",
        ["--dedupe", "--format", "json", "../shared/peers/openbanking/nordigendotnet-GetTransactions.json"], "psd2"
      ),
      (
        "psd2-bundle",
        [
          "--items", "AccountsEndpointMockData.GetTransactions", "--format", "json",
          "../shared/peers/openbanking/nordigenapiclient-responses.json",
        ], "psd2"
      ),
      (
        "psd2-bundle.booked",
        [
          "--items", "AccountsEndpointMockData.GetTransactions.transactions.booked", "--format", "csv",
          "../shared/peers/openbanking/nordigenapiclient-responses.json",
        ], "psd2"
      ),
    ] as [(String, [String], String)])
  func otherSeeds(name: String, arguments: [String], schema: String) throws {
    let (text, outcome) = try transcript(arguments)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("schema \(schema)\n"), "\(outcome.stderr)")
    Snapshot.assertMatches(Array(text.utf8), named: "peer-\(name).txt")
  }

  @Test("Every thread count, chunk of standard input and gzip gives the same bytes on a peer array")
  func sameBytesEverywhere() throws {
    let path = CLIRunner.peers.appendingPathComponent("payback/PBTransactions.json").path
    let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let reference = try CLIRunner.run(["group", "--quiet", "--format", "json", path])
    #expect(reference.status == 0)
    for threads in ["1", "2", "3", "8"] {
      let run = try CLIRunner.run(["group", "--quiet", "--format", "json", "--threads", threads, "-"], stdin: input)
      #expect(run.stdout == reference.stdout, "threads \(threads)")
    }
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let gzipped = directory.appendingPathComponent("payback.json.gz")
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
    gzip.arguments = ["-c", "gzip -c \"\(path)\" > \"\(gzipped.path)\""]
    try gzip.run()
    gzip.waitUntilExit()
    let fromGzip = try CLIRunner.run(["group", "--quiet", "--format", "json", gzipped.path])
    #expect(fromGzip.stdout == reference.stdout)
  }
}
