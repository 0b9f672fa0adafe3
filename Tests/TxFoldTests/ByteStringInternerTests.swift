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
}
