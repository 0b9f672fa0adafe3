import Foundation
import Testing

/// `--timezone` on the command line: names, the system's tz database or
/// `TZDIR`, and equivalent names in merged partials.
@Suite("--timezone, end to end")
struct TimezoneCommandTests {
  static let fixtureZoneinfo = CLIRunner.packageRoot.appendingPathComponent("Tests/Fixtures/zoneinfo").path
  static let hasSystemZoneinfo = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Etc/UTC")
  static let record =
    #"{"id":"1","creationTime":"2019-05-15T23:00:00Z","state":"PENDING","creditDebitIndicator":"CRDT","#
    + #""transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"}}"# + "\n"

  @Test(
    "Offsets written as names are a usage error that names the IANA zone",
    arguments: [
      ("GMT+2", "use Etc/GMT-2"), ("UTC+2", "use Etc/GMT-2"), ("UTC-05:00", "use Etc/GMT+5"),
      ("UTC+05:30", "such as Asia/Kolkata"), ("../../etc/passwd", "is not a time-zone name"),
      ("/usr/share/zoneinfo/UTC", "absolute path"),
    ])
  func offsetNames(name: String, message: String) throws {
    for command in ["group", "list", "summary"] {
      let outcome = try CLIRunner.run([command, "--timezone", name], stdin: Array(Self.record.utf8))
      #expect(outcome.status == 64, "\(command) \(name)")
      #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
  }

  @Test("Zone rules come from TZDIR: a made-up zone of +01:30 moves 23:00Z to the next day")
  func tzdir() throws {
    let outcome = try CLIRunner.run(
      ["group", "--quiet", "--format", "jsonl", "--timezone", "Test/HalfPast"], stdin: Array(Self.record.utf8),
      environment: ["TZDIR": Self.fixtureZoneinfo])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.text.contains(#""date":"2019-05-16""#), "\(outcome.text)")
    let unknown = try CLIRunner.run(
      ["group", "--timezone", "Europe/Amsterdam"], stdin: Array(Self.record.utf8),
      environment: ["TZDIR": Self.fixtureZoneinfo])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown time zone 'Europe/Amsterdam'"), "\(unknown.stderr)")
  }

  @Test(
    "Shards run with UTC, Etc/UTC and Zulu merge: the partial stores UTC",
    .enabled(if: hasSystemZoneinfo, "needs /usr/share/zoneinfo (Debian: apt-get install tzdata)"))
  func equivalentNamesMerge() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (index, zone) in ["UTC", "Etc/UTC", "Zulu"].enumerated() {
      let dump = directory.appendingPathComponent("\(index).jsonl").path
      try Data(Self.record.replacingOccurrences(of: #""id":"1""#, with: #""id":"\#(index)""#).utf8)
        .write(to: URL(fileURLWithPath: dump))
      let partial = dump + ".partial"
      let outcome = try CLIRunner.run([
        "group", "--quiet", "--emit", "partial", "--timezone", zone, dump, "-o", partial,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(try String(contentsOfFile: partial, encoding: .utf8).contains(#""timezone":"UTC""#))
      paths.append(partial)
    }
    let merged = try CLIRunner.run(["merge", "--quiet", "--format", "jsonl"] + paths)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.text.contains(#""count":3"#), "\(merged.text)")
  }
}
