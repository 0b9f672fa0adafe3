import Foundation
import Testing

/// The sample file of each schema, and the CLI options that choose schemas and framing.
@Suite("txfold group on every schema's sample")
struct SampleDataTests {
  static let customFields = [
    "--field", "id=ref", "--field", "instant=bookedAt", "--field", "instant=createdAt", "--field",
    "amount=value.amount", "--field", "currency=value.currency", "--field", "description=note", "--field",
    "category=kind", "--field", "fee=fee.amount",
  ]

  @Test(
    "Golden transcripts of every sample",
    arguments: [
      ("payback", ["--format", "json", "SampleData/payback-points.json"], "payback"),
      ("ledger", ["--format", "json", "SampleData/ledger-account.json"], "ledger"),
      ("ledger.usd", ["--currency", "USD", "--format", "csv", "SampleData/ledger-account.json"], "ledger"),
      ("ledger.dedupe", ["--dedupe", "--format", "json", "SampleData/ledger-account.json"], "ledger"),
      ("swile", ["--format", "json", "SampleData/swile-wallet.json"], "swile"),
      ("swile.text", ["--locale", "fr", "SampleData/swile-wallet.json"], "swile"),
      ("psd2", ["--format", "json", "SampleData/psd2-account.json"], "psd2"),
      ("psd2.dedupe", ["--dedupe", "--format", "jsonl", "SampleData/psd2-account.json"], "psd2"),
      ("backbase-trailing-commas", ["--format", "json", "SampleData/backbase-trailing-commas.json"], "backbase"),
      (
        "backbase-trailing-commas.allowed",
        ["--allow-trailing-commas", "--format", "json", "SampleData/backbase-trailing-commas.json"], "backbase"
      ),
      ("custom", customFields + ["--format", "json", "SampleData/custom-export.jsonl"], "custom"),
      (
        "mixed",
        ["--format", "jsonl", "SampleData/ledger-account.json", "SampleData/user-10013-grouped-completed.jsonl"],
        "ledger, backbase"
      ),
    ] as [(String, [String], String)])
  func golden(name: String, arguments: [String], schema: String) throws {
    let (text, outcome) = try transcript(arguments)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("schema \(schema)\n"), "\(outcome.stderr)")
    Snapshot.assertMatches(Array(text.utf8), named: "sample-\(name).txt")
  }

  @Test("Arrays read from standard input and on every thread count give the same bytes")
  func arraysEverywhere() throws {
    for name in ["psd2-account.json", "swile-wallet.json", "ledger-account.json"] {
      let path = CLIRunner.sample(name)
      let input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      let reference = try CLIRunner.run(["group", "--quiet", "--format", "json", "--threads", "1", path])
      #expect(reference.status == 0)
      for threads in ["2", "4"] {
        let run = try CLIRunner.run(["group", "--quiet", "--format", "json", "--threads", threads], stdin: input)
        #expect(run.stdout == reference.stdout, "\(name), threads \(threads)")
      }
    }
  }

  @Test(
    "Usage errors for schema, field, currency and items options",
    arguments: [
      (["group", "--schema", "csv"], "--schema"),
      (["group", "--schema", "custom"], "--schema custom"),
      (["group", "--field", "amount"], "--field"),
      (["group", "--field", "price=value"], "--field"),
      (["group", "--field", "amount=a..b"], "--field"),
      (["group", "--field", "amount=value"], "'instant=PATH'"),
      (["group", "--currency", ""], "--currency"),
      (["group", "--currency", "E R"], "--currency"),
      (["group", "--items", "a..b"], "--items"),
      (["group", "--items", ""], "--items"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) throws {
    let outcome = try CLIRunner.run(arguments)
    #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test("--field with a named schema replaces that schema's fields")
  func overridingFields() throws {
    let outcome = try CLIRunner.run([
      "group", "--schema", "ledger", "--field", "description=date", "--format", "jsonl",
      CLIRunner.sample("ledger-account.json"),
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.contains("schema ledger+fields"))
    #expect(
      outcome.text.contains(
        #"{"id":"5101","description":"2023-05-02T08:15:00.000Z","amount":"2450.00","currency":"EUR","#
          + #""instant":"2023-05-02T08:15:00.000Z"}"#))
  }
}
