import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// `OutputFile` replacing a regular file: what it writes, beyond the steps at
/// which it starts the pages' writeback, is the file's content after
/// `commit()`, and the target is untouched before. In a scratch directory of
/// the test's own.
@Suite("OutputFile")
struct OutputFileTests {
  @Test("A replacing output past several writeback steps keeps every byte, and replaces its target only at commit")
  func largeReplacingOutput() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("report.jsonl").path
    let previous = Array("last night's report\n".utf8)
    try Data(previous).write(to: URL(fileURLWithPath: target))

    // Three steps and a part, in pieces of odd sizes that straddle the steps.
    let total = 3 * OutputFile.writebackBytes + 12_345
    var random = SplitMix64(seed: 29)
    let bytes = (0..<total).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let output = try OutputFile.open(path: target)
    #expect(output.kind == .replaced)
    var offset = 0
    var piece = 1_000_003
    while offset < total {
      let end = min(total, offset + piece)
      try bytes[offset..<end].withUnsafeBytes { try output.write($0) }
      offset = end
      piece = piece * 3 / 2
    }
    #expect(try Array(Data(contentsOf: URL(fileURLWithPath: target))) == previous)
    try output.commit()
    #expect(try Array(Data(contentsOf: URL(fileURLWithPath: target))) == bytes)
  }
}
