import Foundation
import Testing

/// `txfold gen --schema`: the same generated transactions in each built-in schema's own fields,
/// read back by `--schema auto` (Documentation/Guide.md, "`txfold gen`").
@Suite("txfold gen --schema, end to end")
struct GenSchemaCommandTests {
  /// What each schema's records carry of a Backbase record's facts, as `list --format jsonl`
  /// shows them: the keys of a row that differ, and what they are instead.
  struct Loss: Sendable, CustomTestStringConvertible {
    var schema: String
    /// Row keys the schema cannot carry: compared after removing them from both sides.
    var dropped: Set<String>
    /// The currency every record is read in, where the schema has no currency field.
    var onlyCurrency: String?
    var testDescription: String { schema }
  }

  static let losses = [
    // No state: everything is read COMPLETED.
    Loss(schema: "payback", dropped: ["state"]),
    Loss(schema: "ledger", dropped: ["state", "category", "counterparty", "currency"], onlyCurrency: "EUR"),
    // No id: a record's id is its position.
    Loss(schema: "swile", dropped: ["state", "id"]),
    // The state is the report's (booked or pending), which a line has not.
    Loss(schema: "psd2", dropped: ["state", "category"]),
  ]
  static let count = "3000"

  static func gen(_ arguments: [String]) throws -> [UInt8] {
    let outcome = try CLIRunner.run(["gen", "--count", count, "--seed", "5"] + arguments)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return outcome.stdout
  }

  /// The rows of `list --format jsonl` over `dump`, less `dropped` keys and `total` (a running
  /// sum, which depends on the order of equal instants), as sorted JSON texts.
  static func rows(of dump: [UInt8], dropping dropped: Set<String>) throws -> [String] {
    let listed = try CLIRunner.run(["list", "--quiet", "--format", "jsonl", "--limit", "100000"], stdin: dump)
    #expect(listed.status == 0, "\(listed.stderr)")
    return try listed.text.split(separator: "\n").map { line in
      var row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for key in dropped.union(["total"]) { row.removeValue(forKey: key) }
      return String(decoding: try JSONSerialization.data(withJSONObject: row, options: .sortedKeys), as: UTF8.self)
    }.sorted()
  }

  /// A group report's groups by day and indicator, summed over its states: count and exact
  /// totals per currency (all in `onlyCurrency` when given).
  struct Fold: Equatable {
    var count = 0
    var totals: [String: Decimal] = [:]
  }

