/// Writes the `jsonl` format: one JSON object per line (Documentation/Formats.md, "`group` reports").
///
/// Each group is one line: the `json` format's group object with `"state"` as
/// its first key, in section order and then group order. After the groups, a
/// final line carries the run's accounting. Every line, the last included,
/// ends with `\n`; an empty report is the stats line alone:
///
/// ```
/// {"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95"},{"id":"1","description":"Internet Banking","amount":"1919.95"}]}
/// {"stats":{"lines":7,"accepted":7,"rejected":0,"duplicates":0}}
/// ```
///
/// `appendGroup` and `appendStats` let a pipeline write lines as groups are
/// emitted, without building a whole `GroupReport` first.
enum JSONLinesReportWriter {
  /// Writes every group line, then the stats line, handing full buffers to `flush`.
  static func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    for section in report.sections {
      for group in section.groups {
        try appendGroup(group, to: &out, flush: flush)
      }
    }
    appendStats(report.stats, to: &out)
  }

  /// Appends one group line (with its `state`), newline included.
  static func appendGroup<E: Error>(
    _ group: TransactionGroup, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try JSONReportWriter.appendGroup(group, includingState: true, to: &out, flush: flush)
    out.append(.newline)
  }

  /// Appends the final `{"stats":{…}}` line, newline included.
  static func appendStats(_ stats: RunStats, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"stats\":".utf8)
    JSONReportWriter.appendStats(stats, to: &out)
    out.append(.closeBrace)
    out.append(.newline)
  }
}
