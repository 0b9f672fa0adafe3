import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

/// The executable invariants of the spill's pointer code: the parallel list's
/// run buffer (`ListRunBuffer.checkInvariants`) and the merge heap
/// (`IndexHeap.checkInvariants`). They hold through appends, sorts, cuts and
/// spills, and each traps when broken, so a `TXFOLD_INVARIANTS` build (debug,
/// fuzzing), which checks them after every sort and every merge step, cannot
/// pass a damaged buffer or heap.
@Suite("Run buffer invariants")
struct RunBufferInvariantsTests {
  /// One entry: an instant a few seconds apart from the others (with ties), the
  /// id `t<number>`, and a row of `rowBytes` bytes.
  static func entry(number: Int, seconds: Int64, rowBytes: Int) -> [UInt8] {
    let id = Array("t\(number)".utf8)
    var entry = [UInt8](repeating: 0, count: ListEntryLayout.headerSize)
    entry += id
    entry += [UInt8](repeating: UInt8(ascii: "x"), count: rowBytes)
    var instant = Timestamp(
      year: 2019, month: 5, day: 17, hour: 10, minute: 0, second: 0, fractionDigits: 0, style: .zulu,
      offsetNegative: false, nanosecond: 0, offsetMinutes: 0, epochSeconds: 1_558_087_200 + seconds)
    instant._nanosecond = UInt32(number % 3)
    let length = entry.count
    entry.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      ListEntryLayout.writeHeader(
        base, length: length, instant: instant, order: UInt64(number), idCount: id.count,
        currencyCount: 0, amount: .zero, fee: nil, totalOverflows: false)
    }
    return entry
  }

  /// A buffer holding `count` entries, some large enough to take a block of their own.
  static func filled(count: Int, seed: UInt64, store: SpillStore) -> ListRunBuffer {
    let buffer = ListRunBuffer(budget: Int.max, spillingTo: store, readBufferSize: 256)
    var random = SplitMix64(seed: seed)
    for number in 0..<count {
      // One entry in 50 is longer than a block, so appends cross and replace blocks.
      let rowBytes = number % 50 == 49 ? ListRunBuffer.blockSize + 17 : Int(random.next() % 300)
      entry(number: number, seconds: Int64(random.next() % 40), rowBytes: rowBytes).withUnsafeBytes {
        buffer.append($0)
      }
    }
    return buffer
  }

  @Test("A run buffer keeps its rules through appends across blocks, sorts, a cut to the first entries and a spill")
  func bufferKeepsItsRules() throws {
    let parent = try SpillStackTests.temporaryParent()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let store = SpillStore(temporaryParent: parent, openRunLimit: 8) { _ in }
    defer { store.remove() }
    let buffer = Self.filled(count: 120, seed: 3, store: store)
    buffer.checkInvariants()
    #expect(buffer.count == 120)
    buffer.sort()
    buffer.checkInvariants(sorted: true)
    buffer.keepFirst(37)
    buffer.checkInvariants(sorted: true)
    #expect(buffer.count == 37)
    try buffer.spill(rank: 0)
    buffer.checkInvariants()
    #expect(buffer.count == 0 && buffer.used == 0)
    // Refilled after the spill, in the blocks it kept (and one replaced for a longer entry).
    for number in 0..<60 {
      Self.entry(number: number, seconds: Int64(number % 7), rowBytes: number == 30 ? 3 * ListRunBuffer.blockSize : 64)
        .withUnsafeBytes { buffer.append($0) }
    }
    buffer.sort()
    buffer.checkInvariants(sorted: true)
  }

  @Test("A key whose entry's instant changed under it traps")
  func keyOffItsEntry() async {
    await #expect(processExitsWith: .failure) {
      let parent = try SpillStackTests.temporaryParent()
      let store = SpillStore(temporaryParent: parent, openRunLimit: 8) { _ in }
      let buffer = Self.filled(count: 10, seed: 4, store: store)
      let entry = UnsafeMutableRawPointer(mutating: buffer.keys[3].entry)
      entry.storeBytes(of: buffer.keys[3].seconds + 1, toByteOffset: 8, as: Int64.self)
      buffer.checkInvariants()
    }
  }

  @Test("A buffer judged sorted that is not traps")
  func unsortedBuffer() async {
    await #expect(processExitsWith: .failure) {
      let parent = try SpillStackTests.temporaryParent()
      let store = SpillStore(temporaryParent: parent, openRunLimit: 8) { _ in }
      // Entries appended latest-last: the reverse of the list's order.
      let buffer = ListRunBuffer(budget: Int.max, spillingTo: store, readBufferSize: 256)
      for number in 0..<5 {
        Self.entry(number: number, seconds: Int64(number), rowBytes: 8).withUnsafeBytes { buffer.append($0) }
      }
      buffer.checkInvariants()
      buffer.checkInvariants(sorted: true)
    }
  }

  @Test("A heap checked against an order it was not built by traps")
  func heapOutOfOrder() async {
    await #expect(processExitsWith: .failure) {
      var heap = IndexHeap()
      for item in 0..<9 { heap.push(item, by: <) }
      heap.checkInvariants(by: <)
      heap.checkInvariants(by: >)
    }
  }
}
