// The first stage on its own: `RecordScanner` validating every record of a dump in memory and
// finding the Backbase fields, with no decoding. Lines are split in setup, so this is the
// scanner alone (the pipeline's own line splitting is in `Group`). `200K-scan` uses the fastest
// token-index kernel this CPU has; the `200K-scan-…` variants pin one kernel, or the byte state
// machine alone, to show what each step is worth.
import Benchmark
@_spi(Benchmarks) import TxFold
import TxFoldBenchmarkSupport

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = TxFoldMetrics.configuration(maxDuration: .seconds(4), maxIterations: 25)

  let variants: [(name: String, kernel: RecordScanner.Kernel)] = [
    ("200K-scan", .best), ("200K-scan-byte-at-a-time", .byteAtATime), ("200K-scan-portable", .portable),
    ("200K-scan-sse2", .sse2), ("200K-scan-avx2", .avx2), ("200K-scan-avx512", .avx512),
    ("200K-scan-avx512vbmi2", .avx512vbmi2), ("200K-scan-neon", .neon),
  ]
  for variant in variants where RecordScanner.supports(variant.kernel) {
    Benchmark(variant.name) { benchmark, dump in
      let scanner = RecordScanner(trie: RecordSchema.backbase.trie, kernel: variant.kernel)
      let failures = benchmark.measureRates(bytes: dump.byteCount, records: dump.records) {
        dump.count { record, _ in scanner.scan(record) != nil }
      }
      precondition(failures == 0, "\(failures) generated records failed to scan")
    } setup: {
      Dump(records: 200_000)
    }
  }
}
