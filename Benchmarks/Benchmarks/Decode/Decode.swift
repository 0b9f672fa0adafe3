// Scan and decode: `RecordDecoder` turning every record of a dump in memory into a
// `DecodedRecord` (exact amount, validated timestamp and day, field references).
import Benchmark
@_spi(Benchmarks) import TxFold
import TxFoldBenchmarkSupport

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = TxFoldMetrics.configuration(maxDuration: .seconds(4), maxIterations: 25)

  Benchmark("200K-decode") { benchmark, dump in
    let decoder = RecordDecoder(schema: .backbase)
    let accepted = benchmark.measureRates(bytes: dump.byteCount, records: dump.records) {
      dump.count { record, _ in
        guard case .success(let decoded) = decoder.decode(record) else { return false }
        blackHole(decoded.amount)
        return true
      }
    }
    precondition(accepted == dump.records, "\(dump.records - accepted) generated records were rejected")
  } setup: {
    Dump(records: 200_000)
  }
}
