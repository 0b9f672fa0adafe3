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
struct JSONLinesReportWriter: GroupDocumentWriter {
  func appendBeginning(empty: Bool, to out: inout [UInt8]) {}

  func appendSectionStart(first: Bool, appendState: (inout [UInt8]) -> Void, to out: inout [UInt8]) {}

  func appendGroup<Group: GroupView>(_ group: Group, first: Bool, last: Bool, to out: inout [UInt8]) {
    JSONReportWriter.appendGroupObject(group, includingState: true, to: &out)
    out.append(.newline)
  }

  func appendSectionEnd(last: Bool, to out: inout [UInt8]) {}

  func appendEnd(empty: Bool, stats: RunStats, to out: inout [UInt8]) {}
}
