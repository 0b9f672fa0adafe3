import Testing

@testable import TxFold

/// `LengthPrefixedFramer`: the framing of a nightly run's second pass, over every chunk boundary.
@Suite("Length-prefixed framing")
struct LengthPrefixedFramingTests {
  /// Records `u32 length + bytes` end to end.
  static func stream(_ records: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for record in records {
      StateFile.appendU32(UInt32(record.count), to: &bytes)
      bytes.append(contentsOf: record)
    }
    return bytes
  }

  /// Frames `bytes` read `step` bytes at a time into chunks of `chunkSize`; the records in order and the chunks emitted.
  static func frame(_ bytes: [UInt8], chunkSize: Int, maxRecordBytes: Int, step: Int) throws(PipelineError) -> (
    records: [[UInt8]], chunks: Int
  ) {
    let limits = RecordLimits(maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
    let framer = InputFramer(limits: limits, itemsPath: nil, allowTrailingCommas: false, lengthPrefixed: true)
    var records: [[UInt8]] = []
    var chunks = 0
    let outcome = try framer.frame(
      MemorySource(bytes, step: step), fileIndex: 0, firstChunk: RecordChunk(capacity: framer.chunkCapacity),
      nextChunk: { () throws(PipelineError) -> RecordChunk in RecordChunk(capacity: framer.chunkCapacity) },
      emit: { (chunk: RecordChunk, _: RecordWrapper?) throws(PipelineError) in
        chunks += 1
        #expect(chunk.kind == .elements)
        _ = chunk.forEachRecord(maxRecordBytes: .max) { record in
          #expect(record.framing.position == records.count + 1)
          records.append(Array(record.bytes))
        }
      })
    #expect(outcome.framing == .lengthPrefixed)
    return (records, chunks)
  }

  @Test("Every record comes out whole and in order, whatever the chunk size and the reads")
  func everyBoundary() throws {
    // Empty records, records whose length bytes look like JSON (`{`, blanks, a BOM), one as long as the limit.
    let records: [[UInt8]] =
      [[], Array("{\"a\":1}".utf8), [0x20, 0x0A], [0xEF, 0xBB, 0xBF]]
      + (1...40).map { Array(repeating: UInt8($0), count: $0 * 3) }
      + [Array(repeating: 7, count: 120)]
    let bytes = Self.stream(records)
    for chunkSize in [1, 2, 5, 64, 1 << 20] {
      for step in [1, 3, 1000] {
        let framed = try Self.frame(bytes, chunkSize: chunkSize, maxRecordBytes: 120, step: step)
        #expect(framed.records == records, "chunk \(chunkSize), step \(step)")
        if chunkSize == 1 << 20 && step == 1000 { #expect(framed.chunks == 1) }
      }
    }
    #expect(try Self.frame([], chunkSize: 8, maxRecordBytes: 8, step: 1).chunks == 0)
  }

  @Test("A stream cut inside a record, or a record longer than a chunk holds, fails the read: no record is dropped")
  func failures() {
    let bytes = Self.stream([Array("abc".utf8), Array("defgh".utf8)])
    for cut in [1, 4, 8, bytes.count - 1] {
      #expect(throws: PipelineError.self) {
        _ = try Self.frame(Array(bytes.prefix(cut)), chunkSize: 4, maxRecordBytes: 16, step: 2)
      }
    }
    let long = Self.stream([Array(repeating: 1, count: 40)])
    #expect(throws: PipelineError.self) { _ = try Self.frame(long, chunkSize: 2, maxRecordBytes: 16, step: 7) }
  }

  /// The library's messages name options as its API spells them; the CLI rewords them as flags.
  @Test("A record over the limit is named by maxRecordBytes, not by a txfold flag")
  func tooLongNamesTheParameter() {
    let long = Self.stream([Array(repeating: 1, count: 40)])
    do {
      _ = try Self.frame(long, chunkSize: 64, maxRecordBytes: 16, step: 7)
      Issue.record("a 40-byte record passed a 16-byte limit")
    } catch {
      #expect(error.description.contains("longer than maxRecordBytes (16)"), "\(error.description)")
      #expect(!error.description.contains("--"), "\(error.description)")
    }
  }
}
