import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// The fold's executable invariants (`GroupTable+Invariants.swift`): they
/// hold through growth and folding, and each one traps when broken, so a
/// `TXFOLD_INVARIANTS` build (debug, fuzzing) cannot pass a damaged table.
@Suite("Fold invariants")
struct FoldInvariantsTests {
  /// A member at `minute` past ten.
  static func member(minute: Int) -> KeptMember {
    MemberHeapTests.candidate(
      time: "2019-05-17T10:\(minute < 10 ? "0" : "")\(minute):00Z", id: "t\(minute)", amount: "1", description: nil
    ).member
  }

  /// A heap of `limit` in either layout, offered members at `minutes`.
  static func heap(limit: Int, ring: Bool, minutes: [Int]) -> MemberHeap {
    var heap = MemberHeap(limit: limit, ring: ring)
    for minute in minutes { heap.offer(member(minute: minute)) }
    heap.checkInvariants()
    return heap
  }

  @Test("Both group indexes keep their rules through every growth, with keys that collide in their home bucket")
  func indexesGrow() {
    var index = GroupIndex()
    var accounts = AccountGroupIndex()
    var random = SplitMix64(seed: 25)
    var keys: [UInt64] = []
    for number in 0..<3_000 {
      // Keys a multiple of a large power of two apart share low bits, which Fibonacci hashing spreads.
      let key = number % 3 == 0 ? UInt64(number) << 40 : random.next()
      keys.append(key)
      index.insert(key, number)
      accounts.insert(key, account: UInt32(number % 7), number)
      if number % 97 == 0 {
        index.checkInvariants()
        accounts.checkInvariants()
      }
    }
    index.checkInvariants()
    accounts.checkInvariants()
    for (number, key) in keys.enumerated() {
      #expect(index.find(key) == number)
      #expect(accounts.find(key, account: UInt32(number % 7)) == number)
    }
  }

  @Test("A table folded from a dump, per account or not, and merged, keeps every invariant", arguments: [false, true])
  func tableFoldAndMerge(perAccount: Bool) throws {
    var options = GroupOptions()
    options.memberLimit = 3
    if perAccount { options.read.accounts = .field }
    let dump = GeneratorOrderTests.generate(count: 2_000, seed: 25, accounts: perAccount ? 40 : 0)
    let half = dump.count / 2
    let cut = dump[half...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? dump.count
    var tables: [GroupTable] = []
    for part in [Array(dump[..<cut]), Array(dump[cut...])] {
      let folded = try TableReportWritingTests.fold(part, options: options)
      folded.table.checkInvariants()
      tables.append(folded.table)
    }
    #expect(tables[0].merge(tables[1]))
    tables[0].checkInvariants()
    #expect(tables[0].groupCount > 0)
  }

  @Test("A ring out of order traps")
  func brokenRing() async {
    await #expect(processExitsWith: .failure) {
      let heap = Self.heap(limit: 4, ring: true, minutes: [30, 10, 20])
      heap.entries.swapAt(0, 2)
      heap.checkInvariants()
    }
  }

  @Test("A heap out of order traps")
  func brokenHeap() async {
    await #expect(processExitsWith: .failure) {
      let heap = Self.heap(limit: 3, ring: false, minutes: [30, 10, 20, 40])
      heap.entries.swapAt(0, 1)
      heap.checkInvariants()
    }
  }

  @Test("Two entries naming one slot trap")
  func sharedSlot() async {
    await #expect(processExitsWith: .failure) {
      let heap = Self.heap(limit: 3, ring: true, minutes: [10, 20])
      heap.entries[1].slot = heap.entries[0].slot
      heap.checkInvariants()
    }
  }

  @Test("A member block with room past the limit and the spare traps")
  func blockPastLimit() async {
    await #expect(processExitsWith: .failure) {
      var heap = Self.heap(limit: 3, ring: true, minutes: [10, 20])
      heap.grow(memberCapacity: 5, textCapacity: 0)
      heap.checkInvariants()
    }
  }

  @Test("A member block grown or copied keeps its members and its rules")
  func blockGrown() {
    var heap = Self.heap(limit: 4, ring: true, minutes: [30, 10, 20])
    let before = heap.sorted()
    heap.grow(memberCapacity: 5, textCapacity: 2 * heap.textCapacity)
    heap.checkInvariants()
    #expect(heap.sorted() == before)
    var copy = heap
    copy.offer(Self.member(minute: 40))
    copy.checkInvariants()
    #expect(heap.sorted() == before)
    #expect(copy.sorted() == [Self.member(minute: 40)] + before)
  }

  @Test("An index whose count is wrong traps")
  func wrongCount() async {
    await #expect(processExitsWith: .failure) {
      var index = GroupIndex()
      index.insert(7, 0)
      index.count = 2
      index.checkInvariants()
    }
  }

  @Test("A key cut off from its home bucket traps")
  func cutOffKey() async {
    await #expect(processExitsWith: .failure) {
      var index = GroupIndex()
      // Two keys with one home bucket: the second sits in the next bucket; emptying the first cuts it off.
      let first: UInt64 = 1
      var second: UInt64 = 2
      while index.bucket(second) != index.bucket(first) { second += 1 }
      index.insert(first, 0)
      index.insert(second, 1)
      let home = index.bucket(first)
      index.values[home] = -1
      index.count = 1
      index.checkInvariants()
    }
  }

  @Test("A group whose currency counts do not add up traps")
  func wrongTotals() async {
    await #expect(processExitsWith: .failure) {
      let table = GroupTable(memberLimit: 2)
      let group = table.groupIndex(
        state: table.states.intern(Array("BOOKED".utf8)), day: CalendarDay(daysSinceEpoch: 100), indicator: .debit)
      _ = table.groups[group].add(
        amount: .zero, currency: table.currencies.intern(Array("EUR".utf8)), instant: Self.member(minute: 1).instant)
      table.groups[group].count += 1
      table.checkInvariants()
    }
  }
}
