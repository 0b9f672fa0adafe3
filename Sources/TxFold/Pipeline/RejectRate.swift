/// `ReadOptions.maxRejectRate`: the share of rejected lines a run may have
/// (`0.01` for 1 %), judged once the whole input is read, exactly: `rejected
/// / lines > rate` is compared as `rejected × 10^scale > significand × lines`
/// in 128-bit integers, never as a floating-point quotient.
package struct RejectRateExceeded: Error, Sendable, Hashable, CustomStringConvertible {
  /// Rejected lines of the run.
  package var rejected: Int
  /// All lines of the run.
  package var lines: Int
  /// The share allowed.
  package var limit: ExactDecimal
}

extension RejectRateExceeded {
  // In an extension, so the memberwise `init(rejected:lines:limit:)` stays: the
  // failure as `PipelineError.tooManyRejected` carries it.

  /// The run's share when it is over `limit`, else `nil`.
  package init?(stats: RunStats, limit: ExactDecimal?) {
    guard let limit, stats.lines > 0, stats.rejected > 0 else { return nil }
    guard !limit.isNegative, limit.scale <= 18 else { return nil }
    var power: WideInt = 1
    for _ in 0..<limit.scale { power = power * 10 }
    let (left, leftOverflow) = WideInt(stats.rejected).multipliedReportingOverflow(by: power)
    let (right, rightOverflow) = limit.wide.multipliedReportingOverflow(by: WideInt(stats.lines))
    // Neither side overflows for counts that fit in `Int` and a scale up to 18; if one did, the run is judged over.
    guard leftOverflow || rightOverflow || left > right else { return nil }
    rejected = stats.rejected
    lines = stats.lines
    self.limit = limit
  }

  /// "3 of 62 lines rejected (4.84 %), more than maxRejectRate 0.01 allows."
  package var description: String {
    let hundredths = (rejected * 10_000 + lines / 2) / lines
    let percent = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) %"
    return "\(rejected) of \(lines) lines rejected (\(percent)), more than maxRejectRate \(limit) allows."
  }
}
