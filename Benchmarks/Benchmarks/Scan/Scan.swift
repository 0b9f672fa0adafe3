// The first stage on its own: `RecordScanner` validating every record of a dump in memory and
// finding the Backbase fields, with no decoding. Lines are split in setup, so this is the
// scanner alone (the pipeline's own line splitting is in `Group`).
import Benchmark
import TxFold
import TxFoldBenchmarkSupport

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = TxFoldMetrics.configuration(maxDuration: .seconds(4), maxIterations: 25)

  Benchmark("200K-scan") { benchmark, dump in
    let scanner = RecordScanner(trie: RecordSchema.backbase.trie)
    let failures = benchmark.measureRates(bytes: dump.byteCount, records: dump.records) {
      dump.bytes.withUnsafeBufferPointer { bytes in
        dump.lineStarts.withUnsafeBufferPointer { starts in
          var failures = 0
          for index in 0..<dump.records {
            let record = UnsafeBufferPointer(rebasing: bytes[starts[index]..<starts[index + 1] - 1])
            if scanner.scan(record) != nil { failures += 1 }
          }
          return failures
        }
      }
    }
    precondition(failures == 0, "\(failures) generated records failed to scan")
  } setup: {
    Dump(records: 200_000)
  }
}
