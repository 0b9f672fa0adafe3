import Testing

@testable import TxFold

/// `SchemaChoice`'s numbering of JSON lines records: counted when a schema may
/// use positions as ids or the run asks for them, never when the run reads none.
@Suite("SchemaChoice positions")
struct SchemaChoiceTests {
  /// A chunk of JSON lines holding `lines`.
  static func chunk(_ lines: [String]) -> RecordChunk {
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    let chunk = RecordChunk(capacity: bytes.count)
    chunk.storage.copyBytes(from: bytes)
    chunk.count = bytes.count
    return chunk
  }

  /// The first position stamped on each of three chunks of two records, two of them with a blank line.
  static func positions(schema: RecordSchema, countPositions: Bool, needsPositions: Bool) -> [Int] {
    var read = ReadOptions()
    read.schema = schema
    read.countPositions = countPositions
    var choice = SchemaChoice(options: read, needsPositions: needsPositions)
    choice.startInput()
    return [["{}", "{}"], ["{}", "", "{}"], ["", "{}", "{}"]].map { lines in
      let chunk = chunk(lines)
      choice.stamp(chunk, wrapper: nil)
      return chunk.firstPosition
    }
  }

  @Test("Positions are counted for a schema without ids, or when asked, unless the run reads none")
  func counting() {
    // Swile's records have no id (positions stand for them); Backbase's have one.
    #expect(Self.positions(schema: .swile, countPositions: false, needsPositions: true) == [1, 3, 5])
    #expect(Self.positions(schema: .backbase, countPositions: false, needsPositions: true) == [0, 0, 0])
    #expect(Self.positions(schema: .backbase, countPositions: true, needsPositions: true) == [1, 3, 5])
    // A summary whose filter reads no id: no pass over the chunks, whatever the schema.
    #expect(Self.positions(schema: .swile, countPositions: false, needsPositions: false) == [0, 0, 0])
    #expect(Self.positions(schema: .backbase, countPositions: true, needsPositions: false) == [0, 0, 0])
  }
}
