import Foundation
import Testing

/// What the README shows is what its commands print.
@Suite("README")
struct ReadmeTests {
  @Test("The README's sample report is what its first command prints")
  func sampleReport() throws {
    let readme = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let marker = "alphabetically); in each, groups come most recent day first:\n\n```\n"
    let start = try #require(readme.range(of: marker)).upperBound
    let end = try #require(readme.range(of: "```\n", range: start..<readme.endIndex)).lowerBound
    let shown = String(readme[start..<end])
    // The README's first line runs exactly this.
    #expect(readme.contains("swift run txfold group SampleData/user-10015-grouped-mixed.jsonl"))
    let run = try CLIRunner.run(["group", CLIRunner.sample("user-10015-grouped-mixed.jsonl")])
    #expect(run.status == 0)
    #expect(run.text == shown)
    // The run summary shown after it: the counts as printed, the time and rates of the run's own shape.
    let summaryMarker = "and on standard error, the run summary (the time and rates are one run's):\n\n```\n"
    let summaryStart = try #require(readme.range(of: summaryMarker)).upperBound
    let summaryEnd = try #require(readme.range(of: "```\n", range: summaryStart..<readme.endIndex)).lowerBound
    let shownSummary = readme[summaryStart..<summaryEnd].split(separator: "\n").map(String.init)
    let printed = run.stderr.split(separator: "\n").map(String.init)
    #expect(shownSummary.count == 2 && printed.count == 2, "\(run.stderr)")
    #expect(printed.first == shownSummary.first)
    let rates = /txfold: read [0-9.]+ KiB in [0-9.]+ s: [0-9.]+ [KMG]?i?B\/s, [0-9]+ records\/s/
    #expect(shownSummary.dropFirst().allSatisfy { $0.wholeMatch(of: rates) != nil })
    #expect(printed.dropFirst().allSatisfy { $0.wholeMatch(of: rates) != nil }, "\(run.stderr)")
  }
}
