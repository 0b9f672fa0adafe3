import Testing

@_spi(Benchmarks) @testable import TxFold

/// `ByteStringInterner` past its linear part (more than 16 strings): the hash
/// index must find every string again, by any case where it upper-cases.
@Suite("Byte string interner")
struct ByteStringInternerTests {
  static func number(_ interner: ByteStringInterner, _ text: String) -> Int {
    Array(text.utf8).withUnsafeBufferPointer { interner.intern($0) }
  }

  @Test("thousands of ids of every length keep their numbers, in order of first sight")
  func manyIds() {
    let interner = ByteStringInterner(upperCasing: false)
    // Lengths 0 to 40 cover whole words, tails and ids of 16 bytes or less (the cache).
    let ids = (0..<5_000).map { index in
      String(repeating: "x", count: index % 41) + "-\(index)"
    }
    for (position, id) in ids.enumerated() { #expect(Self.number(interner, id) == position) }
    for (position, id) in ids.enumerated().reversed() { #expect(Self.number(interner, id) == position) }
    #expect(interner.count == ids.count)
    #expect(interner.strings.map { String(decoding: $0, as: UTF8.self) } == ids)
    // Not upper-casing: another case is another string.
    #expect(Self.number(interner, ids[100].uppercased()) == ids.count)
  }

  @Test("emptied with its room kept, an interner numbers a new set of ids from zero and finds them all")
  func removeAllKeepsWorking() {
    let interner = ByteStringInterner(upperCasing: false)
    for round in 0..<3 {
      // Rounds of different sizes: past the linear part, and past the buckets kept.
      let ids = (0..<(round == 1 ? 40 : 3_000)).map { "round-\(round)-account-\($0)-of-a-long-id" }
      for (position, id) in ids.enumerated() { #expect(Self.number(interner, id) == position) }
      for (position, id) in ids.enumerated().reversed() { #expect(Self.number(interner, id) == position) }
      #expect(interner.count == ids.count)
      #expect(interner.strings.count == ids.count)
      interner.removeAll()
      #expect(interner.count == 0)
    }
    // Short ids go through the cache: it must forget them too.
    #expect(Self.number(interner, "a") == 0)
    interner.removeAll()
    #expect(Self.number(interner, "b") == 0)
    #expect(Self.number(interner, "a") == 1)
  }

  @Test("an upper-casing interner finds each of many states by any case")
  func manyStatesAnyCase() {
    let interner = ByteStringInterner(upperCasing: true)
    let states = (0..<300).map { "state-\($0)-Pending" }
    for (position, state) in states.enumerated() { #expect(Self.number(interner, state) == position) }
    for (position, state) in states.enumerated() {
      #expect(Self.number(interner, state.uppercased()) == position)
      #expect(Self.number(interner, state.lowercased()) == position)
    }
    #expect(interner.count == states.count)
    #expect(interner.strings[7] == Array("STATE-7-PENDING".utf8))
  }

  @Test("account sort keys order as the ids' first sixteen bytes do")
  func sortKeys() {
    var generator = SystemRandomNumberGenerator()
    let ids = (0..<2_000).map { _ in
      (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
    for (left, right) in zip(ids, ids.shuffled()) {
      let byKey = GroupTable.sortKey(left) < GroupTable.sortKey(right)
      let prefixes = (
        Array(left.prefix(16)) + Array(repeating: 0, count: 16 - min(16, left.count)),
        Array(right.prefix(16)) + Array(repeating: 0, count: 16 - min(16, right.count))
      )
      #expect(byKey == ByteOrder.precedes(prefixes.0, prefixes.1))
    }
    #expect(GroupTable.sortKey(Array("abc".utf8)) == (0x6162_6300_0000_0000, 0))
    #expect(GroupTable.sortKey(Array(1...17)) == (0x0102_0304_0506_0708, 0x090A_0B0C_0D0E_0F10))
  }
}
