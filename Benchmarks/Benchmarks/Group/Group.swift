// The whole `group` job through its public entry point, `GroupPipeline.run(sources:)`: line
// framing, worker threads (decode and fold), merge, ordering — everything `txfold group` does
// except reading the file and rendering the report. The dump is in memory (a `MemorySource`,
// and for gzip `InputOpener.open(bytes:name:)` inflating it), so the figures are TxFold's, not the disk's.
//
// `MB/s` counts decompressed bytes for gzip input, as `txfold`'s run summary does.
import Benchmark
import TxFold
import TxFoldBenchmarkSupport

/// Runs the pipeline over `dump` (or its gzip form) and checks every record was accepted.
func group(_ benchmark: Benchmark, _ dump: Dump, gzip: [UInt8]?, threads: Int?) {
  var options = GroupOptions()
  if let threads { options.threads = threads }
  let report = benchmark.measureRates(bytes: dump.byteCount, records: dump.records) { () -> GroupReport in
    do {
      let source: any ByteSource =
        if let gzip { try InputOpener.open(bytes: gzip, name: "dump.jsonl.gz") } else {
          MemorySource(dump.bytes, name: "dump.jsonl")
        }
      return try GroupPipeline(options: options).run(sources: [source])
    } catch {
      fatalError("group failed: \(error)")
    }
  }
  precondition(report.stats.accepted == dump.records, "accepted \(report.stats.accepted) of \(dump.records)")
}

let benchmarks: @Sendable () -> Void = {
  // An iteration takes 1.5-3 s on 2 cores: a warm-up and four measured passes each.
  Benchmark.defaultConfiguration = TxFoldMetrics.configuration(maxDuration: .seconds(12), maxIterations: 4)
  let records = 1_000_000

  // Default options: `--threads` = all cores (the reader, and one worker per core).
  Benchmark("1M-plain-group") { benchmark, dump in
    group(benchmark, dump, gzip: nil, threads: nil)
  } setup: {
    Dump(records: records)
  }

  Benchmark("1M-gzip-group") { benchmark, input in
    group(benchmark, input.dump, gzip: input.gzip, threads: nil)
  } setup: {
    let dump = Dump(records: records)
    return (dump: dump, gzip: dump.gzipped())
  }

  // `--threads 1`: everything on the calling thread, the single-core cost per record.
  Benchmark("1M-plain-group-1thread") { benchmark, dump in
    group(benchmark, dump, gzip: nil, threads: 1)
  } setup: {
    Dump(records: records)
  }

  Benchmark("1M-gzip-group-1thread") { benchmark, input in
    group(benchmark, input.dump, gzip: input.gzip, threads: 1)
  } setup: {
    let dump = Dump(records: records)
    return (dump: dump, gzip: dump.gzipped())
  }
}
