import Foundation
import Testing

@testable import TxFold

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
    var generator = SplitMixBytes(seed: 29)
    let bytes = (0..<total).map { _ in generator.next() }
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

/// Deterministic bytes for the test (SplitMix64, a byte at a time).
private struct SplitMixBytes {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt8 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return UInt8(truncatingIfNeeded: z ^ (z >> 31))
  }
}
