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
  }
}
