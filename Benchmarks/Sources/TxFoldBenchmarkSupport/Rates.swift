#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Benchmark

/// The metrics every TxFold benchmark reports.
///
/// package-benchmark's own `throughput` metric is iterations per second, rounded to an integer
/// per iteration, which says nothing useful about an iteration that folds a whole dump in a
/// second or two. So each benchmark times its own work and reports custom metrics:
///
/// - `MB/s`: input bytes (10^6 bytes per MB; for gzip input the *decompressed* bytes, as the
///   `txfold` run summary counts them) per second of wall-clock time;
/// - `records/s`: records per second, shown in thousands (`K`);
/// - `CPU (ms)`: CPU time of the whole process (all threads) for the pass, from
///   `CLOCK_PROCESS_CPUTIME_ID`: on a shared machine it moves much less than wall-clock time.
///
/// Allocations come from package-benchmark's malloc interposer (the `MallocInterposer` trait):
/// `Malloc (total)` and `Malloc (bytes total)` count every thread's calls during one iteration,
/// that is one pass over the dump.
public enum TxFoldMetrics {
  public static let megabytesPerSecond = BenchmarkMetric.custom(
    "MB/s", polarity: .prefersLarger, useScalingFactor: false)
  public static let recordsPerSecond = BenchmarkMetric.custom(
    "records/s", polarity: .prefersLarger, useScalingFactor: false)
  public static let cpuMilliseconds = BenchmarkMetric.custom(
    "CPU (ms)", polarity: .prefersSmaller, useScalingFactor: false)

  /// Rates, times and allocations.
  ///
  /// Not the harness's `cpuTotal` nor `peakMemoryResident`: reading `/proc` for them allocates
  /// inside the measured region (about 20 mallocs an iteration) and sampling memory runs a
  /// thread that allocates all along, which would hide that the scanner and decoder allocate
  /// nothing. CPU time is measured without allocating instead; peak RSS is in `compare.sh`.
  public static let metrics: [BenchmarkMetric] = [
    megabytesPerSecond, recordsPerSecond, .wallClock, cpuMilliseconds, .mallocCountTotal, .mallocBytesCount,
  ]

  /// A configuration for benchmarks whose one iteration is one pass over a dump.
  public static func configuration(
    maxDuration: Duration, maxIterations: Int, warmupIterations: Int = 1
  ) -> Benchmark.Configuration {
    .init(
      metrics: metrics,
      timeUnits: .milliseconds,
      units: [megabytesPerSecond: .count, recordsPerSecond: .kilo, cpuMilliseconds: .count],
      warmupIterations: warmupIterations,
      scalingFactor: .one,
      maxDuration: maxDuration,
      maxIterations: maxIterations
    )
  }
}

extension Benchmark {
  /// Runs `body` once, timing it, and records `bytes` and `records` over its wall-clock time
  /// as `MB/s` and `records/s`, and the process's CPU time as `CPU (ms)`.
  public func measureRates<Result>(bytes: Int, records: Int, _ body: () throws -> Result) rethrows -> Result {
    let clock = ContinuousClock()
    let cpuStart = processCPUNanoseconds()
    let start = clock.now
    let result = try body()
    let elapsed = start.duration(to: clock.now)
    let cpu = processCPUNanoseconds() - cpuStart
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if seconds > 0 {
      measurement(TxFoldMetrics.megabytesPerSecond, Int((Double(bytes) / seconds / 1e6).rounded()))
      measurement(TxFoldMetrics.recordsPerSecond, Int((Double(records) / seconds).rounded()))
    }
    measurement(TxFoldMetrics.cpuMilliseconds, Int((Double(cpu) / 1e6).rounded()))
    return result
  }
}

/// CPU time used by every thread of this process so far.
func processCPUNanoseconds() -> Int {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
}
