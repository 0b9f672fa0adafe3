import Foundation

/// Paths of the committed fixtures in `Tests/Fixtures`.
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  static func bytes(_ name: String) -> [UInt8] {
    (try? Array(Data(contentsOf: directory.appendingPathComponent(name)))) ?? []
  }
}
