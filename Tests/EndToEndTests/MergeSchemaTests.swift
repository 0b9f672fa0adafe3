import Foundation
import Testing

/// The partial header records the `--schema` setting, not what `auto` detected, so
/// an empty shard (which detects nothing) merges with shards of any schema, and
/// shards read with different settings are still refused.
@Suite("merge: the schema setting")
struct MergeSchemaTests {
  @Test("Ledger shards and an empty shard merge into one run's report; another --schema is refused")
  func emptyShard() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func file(_ name: String, _ text: String) throws -> String {
      let path = directory.appendingPathComponent(name).path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return path
    }
    let first = try file("a.jsonl", #"{"id":1,"date":"2019-05-17T10:00:00Z","amount":-12.5,"fee":-0.5}"# + "\n")
    let second = try file("b.jsonl", #"{"id":2,"date":"2019-05-18T10:00:00Z","amount":20}"# + "\n")
    let empty = try file("e.jsonl", "")
    var partials: [String] = []
    for input in [first, empty, second] {
      let partial = input + ".partial"
      #expect(try CLIRunner.run(["group", "--quiet", "--emit", "partial", "-o", partial, input]).status == 0)
      partials.append(partial)
    }
    let merged = try CLIRunner.run(["merge", "--quiet", "--format", "json"] + partials)
    #expect(merged.status == 0, "\(merged.stderr)")
    let whole = try CLIRunner.run(["group", "--quiet", "--format", "json", first, empty, second])
    #expect(merged.stdout == whole.stdout)

    let explicit = first + ".ledger.partial"
    #expect(
      try CLIRunner.run(["group", "--quiet", "--schema", "ledger", "--emit", "partial", "-o", explicit, first]).status
        == 0)
    let refused = try CLIRunner.run(["merge", "--quiet", partials[0], explicit])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("--schema"))
  }
}
