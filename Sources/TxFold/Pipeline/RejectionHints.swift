/// The options (by their parameter names; the CLI names its flags) that would have accepted a large share of a run's records, for
/// the run summary (`RunStats.hints`).
///
/// "Large" is at least half of the records: then the flag is the likely fix,
/// not one record's accident. Computed once at the end of a run from counts.
enum RejectionHints {
  /// The share of records, in percent, from which a flag is suggested.
  static let thresholdPercent = 50

  static func hints(stats: RunStats, trailingCommas: Int, maxRecordBytes: Int) -> [String] {
    guard stats.lines > 0 else { return [] }
    func large(_ count: Int) -> Bool { count > 0 && count * 100 >= stats.lines * thresholdPercent }
    var hints: [String] = []
    if large(trailingCommas) {
      hints.append(
        "\(trailingCommas) of \(stats.lines) records were rejected for a trailing comma (',}' or ',]'); "
          + "allowTrailingCommas accepts them.")
    }
    let tooLarge = stats.rejectedByReason[.recordTooLarge] ?? 0
    if large(tooLarge) {
      hints.append(
        "\(tooLarge) of \(stats.lines) records are larger than maxRecordBytes (\(maxRecordBytes) bytes); "
          + "a larger maxRecordBytes accepts them.")
    }
    return hints
  }
}
