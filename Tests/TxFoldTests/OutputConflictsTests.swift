import Foundation
import Testing

@testable import TxFold

/// `OutputConflicts`: an output that is the file on standard input, an input,
/// or the file standard output is, is refused before anything is written.
/// Standard input and output are descriptors of files in a scratch directory
/// of the test's own, never the process's streams.
@Suite("OutputConflicts")
struct OutputConflictsTests {
  /// A scratch directory with `dump.jsonl` (the file on "standard input"), a link to it, a hard
  /// link, a subdirectory (for `sub/../dump.jsonl`) and a distinct file `other.txt`.
  final class Scene {
    let root: String
    let dump: [UInt8] = Array(#"{"id":"1","amount":"1.00"}\#n"#.utf8)
    let input: FileHandle

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-conflicts-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
      try Data(dump).write(to: URL(fileURLWithPath: root + "/dump.jsonl"))
      try Data("other\n".utf8).write(to: URL(fileURLWithPath: root + "/other.txt"))
      try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "dump.jsonl")
      try FileManager.default.linkItem(atPath: root + "/dump.jsonl", toPath: root + "/hard")
      guard let handle = FileHandle(forReadingAtPath: root + "/dump.jsonl") else { throw CocoaError(.fileNoSuchFile) }
      input = handle
    }

    deinit {
      try? input.close()
      try? FileManager.default.removeItem(atPath: root)
    }

    func path(_ name: String) -> String { root + "/" + name }

    /// The check with `dump.jsonl` open as standard input and `standardOutput` (none: -1).
    func check(_ outputs: [(String, String?)], inputs: [String] = ["-"], standardOutput: Int32 = -1)
      throws(OutputConflict)
    {
      try OutputConflicts.check(
        outputs: outputs.map { (name: $0.0, path: $0.1) }, inputs: inputs, standardInput: input.fileDescriptor,
        standardOutput: standardOutput)
    }

    func dumpIsKept() -> Bool { FileManager.default.contents(atPath: path("dump.jsonl")).map(Array.init) == dump }
  }

  @Test(
    "An output naming the file on standard input is refused, by its path, a link, a hard link or another spelling",
    arguments: ["dump.jsonl", "link", "hard", "sub/../dump.jsonl", "./dump.jsonl"])
  func standardInputFile(name: String) throws {
    let scene = try Scene()
    let path = scene.path(name)
    #expect(throws: OutputConflict.isStandardInput(output: "--output", path: path)) {
      try scene.check([("--output", path)])
    }
    #expect(throws: OutputConflict.isStandardInput(output: "--rejects", path: path)) {
      try scene.check([("--output", "-"), ("--rejects", path), ("--stats", nil)])
    }
    let message = OutputConflict.isStandardInput(output: "--output", path: path).description
    #expect(message == "--output '\(path)' is the file on standard input; it would be overwritten.")
    #expect(scene.dumpIsKept())
  }

  @Test("An output naming an input's file is refused, whatever path or link names either")
  func inputFile() throws {
    let scene = try Scene()
    #expect(throws: OutputConflict.isInput(output: "--stats", path: scene.path("link"), input: scene.path("hard"))) {
      try scene.check([("--stats", scene.path("link"))], inputs: [scene.path("hard")])
    }
    #expect(
      throws: OutputConflict.isInput(
        output: "--output", path: scene.path("sub/../dump.jsonl"), input: scene.path("dump.jsonl"))
    ) {
      try scene.check([("--output", scene.path("sub/../dump.jsonl"))], inputs: [scene.path("dump.jsonl")])
    }
    #expect(scene.dumpIsKept())
  }

  @Test(
    "A distinct file, a new one or a dangling link is not refused; nor is standard input's file when '-' is not read")
  func distinctFiles() throws {
    let scene = try Scene()
    try FileManager.default.createSymbolicLink(atPath: scene.path("dangling"), withDestinationPath: "nowhere")
    try scene.check([("--output", scene.path("other.txt")), ("--rejects", scene.path("new.txt"))])
    try scene.check([("--output", "-"), ("--stats", scene.path("dangling"))], inputs: ["-", scene.path("other.txt")])
    try scene.check([("--output", scene.path("dump.jsonl"))], inputs: [scene.path("other.txt")])
    #expect(scene.dumpIsKept())
  }

  @Test("Standard output counts by its file: the file on standard input, an input, or another output's")
  func standardOutputFile() throws {
    let scene = try Scene()
    // Standard output appends to the file on standard input (`>> dump.jsonl < dump.jsonl`).
    let appending = try FileHandle(forWritingTo: URL(fileURLWithPath: scene.path("dump.jsonl")))
    defer { try? appending.close() }
    #expect(throws: OutputConflict.standardOutputIsStandardInput) {
      try scene.check([("--output", "-")], standardOutput: appending.fileDescriptor)
    }
    #expect(throws: OutputConflict.standardOutputIsInput(input: scene.path("link"))) {
      try scene.check([("--output", "-")], inputs: [scene.path("link")], standardOutput: appending.fileDescriptor)
    }
    let report = try FileHandle(forWritingTo: URL(fileURLWithPath: scene.path("other.txt")))
    defer { try? report.close() }
    #expect(throws: OutputConflict.isStandardOutput(output: "--stats", path: scene.path("other.txt"))) {
      try scene.check([("--output", "-"), ("--stats", scene.path("other.txt"))], standardOutput: report.fileDescriptor)
    }
    // Without '-' among the outputs, standard output's file is no report to lose.
    try scene.check(
      [("--output", scene.path("new.txt")), ("--stats", scene.path("other.txt"))],
      standardOutput: report.fileDescriptor)
    #expect(scene.dumpIsKept())
  }

  @Test("Two outputs naming one file, also one not created yet, and an empty path are refused")
  func sameFileAndEmpty() throws {
    let scene = try Scene()
    try FileManager.default.createSymbolicLink(atPath: scene.path("to-new"), withDestinationPath: "new.txt")
    #expect(
      throws: OutputConflict.sameFile(
        output: "--output", path: scene.path("to-new"), other: "--rejects", otherPath: scene.path("sub/../new.txt"))
    ) {
      try scene.check([("--output", scene.path("to-new")), ("--rejects", scene.path("sub/../new.txt"))], inputs: [])
    }
    #expect(throws: OutputConflict.emptyPath(output: "--stats")) {
      try scene.check([("--output", scene.path("other.txt")), ("--stats", "")])
    }
  }

  @Test("The message escapes the paths through the caller's function, never the output's name")
  func escaping() {
    let conflict = OutputConflict.isInput(output: "--output", path: "a\u{1B}b", input: "c")
    #expect(
      conflict.message(escaping: { "<\($0)>" }) == "--output '<a\u{1B}b>' is the input '<c>'; it would be overwritten.")
  }
}
