/// The row a parallel `list` worker renders ahead for its format: the
/// `csv` writer's row or the `json` writer's transaction object (which
/// `jsonl` prints too).
enum ListRowStyle: Sendable {
  /// `ListCSVWriter`'s row, with its CRLF.
  case csv
  /// `ListJSONWriter`'s transaction object, without separator or line end.
  case json

  /// Appends `row` in this style; returns whether it is a csv row that kept a control
  /// character for the writer to replace (`ListEntryLayout.csvControls`).
  @inline(__always)
  func append(_ row: RecordListRow, to out: inout [UInt8]) -> Bool {
    switch self {
    case .csv: return ListCSVWriter.appendRow(row, to: &out)
    case .json:
      ListJSONWriter.appendObject(row, to: &out)
      return false
    }
  }
}
