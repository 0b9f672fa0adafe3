import Foundation
import Testing

/// Golden files in `Tests/Snapshots/`, produced by the code and reviewed by a person.
///
/// `TXFOLD_RECORD_SNAPSHOTS=1 swift test` rewrites them, and that run fails on
/// purpose so a recording can never pass as a test run.
enum Snapshot {
  static let directory = CLIRunner.packageRoot.appendingPathComponent("Tests/Snapshots")

  static func assertMatches(_ bytes: [UInt8], named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = directory.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["TXFOLD_RECORD_SNAPSHOTS"] == "1" {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try? Data(bytes).write(to: url)
      Issue.record(
        "Recorded snapshot \(name); review it and run again without TXFOLD_RECORD_SNAPSHOTS.",
        sourceLocation: sourceLocation)
      return
    }
    guard let expected = try? Data(contentsOf: url) else {
      Issue.record(
        "Missing snapshot \(name); record it with TXFOLD_RECORD_SNAPSHOTS=1.", sourceLocation: sourceLocation)
      return
    }
    #expect(
      String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "snapshot \(name)",
      sourceLocation: sourceLocation)
  }
}
