import Foundation
import Testing

/// The csv format's `currencyCount` (Documentation/Formats.md, "`group` reports"): summed over every row it gives the records
/// folded, on one run, over threads, after merging partials and per account (spilled or not),
/// whereas the group's `count` repeats on each currency row of a multi-currency group.
@Suite("csv currencyCount")
struct CurrencyCountTests {
  /// `(count, currencyCount)` summed over the csv's rows, the rows' currencies per group, and the header.
  static func sums(_ csv: String) throws -> (count: Int, currencyCount: Int, multiCurrencyGroups: Int) {
    var lines = csv.components(separatedBy: "\r\n")
    #expect(lines.last == "")
    lines.removeLast()
    let header = try #require(lines.first).split(separator: ",").map(String.init)
    let account = header.first == "account" ? 1 : 0
    #expect(
      Array(header[account...]) == [
        "state", "date", "creditDebitIndicator", "count", "currency", "currencyCount", "amount", "latest",
      ])
    var count = 0
    var currencyCount = 0
    var rowsPerGroup: [String: Int] = [:]
    for line in lines.dropFirst() {
      // The generated dumps' states, dates and currencies need no quoting.
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      try #require(cells.count == header.count, "\(line)")
      count += try #require(Int(cells[account + 3]))
      currencyCount += try #require(Int(cells[account + 5]), "\(line)")
      rowsPerGroup[cells[0...(account + 2)].joined(separator: ","), default: 0] += 1
    }
    return (count, currencyCount, rowsPerGroup.values.filter { $0 > 1 }.count)
  }

  static func accepted(_ arguments: [String]) throws -> Int {
    let outcome = try CLIRunner.run(arguments + ["--quiet", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
    let stats = try #require(document["stats"] as? [String: Any])
    return try #require(stats["accepted"] as? Int)
  }

  static func csv(_ arguments: [String]) throws -> String {
    let outcome = try CLIRunner.run(arguments + ["--quiet", "--format", "csv"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return outcome.text
  }

  @Test("sums to the accepted records on a multi-currency dump, on 1 and 4 threads and after a merge")
  func wholeAndMerged() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("dump.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "6000", "--seed", "7", "-o", dump]).status == 0)
    let accepted = try Self.accepted(["group", dump])
    #expect(accepted == 6000)
    let whole = try Self.csv(["group", "--threads", "1", dump])
    let sums = try Self.sums(whole)
    #expect(sums.currencyCount == accepted)
    // The dump has groups in several currencies, where `count` over-counts: the test can fail.
    #expect(sums.multiCurrencyGroups > 0)
    #expect(sums.count > accepted)
    #expect(try Self.csv(["group", "--threads", "4", dump]) == whole)

    // Three shards, folded apart and merged.
    let lines = try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n")
    var partials: [String] = []
    for shard in 0..<3 {
      let part = lines.enumerated().filter { $0.offset % 3 == shard }.map { $0.element + "\n" }.joined()
      let path = directory.appendingPathComponent("shard-\(shard).jsonl").path
      try Data(part.utf8).write(to: URL(fileURLWithPath: path))
      let partial = directory.appendingPathComponent("shard-\(shard).partial").path
      let folded = try CLIRunner.run(["group", "--quiet", "--emit", "partial", "-o", partial, path])
      #expect(folded.status == 0, "\(folded.stderr)")
      partials.append(partial)
    }
    let merged = try Self.csv(["merge"] + partials)
    #expect(try Self.sums(merged).currencyCount == accepted)
    #expect(merged == whole)
    // A partial of partials keeps the counts too.
    let combined = directory.appendingPathComponent("combined.partial").path
    #expect(try CLIRunner.run(["merge", "--quiet", "--emit", "partial", "-o", combined] + partials).status == 0)
    #expect(try Self.csv(["merge", combined]) == whole)
  }

  @Test("per account, in memory and spilled, and merged from per-account partials")
  func perAccount() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let dump = directory.appendingPathComponent("accounts.jsonl").path
    #expect(try CLIRunner.run(["gen", "--count", "4000", "--seed", "3", "--accounts", "40", "-o", dump]).status == 0)
    let accepted = try Self.accepted(["group", dump])
    let inMemory = try Self.csv(["group", "--per-account", dump])
    let sums = try Self.sums(inMemory)
    #expect(sums.currencyCount == accepted)
    #expect(sums.multiCurrencyGroups > 0)
    let spilled = try Self.csv(["group", "--per-account", "--memory-limit", "1K", "--threads", "2", dump])
    #expect(spilled == inMemory)
    let partial = directory.appendingPathComponent("accounts.partial").path
    let folded = try CLIRunner.run(["group", "--per-account", "--quiet", "--emit", "partial", "-o", partial, dump])
    #expect(folded.status == 0, "\(folded.stderr)")
    #expect(try Self.csv(["merge", "--per-account", partial]) == inMemory)
  }
}