  static func folds(of report: [UInt8], onlyCurrency: String? = nil) throws -> (
    states: Set<String>, groups: [String: Fold]
  ) {
    let document = try #require(try JSONSerialization.jsonObject(with: Data(report)) as? [String: Any])
    let sections = try #require(document["sections"] as? [[String: Any]])
    var states: Set<String> = []
    var groups: [String: Fold] = [:]
    for section in sections {
      states.insert(try #require(section["state"] as? String))
      for group in try #require(section["groups"] as? [[String: Any]]) {
        let key = "\(group["date"] ?? "") \(group["creditDebitIndicator"] ?? "")"
        var fold = groups[key] ?? Fold()
        fold.count += try #require(group["count"] as? Int)
        for total in try #require(group["totals"] as? [[String: String]]) {
          let currency = onlyCurrency ?? total["currency"] ?? ""
          let amount = try #require(Decimal(string: total["amount"] ?? "", locale: Locale(identifier: "en_US_POSIX")))
          fold.totals[currency, default: 0] += amount
        }
        groups[key] = fold
      }
    }
    return (states, groups)
  }

  @Test("Every record of a schema's dump is detected and accepted, with a Backbase dump's facts", arguments: losses)
  func sameTransactions(loss: Loss) throws {
    let backbase = try Self.gen([])
    let dump = try Self.gen(["--schema", loss.schema])
    #expect(dump.filter { $0 == UInt8(ascii: "\n") }.count == 3000)

    let report = try CLIRunner.run(["group", "--schema", "auto", "--format", "json"], stdin: dump)
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stderr.contains("3000 accepted, 0 rejected"), "\(report.stderr)")
    #expect(report.stderr.contains("schema \(loss.schema)\n"), "\(report.stderr)")

    // Record by record: the same ids, instants, amounts, indicators, descriptions,
    // categories and counterparties, less what the schema has no field for.
    #expect(try Self.rows(of: dump, dropping: loss.dropped) == Self.rows(of: backbase, dropping: loss.dropped))

    // The group report: no schema but Backbase carries a state, so the Backbase report's
    // PENDING and COMPLETED groups of a day and indicator are one COMPLETED group here,
    // with the same count and totals (the ledger's in EUR, its only currency).
    let backbaseReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: backbase)
    let expected = try Self.folds(of: backbaseReport.stdout, onlyCurrency: loss.onlyCurrency)
    let actual = try Self.folds(of: report.stdout)
    #expect(expected.states == ["PENDING", "COMPLETED"])
    #expect(actual.states == ["COMPLETED"])
    #expect(actual.groups == expected.groups)
    #expect(actual.groups.values.map(\.count).reduce(0, +) == 3000)
  }

  @Test("A schema's dump is the same bytes for the same seed, and reads back the same gzipped", arguments: losses)
  func deterministicAndGzip(loss: Loss) throws {
    let first = try Self.gen(["--schema", loss.schema])
    #expect(try Self.gen(["--schema", loss.schema]) == first)
    #expect(try CLIRunner.run(["gen", "--count", Self.count, "--seed", "6", "--schema", loss.schema]).stdout != first)
    let gzipped = try Self.gen(["--schema", loss.schema, "--gzip"])
    #expect(Array(gzipped.prefix(2)) == [0x1F, 0x8B])
    let plainReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: first)
    let gzipReport = try CLIRunner.run(["group", "--quiet", "--format", "json"], stdin: gzipped)
    #expect(gzipReport.status == 0)
    #expect(plainReport.stdout == gzipReport.stdout)
  }

  @Test("--order arranges a schema's dump without changing its report; --resend re-sends by id")
  func orderAndResend() throws {
    for schema in ["payback", "ledger", "swile", "psd2"] {
      let day = try CLIRunner.run(["group", "--quiet", "--format", "csv"], stdin: try Self.gen(["--schema", schema]))
      let shuffled = try Self.gen(["--schema", schema, "--order", "shuffled"])
      let report = try CLIRunner.run(["group", "--quiet", "--format", "csv"], stdin: shuffled)
      #expect(report.status == 0)
      #expect(report.stdout == day.stdout, "\(schema)")
    }
    for schema in ["payback", "ledger", "psd2"] {
      let resent = try Self.gen(["--schema", schema, "--resend", "0.2"])
      #expect(resent.filter { $0 == UInt8(ascii: "\n") }.count == 3600)
      let deduped = try CLIRunner.run(["group", "--dedupe", "--format", "json"], stdin: resent)
      #expect(deduped.status == 0, "\(deduped.stderr)")
      #expect(deduped.stderr.contains("600 duplicates"), "\(schema): \(deduped.stderr)")
    }
  }

  @Test("--accounts is refused but for backbase, --resend for swile (no id), and an unknown schema")
  func refusals() throws {
    for schema in ["payback", "ledger", "swile", "psd2"] {
      let refused = try CLIRunner.run(["gen", "--count", "3", "--schema", schema, "--accounts", "5"])
      #expect(refused.status == 64, "\(schema)")
      #expect(refused.stdout.isEmpty)
      #expect(refused.stderr.contains("--accounts cannot be used with --schema \(schema)"), "\(refused.stderr)")
    }
    let resent = try CLIRunner.run(["gen", "--count", "3", "--schema", "swile", "--resend", "0.5"])
    #expect(resent.status == 64)
    #expect(resent.stderr.contains("--resend cannot be used with --schema swile"), "\(resent.stderr)")
    let unknown = try CLIRunner.run(["gen", "--count", "3", "--schema", "custom"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("--schema must be backbase, payback, ledger, swile or psd2"), "\(unknown.stderr)")
  }
}
