import Testing

@_spi(Benchmarks) @testable import TxFold
@testable import TxFoldGen

/// A worker folds a record two records after finding its group, so that the
/// group's memory is loaded meanwhile (`GroupTable+Ahead.swift`), and a
/// record in the previous record's group at once. Whatever the order, the
/// escaped and supplied currencies between them, and the chunk ends, the
/// table must hold what folding each record at once gives.
@Suite("Folding ahead")
struct FoldAheadTests {
  /// Records over many groups, in a shuffled order with runs of one group,
  /// some with an escaped state or currency and some whose currency the caller supplies.
  static func records(seed: UInt64, count: Int) -> [(text: String, suppliesCurrency: Bool)] {
    var random = SplitMix64(seed: seed)
    var result: [(String, Bool)] = []
    while result.count < count {
      let day = 1 + Int(random.next() % 28)
      let month = 1 + Int(random.next() % 12)
      let second = Int(random.next() % 4)  // few instants: ties among members
      let time = "\"2023-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T10:00:0\(second)Z\""
      let currency = ["\"EUR\"", "\"USD\"", "\"\\u0045UR\"", "\"gbp\""][Int(random.next() % 4)]
      let state = ["\"PENDING\"", "\"COMPLETED\"", "\"\\u0050ENDING\""][Int(random.next() % 3)]
      let indicator = random.next() % 2 == 0 ? "\"CRDT\"" : "\"DBIT\""
      let run = 1 + Int(random.next() % 3)
      for copy in 0..<run {
        let text = backbaseRecord(
          id: "\"id-\(result.count)-\(copy)\"", amount: "\"\(random.next() % 1000).\(random.next() % 100)\"",
          currency: currency, indicator: indicator, time: time, state: state,
          description: random.next() % 5 == 0 ? "" : "\"d\(String(repeating: "x", count: Int(random.next() % 40)))\"")
        result.append((text, random.next() % 17 == 0))
      }
    }
    return result
  }

  /// Folds `records` into a new table: `ahead` as a worker does, finishing a
  /// "chunk" every `chunk` records and then overwriting and freeing its
  /// records' bytes; else each record at once.
  static func folded(_ records: [(text: String, suppliesCurrency: Bool)], ahead: Bool, chunk: Int) -> GroupTable {
    let table = GroupTable(memberLimit: 3)
    let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: false)
    let supplied = Array("EUR".utf8)
    var bytes: [UnsafeMutableBufferPointer<UInt8>] = []
    var folded = true
    for (index, record) in records.enumerated() {
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: record.text.utf8.count)
      _ = buffer.initialize(from: record.text.utf8)
      bytes.append(buffer)
      let text = UnsafeBufferPointer(buffer)
      guard case .success(var decoded) = decoder.decode(text) else {
        Issue.record("record \(index) does not decode")
        continue
      }
      if record.suppliesCurrency {
        folded =
          supplied.withUnsafeBufferPointer {
            table.fold(&decoded, record: text, defaultState: 0, suppliedCurrency: $0)
          } && folded
      } else {
        folded = table.fold(&decoded, record: text, defaultState: 0, deferringText: ahead) && folded
      }
      if ahead && (index + 1) % chunk == 0 || index == records.count - 1 {
        folded = table.finishChunk() && folded
        for buffer in bytes {
          buffer.update(repeating: UInt8(ascii: "#"))
          buffer.deallocate()
        }
        bytes.removeAll()
      }
    }
    #expect(folded)
    table.checkInvariants()
    return table
  }

  @Test("the table holds what folding each record at once gives", arguments: [1, 2, 3, 7, 64, 5000])
  func sameTable(chunk: Int) {
    for seed: UInt64 in [1, 2, 3] {
      let records = Self.records(seed: seed, count: 1500)
      let expected = Self.folded(records, ahead: false, chunk: chunk).report(stats: RunStats())
      let ahead = Self.folded(records, ahead: true, chunk: chunk).report(stats: RunStats())
      #expect(ahead == expected, "seed \(seed), chunks of \(chunk)")
      #expect(ahead.sections.map(\.groups.count).reduce(0, +) > 100)
    }
  }

  @Test("an overflow among the queued records is reported when the chunk ends")
  func queuedOverflow() {
    let table = GroupTable(memberLimit: 3)
    let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: false)
    // Two amounts whose sum passes 128 bits.
    let huge = "\"9" + String(repeating: "0", count: 37) + "\""
    let records = (0..<2).map { index in
      let text = backbaseRecord(id: "\"\(index)\"", amount: huge)
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
      _ = buffer.initialize(from: text.utf8)
      return UnsafeBufferPointer(buffer)
    }
    defer { records.forEach { $0.deallocate() } }
    var results: [Bool] = []
    for record in records {
      guard case .success(var decoded) = decoder.decode(record) else {
        Issue.record("a record does not decode")
        return
      }
      results.append(table.fold(&decoded, record: record, defaultState: 0, deferringText: true))
    }
    // The first waits in the queue; the second, in the same group, is folded at once.
    #expect(results == [true, true])
    #expect(table.overflow == nil)
    #expect(!table.finishChunk())
    #expect(table.overflow != nil)
  }
}
