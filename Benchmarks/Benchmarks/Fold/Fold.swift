// Scan, decode and fold on one thread: every record of a dump in memory decoded and folded
// into a fresh `GroupTable` (20 members kept per group, the CLI's default), as one worker of
// the pipeline does, without the line framing and the threads.
import Benchmark
@_spi(Benchmarks) import TxFold
import TxFoldBenchmarkSupport

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = TxFoldMetrics.configuration(maxDuration: .seconds(4), maxIterations: 25)

  Benchmark("200K-fold") { benchmark, dump in
    let decoder = RecordDecoder(schema: .backbase)
    let table = benchmark.measureRates(bytes: dump.byteCount, records: dump.records) {
      let table = GroupTable(memberLimit: GroupOptions().memberLimit)
      let defaultState = table.states.intern(Array("COMPLETED".utf8))
      _ = dump.count { record, index in
        guard case .success(let decoded) = decoder.decode(record) else {
          preconditionFailure("generated record \(index) was rejected")
        }
        guard table.fold(decoded, record: record, defaultState: defaultState) else {
          preconditionFailure("a total overflowed")
        }
        return true
      }
      return table
    }
    blackHole(table.groupCount)
  } setup: {
    Dump(records: 200_000)
  }
}
