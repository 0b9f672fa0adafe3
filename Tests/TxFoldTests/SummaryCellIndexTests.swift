import Testing

@testable import TxFold

/// `SummaryCellIndex`: a pair's cell within a chunk, new cells per chunk, growth, and the stamp's wrap.
@Suite("SummaryCellIndex")
struct SummaryCellIndexTests {
  /// Looks `pairs` up in a chunk as the summary worker does, handing out cells in order;
  /// returns each pair's cell and how many cells the chunk made.
  static func chunk(_ index: inout SummaryCellIndex, _ pairs: [(Int32, Int32)]) -> ([Int32], Int) {
    index.startChunk()
    var cells = 0
    var found: [Int32] = []
    for (key, currency) in pairs {
      let next = Int32(cells)
      let cell = index.cell(key: key, currency: currency, newCell: next)
      if cell == next { cells += 1 }
      found.append(cell)
    }
    return (found, cells)
  }

  @Test("A pair keeps its cell within a chunk and gets a new one in the next")
  func cellsPerChunk() {
    var index = SummaryCellIndex()
    let pairs: [(Int32, Int32)] = [(0, 0), (0, 1), (1, 0), (0, 0), (1, 0), (0, 1), (2, 1)]
    let (first, made) = Self.chunk(&index, pairs)
    #expect(first == [0, 1, 2, 0, 2, 1, 3])
    #expect(made == 4)
    // The next chunk numbers its cells from 0 again, in the order pairs come.
    let (second, again) = Self.chunk(&index, [(2, 1), (0, 0), (2, 1)])
    #expect(second == [0, 1, 0])
    #expect(again == 2)
  }

  @Test("Many pairs (the table grows) each keep a cell of their own")
  func growth() {
    var index = SummaryCellIndex()
    // 40,000 pairs: keys of many bits and currencies up to 7, the top of Int32 included.
    var pairs: [(Int32, Int32)] = []
    for key in 0..<5_000 { for currency in 0..<8 { pairs.append((Int32(key) &* 429_497, Int32(currency))) } }
    pairs.append((.max, .max))
    for round in 0..<2 {
      let (cells, made) = Self.chunk(&index, pairs + pairs.reversed())
      #expect(made == pairs.count, "round \(round)")
      #expect(Array(cells.prefix(pairs.count)) == (0..<pairs.count).map { Int32($0) })
      #expect(Array(cells.suffix(pairs.count)) == (0..<pairs.count).reversed().map { Int32($0) })
    }
  }

  @Test("Across the stamp's wrap, every chunk still starts with no cells")
  func stampWrap() {
    var index = SummaryCellIndex(stamp: UInt32.max - 2)
    for round in 0..<6 {
      // The same pairs each chunk, in alternating order: old entries must not pass as this chunk's.
      let pairs: [(Int32, Int32)] = round % 2 == 0 ? [(0, 0), (5, 3)] : [(5, 3), (0, 0)]
      let (cells, made) = Self.chunk(&index, pairs + pairs)
      #expect(cells == [0, 1, 0, 1], "chunk \(round)")
      #expect(made == 2)
    }
  }
}
