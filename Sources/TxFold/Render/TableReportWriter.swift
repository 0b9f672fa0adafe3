/// A whole `group` report in `json`, `jsonl` or `csv`, written straight from
/// a fold's table: the bytes `ReportRenderer` writes from the table's
/// `GroupReport`, by the same writers (`GroupDocumentWriter`), without
/// building one (no string per member, no arrays per group, nothing to free
/// afterwards).
///
/// The groups are put in report order once (`order`); any run of positions
/// in that order can then be written on its own (`appendGroups`), since what
/// goes around a group — a section's head and end, the comma after it —
/// depends only on its neighbours' states. So a report can be written in
/// pieces, on several threads, and the pieces joined in order give the same
/// bytes as writing it in one go.
///
/// ```swift
/// let writer = TableReportWriter(format: .json, table: table, members: true)
/// writer.appendBeginning(to: &buffer)
/// try writer.appendGroups(0..<writer.order.count, to: &buffer, flush: flush)
/// writer.appendEnd(stats: stats, to: &buffer)
/// ```
struct TableReportWriter {
  /// The formats written from a table.
  static let formats: [ReportFormat] = [.json, .jsonl, .csv]

  let format: ReportFormat
  let groups: TableGroupViews
  /// Whether the kept members are written.
  let members: Bool
  /// The table's groups (those with a latest instant), in report order.
  let order: [Int]

  /// A writer of `table`'s report as `format` (one of `formats`); `members`
  /// false writes every group's `transactions` as `[]`.
  init(format: ReportFormat, table: GroupTable, members: Bool) {
    assert(Self.formats.contains(format), "a format that is written from report values")
    let groups = TableGroupViews(table: table)
    var order: [Int] = []
    groups.reportOrder(of: table.groups.indices, into: &order)
    self.format = format
    self.groups = groups
    self.members = members
    self.order = order
  }

  /// The number of kept members of the group at `position` of `order`, for
  /// splitting the report into pieces of about equal size.
  func memberCount(at position: Int) -> Int {
    members ? groups.table.groups[order[position]].members.count : 0
  }

  /// What comes before the first group.
  func appendBeginning(to out: inout [UInt8]) { document.appendBeginning(empty: order.isEmpty, to: &out) }

  /// The format's writer for what is written once a report; the groups are
  /// written by `appendGroups`, compiled for each format.
  private var document: any GroupDocumentWriter {
    switch format {
    case .json: JSONReportWriter()
    case .jsonl: JSONLinesReportWriter()
    default: CSVReportWriter()
    }
  }

  /// Writes the groups at `positions` of `order`, handing full buffers to `flush`.
  func appendGroups<E: Error>(
    _ positions: Range<Int>, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try appendGroups(
      positions, to: &out,
      afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
  }

  /// Writes the groups at `positions` of `order` whole into `out` (a piece
  /// another thread writes, which the caller joins to the rest).
  func appendGroups(_ positions: Range<Int>, to out: inout [UInt8]) {
    appendGroups(positions, to: &out, afterEachGroup: { (_: inout [UInt8]) -> Void in })
  }

  /// Writes the groups at `positions`, calling `afterEachGroup` with the
  /// buffer after each; the format is chosen once a piece, and each format's
  /// walk is compiled for it.
  private func appendGroups<E: Error>(
    _ positions: Range<Int>, to out: inout [UInt8], afterEachGroup: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    switch format {
    case .json:
      try groups.appendGroups(
        positions, of: order, members: members, with: JSONReportWriter(), to: &out, afterEachGroup: afterEachGroup)
    case .jsonl:
      try groups.appendGroups(
        positions, of: order, members: members, with: JSONLinesReportWriter(), to: &out,
        afterEachGroup: afterEachGroup)
    default:
      try groups.appendGroups(
        positions, of: order, members: members, with: CSVReportWriter(), to: &out, afterEachGroup: afterEachGroup)
    }
  }

  /// What comes after the last group: the run's accounting, for `json` only
  /// (`jsonl` holds only its rows, `csv` ends with its last row).
  func appendEnd(stats: RunStats, to out: inout [UInt8]) {
    document.appendEnd(empty: order.isEmpty, stats: stats, to: &out)
  }
}
