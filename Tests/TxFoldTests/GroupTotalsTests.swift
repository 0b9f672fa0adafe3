import Testing

@_spi(Benchmarks) @testable import TxFold

/// A group's totals keep the first currency inline and the others in an
/// array (`GroupTotals`): they must behave as the one array of totals did.
@Suite("Group totals, the first inline")
struct GroupTotalsTests {
  typealias Total = (currency: Int, sum: ExactDecimal, count: Int)

  /// The totals as the plain array they stand for.
  static func plain(_ totals: GroupTotals) -> [String] {
    totals.map { "\($0.currency):\($0.sum):\($0.count)" }
  }

  static func plain(_ totals: [Total]) -> [String] {
    totals.map { "\($0.currency):\($0.sum):\($0.count)" }
  }

  @Test("Adding, removing and emptying agree with an array of totals, over random steps")
  func againstArray() throws {
    var generator = Steps(state: 41)
    for round in 0..<200 {
      var totals = GroupTotals()
      var model: [Total] = []
      for _ in 0..<(1 + Int(generator.next() % 30)) {
        let action = generator.next() % 10
        if action < 7 {
          let currency = Int(generator.next() % 4)
          let amount = try #require(ExactDecimal("\(generator.next() % 1000).\(generator.next() % 100)"))
          let count = 1 + Int(generator.next() % 3)
          let added = totals.add(amount, currency: currency, count: count)
          #expect(added)
          if let position = model.firstIndex(where: { $0.currency == currency }) {
            model[position].sum = try #require(model[position].sum.adding(amount))
            model[position].count += count
          } else {
            model.append((currency, amount, count))
          }
        } else if action < 9, !model.isEmpty {
          let position = Int(generator.next() % UInt64(model.count))
          totals.remove(at: position)
          model.remove(at: position)
        } else {
          totals.removeAllKeepingRoom()
          model.removeAll()
        }
        #expect(Self.plain(totals) == Self.plain(model), "round \(round)")
        #expect(totals.count == model.count && totals.isEmpty == model.isEmpty)
      }
    }
  }

  @Test("One currency needs no array; a second makes one, kept when emptied")
  func room() throws {
    var totals = GroupTotals()
    #expect(totals.isEmpty && totals.hasInlineRoomOnly)
    #expect(Self.add("1.25", 3, 1, to: &totals))
    #expect(Self.add("2", 3, 2, to: &totals))
    #expect(Self.plain(totals) == ["3:3.25:3"])
    #expect(totals.hasInlineRoomOnly)
    #expect(Self.add("7", 0, 1, to: &totals))
    #expect(Self.plain(totals) == ["3:3.25:3", "0:7:1"])
    #expect(!totals.hasInlineRoomOnly)
    // The first removed: the next moves up, in order.
    totals.remove(at: 0)
    #expect(Self.plain(totals) == ["0:7:1"])
    totals[0].count = 5
    #expect(Self.plain(totals) == ["0:7:5"])
    totals.removeAllKeepingRoom()
    #expect(totals.isEmpty && !totals.hasInlineRoomOnly)
  }

  @Test("An overflowing add changes nothing, in the first currency and beyond it")
  func overflow() throws {
    let huge: ExactDecimal = "99999999999999999999999999999999999999"
    for currency in [1, 2] {
      var totals = GroupTotals()
      // The first currency, then (currency 2) one beyond it.
      if currency == 2 { _ = totals.add(huge, currency: 1, count: 1) }
      var added = 0
      while totals.add(huge, currency: currency, count: 1) { added += 1 }
      let full = Self.plain(totals)
      let again = totals.add(huge, currency: currency, count: 1)
      #expect(!again)
      #expect(Self.plain(totals) == full)
      #expect(added > 0 && totals.count == currency)
    }
  }

  /// Adds `text` of `count` transactions in `currency`; `false` on overflow.
  static func add(_ text: ExactDecimal, _ currency: Int, _ count: Int, to totals: inout GroupTotals) -> Bool {
    totals.add(text, currency: currency, count: count)
  }
}

/// Deterministic steps for the random test (SplitMix64).
private struct Steps {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
