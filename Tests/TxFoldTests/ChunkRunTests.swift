import Foundation
import Testing

@testable import TxFold

/// The one chunk loop every job runs on (`ChunkRun`): a job brings only its
/// workers and its sink, and gets each worker's `ChunkResult` — the common
/// accounting and its own `output` — back in input order, whatever the
/// number of workers, however late a worker finishes, and whether the crew
/// recycles chunks or hands them back with the results.
@Suite("Chunk run")
struct ChunkRunTests {
  /// 300 records, one per line, a few of them not JSON (rejected).
  static let input: [UInt8] = Array(
    (0..<300).map { $0 % 37 == 5 ? "not json \($0)\n" : "{\"id\":\"t\($0)\",\"n\":\($0)}\n" }.joined().utf8)

  static func read() -> ReadOptions {
    var read = ReadOptions()
    read.chunkSize = 256
    return read
  }

  /// What a toy job saw: each chunk's output (its bytes, as the worker that
  /// folded it counted them) in the order the sink got them, and the accounting.
  struct Seen: Equatable {
    var sequences: [Int] = []
    var outputs: [Int] = []
    var records = 0
  }

  /// Runs a job whose workers hand on each chunk's byte count as their
  /// output; every other chunk's worker is slowed, so with several workers
  /// results come back out of order.
  static func run(workers: Int, recycling: Bool) throws -> Seen {
    let run = ChunkRun(read: read(), names: ["-"], onRejection: nil, onProgress: nil)
    var inputs = RunInputs(sources: [try InputOpener.open(bytes: input, name: "-")])
    let folders = (0..<workers).map { _ in
      { (chunk: RecordChunk) -> ChunkResult<Int> in
        if chunk.sequence % 2 == 0 { usleep(2_000) }
        var result = ChunkResult(of: chunk, output: chunk.count)
        result.records = chunk.count > 0 ? 1 : 0
        return result
      }
    }
    var seen = Seen()
    try run.run(workers: folders, recycling: recycling, next: { () throws(PipelineError) in try inputs.next() }) {
      (result: ChunkResult<Int>, chunk: RecordChunk?, accounting: inout ResultAccounting) throws(PipelineError) in
      seen.sequences.append(result.sequence)
      seen.outputs.append(result.output)
      // The chunk comes with its result only when the crew hands chunks back (or there is no crew).
      if workers > 1 && recycling { #expect(chunk == nil) } else { #expect(chunk?.sequence == result.sequence) }
      try accounting.apply(result)
    }
    seen.records = run.accounting.records
    return seen
  }

  @Test("results come back in input order with their job's output, for 1 to 4 workers, recycling or not")
  func inputOrder() throws {
    let alone = try Self.run(workers: 1, recycling: true)
    #expect(alone.sequences == Array(0..<alone.sequences.count))
    #expect(alone.sequences.count > 10)
    #expect(alone.outputs.reduce(0, +) == Self.input.count)
    for workers in [2, 3, 4] {
      for recycling in [true, false] {
        #expect(try Self.run(workers: workers, recycling: recycling) == alone)
      }
    }
  }

  @Test("without workers, each chunk is read as it is framed: the same chunks, in order")
  func readWithoutWorkers() throws {
    let run = ChunkRun(read: Self.read(), names: ["-"], onRejection: nil, onProgress: nil)
    var inputs = RunInputs(sources: [try InputOpener.open(bytes: Self.input, name: "-")])
    var sequences: [Int] = []
    var bytes = 0
    try run.read(next: { () throws(PipelineError) in try inputs.next() }) {
      (chunk: RecordChunk, _: inout ResultAccounting) throws(PipelineError) in
      sequences.append(chunk.sequence)
      bytes += chunk.count
    }
    let alone = try Self.run(workers: 1, recycling: true)
    #expect(sequences == alone.sequences)
    #expect(bytes == Self.input.count)
  }
}
