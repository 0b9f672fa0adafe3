/// Writes the `jsonl` format: one JSON object per line (Documentation/Formats.md, "`group` reports").
///
/// Each group is one line: the `json` format's group object with `"state"` as
/// its first key, in section order and then group order. The lines are the
/// rows only, all of one shape, so DuckDB, Polars or Spark read them without an
/// extra row or column: the run's accounting goes to `--stats` and the run
/// summary on standard error, never into this output. Every line ends with
/// `\n`; an empty report is an empty file:
///
/// ```
/// {"state":"PENDING","date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95"},{"id":"1","description":"Internet Banking","amount":"1919.95"}]}
/// ```
///
/// `appendGroup` lets a pipeline write lines as groups are emitted, without
/// building a whole `GroupReport` first.
enum JSONLinesReportWriter {
  /// Writes every group line, handing full buffers to `flush`.
  static func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    for section in report.sections {
      for group in section.groups {
        try appendGroup(group, to: &out, flush: flush)
      }
    }
  }

  /// Appends one group line (with its `state`), newline included.
  static func appendGroup<E: Error>(
    _ group: TransactionGroup, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try JSONReportWriter.appendGroup(group, includingState: true, to: &out, flush: flush)
    out.append(.newline)
  }
}
