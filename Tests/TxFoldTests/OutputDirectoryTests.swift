import Foundation
import Testing

@testable import TxFold

/// `OutputDirectory` (`--output-dir`): all files or none, nothing replaced,
/// nothing written through a link, no private directory left behind.
/// Every path is inside a scratch directory of the test's own.
@Suite("OutputDirectory")
struct OutputDirectoryTests {
  static func scratch() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-outdir-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  static func contents(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  @Test("A new directory appears with its files on commit, and nothing else is left beside it")
  func commitsNew() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let output = try OutputDirectory.open(path: root + "/pages")
    #expect(Self.contents(root).count == 1 && Self.contents(root)[0].hasPrefix(".pages.txfold-"))
    #expect(!FileManager.default.fileExists(atPath: root + "/pages"))
    #expect(try output.create("a.html", bytes: Array("A".utf8)) == "a.html")
    #expect(try output.create("b.html", bytes: Array("B".utf8)) == "b.html")
    try output.commit()
    #expect(Self.contents(root) == ["pages"])
    #expect(Self.contents(root + "/pages") == ["a.html", "b.html"])
    #expect(try String(contentsOfFile: root + "/pages/b.html", encoding: .utf8) == "B")
    // The directory gets the umask's permissions, not mkdtemp's 0700.
    let attributes = try FileManager.default.attributesOfItem(atPath: root + "/pages")
    let mask = umask(0)
    umask(mask)
    #expect((attributes[.posixPermissions] as? Int) == Int(0o777 & ~mask))
  }

  @Test("An existing empty directory is filled; a trailing slash is the same directory")
  func commitsIntoEmpty() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/pages", withIntermediateDirectories: false)
    let output = try OutputDirectory.open(path: root + "/pages/")
    _ = try output.create("index.html", bytes: [])
    try output.commit()
    #expect(Self.contents(root) == ["pages"])
    #expect(Self.contents(root + "/pages") == ["index.html"])
  }

  @Test("A directory that is not empty, a file, a link or a missing parent is refused before anything is written")
  func refuses() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/full", withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: root + "/full/index.html"))
    try Data("file".utf8).write(to: URL(fileURLWithPath: root + "/file"))
    try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/empty")
    try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/nowhere")
    let before = Self.contents(root)
    for path in ["full", "file", "link", "dangling", "missing/pages", "", ".", ".."].map({
      $0.isEmpty ? "" : root + "/" + $0
    }) {
      #expect(throws: OutputError.self, "\(path)") { try OutputDirectory.open(path: path) }
    }
    do {
      _ = try OutputDirectory.open(path: root + "/full")
    } catch {
      #expect(error.isCannotCreate && error.description.contains("is not empty"))
    }
    #expect(Self.contents(root) == before)
    #expect(Self.contents(root + "/full") == ["index.html"])
    #expect(try String(contentsOfFile: root + "/full/index.html", encoding: .utf8) == "keep")
    #expect(Self.contents(root + "/empty").isEmpty)
  }

  @Test("discard leaves no trace; revert takes a commit back")
  func discardAndRevert() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let output = try OutputDirectory.open(path: root + "/pages")
    _ = try output.create("a.html", bytes: Array("A".utf8))
    output.discard()
    #expect(Self.contents(root).isEmpty)
    let committed = try OutputDirectory.open(path: root + "/pages")
    _ = try committed.create("a.html", bytes: [])
    try committed.commit()
    committed.revert()
    // It did not exist before, and does not after.
    #expect(Self.contents(root).isEmpty)
  }

  @Test("A name already taken gets -2, -3 before its extension: nothing is overwritten")
  func takenNames() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let output = try OutputDirectory.open(path: root + "/pages")
    #expect(try output.create("a-0123.html", bytes: Array("1".utf8)) == "a-0123.html")
    #expect(try output.create("a-0123.html", bytes: Array("2".utf8)) == "a-0123-2.html")
    #expect(try output.create("a-0123.html", bytes: Array("3".utf8)) == "a-0123-3.html")
    try output.commit()
    #expect(try String(contentsOfFile: root + "/pages/a-0123.html", encoding: .utf8) == "1")
    #expect(try String(contentsOfFile: root + "/pages/a-0123-3.html", encoding: .utf8) == "3")
  }

  @Test("A file written piece by piece (createFile) is created exclusively and kept whole")
  func streamedFile() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let output = try OutputDirectory.open(path: root + "/pages")
    #expect(try output.create("a-0123.html", bytes: Array("1".utf8)) == "a-0123.html")
    let file = try output.createFile("a-0123.html")
    #expect(file.name == "a-0123-2.html")
    var buffer = Array("one ".utf8)
    try file.write(&buffer)
    #expect(buffer.isEmpty)
    buffer = Array("two".utf8)
    try file.write(&buffer)
    try file.finish()
    try output.commit()
    #expect(try String(contentsOfFile: root + "/pages/a-0123-2.html", encoding: .utf8) == "one two")
    #expect(try String(contentsOfFile: root + "/pages/a-0123.html", encoding: .utf8) == "1")
  }
}
