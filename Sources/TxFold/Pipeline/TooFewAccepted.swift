/// `ReadOptions.minAccepted`: the fewest accepted records a run may end with,
/// judged once the whole input is read. An empty or nearly empty export is
/// usually a broken one, which a nightly job must not publish as a report.
package struct TooFewAccepted: Error, Sendable, Hashable, CustomStringConvertible {
  /// Records accepted by the run.
  package var accepted: Int
  /// Records (lines or elements) the run read.
  package var lines: Int
  /// The fewest accepted records allowed.
  package var minimum: Int
}

extension TooFewAccepted {
  // In an extension, so the memberwise `init(accepted:lines:minimum:)` stays: the
  // failure as `PipelineError.tooFewAccepted` carries it.

  /// The run's count when it is below `minimum`, else `nil`.
  package init?(stats: RunStats, minimum: Int?) {
    guard let minimum, stats.accepted < minimum else { return nil }
    accepted = stats.accepted
    lines = stats.lines
    self.minimum = minimum
  }

  /// "3 records accepted (of 5 read), fewer than minAccepted 10 requires: …"
  package var description: String {
    "\(accepted) record\(accepted == 1 ? "" : "s") accepted (of \(lines) read), fewer than minAccepted \(minimum) "
      + "requires: an export this small is usually a broken one; no report is written."
  }
}
