import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// The spill stack's pieces on their own: the store's open-run limit and
/// clean-up, the reader's growing buffer and ranges, the k-way merge and its heap.
@Suite("Spill stack")
struct SpillStackTests {
  /// Integers as a run: each a little-endian `UInt32` length (4 + the padding),
  /// the value (`UInt64`), then `padding` bytes, so that entries vary in size.
  final class IntegerRun: MergeCursor {
    typealias Entry = UInt64
    typealias Failure = SpillError
    let reader: SpillReader
    init(_ file: SpillFile, bufferSize: Int) { reader = SpillReader(file: file, bufferSize: bufferSize) }

    func next() throws(SpillError) -> UInt64? {
      guard try reader.request(4) else {
        if reader.available == 0 { return nil }
        throw .corrupt(path: reader.file.name, detail: "cut length")
      }
      let length = Int(reader.pointer.loadUnaligned(as: UInt32.self))
      guard try reader.request(4 + length), length >= 8 else {
        throw .corrupt(path: reader.file.name, detail: "cut entry")
      }
      let value = reader.pointer.loadUnaligned(fromByteOffset: 4, as: UInt64.self)
      reader.consume(4 + length)
      return value
    }

    static func precedes(_ lhs: UInt64, _ rhs: UInt64) -> Bool { lhs < rhs }

    static func write(_ values: [UInt64], padding: (UInt64) -> Int = { _ in 0 }, to file: SpillFile) throws {
      for value in values {
        var entry: [UInt8] = []
        withUnsafeBytes(of: UInt32(8 + padding(value))) { entry.append(contentsOf: $0) }
        withUnsafeBytes(of: value) { entry.append(contentsOf: $0) }
        entry.append(contentsOf: repeatElement(0xAB, count: padding(value)))
        try file.append(bytes: &entry)
      }
      try file.finishWriting()
    }
  }

  static func temporaryParent() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("txfold-spill-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  /// Merges `files` into one new file of `store`.
  static func merge(_ files: [SpillFile], into store: SpillStore) throws(SpillError) -> SpillFile {
    let merge = KWayMerge(cursors: files.map { IntegerRun($0, bufferSize: 16) })
    var values: [UInt64] = []
    while let value = try merge.next() { values.append(value) }
    let file = try store.makeFile()
    do {
      try IntegerRun.write(values, to: file)
    } catch {
      throw .writeFailed(path: file.name, reason: "\(error)")
    }
    return file
  }

  @Test("The store merges the smallest half past its limit, hands every run back by rank, and leaves nothing")
  func storeLimitAndCleanUp() throws {
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    var registered: [String] = []
    var random = SplitMix64(seed: 7)
    var expected: [UInt64] = []
    do {
      let store = SpillStore(temporaryParent: parent, openRunLimit: 4) { registered.append($0) }
      for run in 0..<23 {
        let values = (0..<(run % 5 + 1)).map { _ in random.next() % 1000 }.sorted()
        expected += values
        let file = try store.makeFile()
        try IntegerRun.write(values, to: file)
        try store.add(file, rank: 23 - run) { (batch) throws(SpillError) in try Self.merge(batch, into: store) }
      }
      #expect(registered.count == 1)
      // Unlinked at once: the directory is empty while the runs are held.
      #expect(try FileManager.default.contentsOfDirectory(atPath: registered[0]).isEmpty)
      let runs = try store.takeRuns(mergingDownTo: 2, fanIn: 3) { (batch) throws(SpillError) in
        try Self.merge(batch, into: store)
      }
      #expect(runs.count <= 2)
      let merge = KWayMerge(cursors: runs.map { IntegerRun($0, bufferSize: 64) })
      var merged: [UInt64] = []
      while let value = try merge.next() { merged.append(value) }
      #expect(merged == expected.sorted())
      #expect(store.filesMade > 23)
      store.remove()
      #expect(!FileManager.default.fileExists(atPath: registered[0]))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
  }

  @Test("The reader grows its buffer for an entry longer than it, and reads a range of a file alone")
  func readerGrowsAndReadsRanges() throws {
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let store = SpillStore(temporaryParent: parent) { _ in }
    defer { store.remove() }
    let file = try store.makeFile()
    let values: [UInt64] = Array(0..<200)
    // Every seventh entry is longer than the reader's buffer.
    try IntegerRun.write(values, padding: { $0 % 7 == 0 ? 300 : Int($0 % 5) }, to: file)
    let run = IntegerRun(file, bufferSize: 64)
    var read: [UInt64] = []
    while let value = try run.next() { read.append(value) }
    #expect(read == values)

    // The first ten entries' bytes, read as a run of their own.
    var end: Int64 = 0
    for value in values.prefix(10) { end += Int64(12 + (value % 7 == 0 ? 300 : Int(value % 5))) }
    let ranged = SpillReader(file: file, range: 0..<end, bufferSize: 1 << 20)
    var count = 0
    while try ranged.request(4) {
      let length = Int(ranged.pointer.loadUnaligned(as: UInt32.self))
      #expect(try ranged.request(4 + length))
      ranged.consume(4 + length)
      count += 1
    }
    #expect(count == 10)
    #expect(ranged.available == 0)
  }

  @Test("A length past the run's end is reported, never allocated for")
  func damagedLength() throws {
    let parent = try Self.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let store = SpillStore(temporaryParent: parent) { _ in }
    defer { store.remove() }
    let file = try store.makeFile()
    var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3]
    try file.append(bytes: &bytes)
    try file.finishWriting()
    let run = IntegerRun(file, bufferSize: 64)
    #expect(throws: SpillError.self) { try run.next() }
  }

  @Test("The heap orders by the comparison it is given", arguments: [1, 2, 5, 64, 257])
  func heap(count: Int) {
    var random = SplitMix64(seed: UInt64(count))
    let keys = (0..<count).map { _ in random.next() % 50 }
    // Ties broken by index: a total order, as every merge's.
    let precedes = { (lhs: Int, rhs: Int) in (keys[lhs], lhs) < (keys[rhs], rhs) }
    var heap = IndexHeap()
    for index in keys.indices { heap.push(index, by: precedes) }
    var popped: [Int] = []
    while let first = heap.first {
      popped.append(first)
      heap.removeFirst(by: precedes)
    }
    #expect(popped == keys.indices.sorted(by: precedes))
  }
}
