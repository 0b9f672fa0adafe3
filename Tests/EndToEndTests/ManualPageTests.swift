import Foundation
import Testing

/// Documentation/man/txfold.1 is generated from the argument parser by Scripts/man.sh (which
/// .ci/run runs with --check, byte for byte); this test catches a stale page without the plugin:
/// every command, option and help text the binary has must be in the committed page.
@Suite("Manual page")
struct ManualPageTests {
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Documentation/man/txfold.1")

  @Test("txfold --help and the manual page list every exit code, 143 (SIGTERM) included")
  func exitCodes() throws {
    let page = try String(contentsOf: Self.page, encoding: .utf8)
    let help = try CLIRunner.run(["--help"])
    #expect(help.status == 0)
    // The help is wrapped at the terminal's width; the page has the text on one line.
    let helpText = help.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for code in [
      "0 success", "64 usage error", "65 data error", "66 an input", "73 an output", "74 I/O error",
      "130 interrupted (SIGINT)", "143 terminated (SIGTERM)",
    ] {
      #expect(helpText.contains(code), "--help lacks \(code): \(help.text)")
      #expect(page.contains(code), "the manual page lacks \(code): run Scripts/man.sh")
    }
    #expect(helpText.contains("--min-accepted") && helpText.contains("an input cut off inside a record"))
  }

  @Test("Each reading command's help names every input it reads: both compressions, and arrays and documents")
  func inputsNamed() throws {
    for command in ["group", "list", "summary", "merge"] {
      let help = try CLIRunner.run([command, "--help"])
      #expect(help.status == 0)
      let text = help.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(text.contains("gzip") && text.contains("zstd"), "\(command) --help: \(text.prefix(400))")
      if command != "merge" {
        #expect(text.contains("a JSON array of records, or a document wrapping arrays"), "\(command) --help")
      }
    }
    let overview = try CLIRunner.run(["--help"]).text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(overview.contains("a truncated or corrupt gzip or zstd stream"))
  }

  @Test("every command, option and help text of the binary is in Documentation/man/txfold.1")
  func pageIsCurrent() throws {
    let page = try String(contentsOf: Self.page, encoding: .utf8)
    let dump = try CLIRunner.run(["--experimental-dump-help"])
    #expect(dump.status == 0)
    let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout)) as? [String: Any])
    let command = try #require(root["command"] as? [String: Any])
    let subcommands = try #require(command["subcommands"] as? [[String: Any]])
    #expect(subcommands.count == 6)  // and help
    for subcommand in subcommands {
      let name = try #require(subcommand["commandName"] as? String)
      let start = try #require(page.range(of: ".It Em \(name)\n"), "\(name) has no entry: run Scripts/man.sh")
      let end = page.range(of: "\n.It Em ", range: start.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
      let section = page[start.upperBound..<end]
      if let abstract = subcommand["abstract"] as? String { #expect(section.hasPrefix(abstract), "\(name)") }
      for line in ((subcommand["discussion"] as? String) ?? "").split(separator: "\n") {
        #expect(section.contains(line.trimmingCharacters(in: .whitespaces)), "\(name): \(line)")
      }
      for argument in subcommand["arguments"] as? [[String: Any]] ?? [] {
        guard argument["shouldDisplay"] as? Bool != false else { continue }
        let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
        for long in names.compactMap({ $0["name"] as? String }) {
          #expect(
            section.contains("Fl -\(long)") || section.contains(" , -\(long)"),
            "\(name) --\(long) is missing: run Scripts/man.sh")
        }
        if let abstract = argument["abstract"] as? String, !abstract.isEmpty {
          #expect(section.contains(abstract), "\(name): help changed, run Scripts/man.sh: \(abstract)")
        }
      }
    }
  }
}
