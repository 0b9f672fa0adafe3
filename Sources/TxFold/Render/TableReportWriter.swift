/// A whole `group` report in `json`, `jsonl` or `csv`, written straight from
/// a fold's table: the bytes `ReportRenderer` writes from the table's
/// `GroupReport`, without building one (no string per member, no arrays per
/// group, nothing to free afterwards).
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
  let groups: TableGroupWriter
  /// Whether the kept members are written.
  let members: Bool
  /// The table's groups (those with a latest instant), in report order.
  let order: [Int]
  /// The state of each group of `order`, by position.
  private let states: [Int]

  /// A writer of `table`'s report as `format` (one of `formats`); `members`
  /// false writes every group's `transactions` as `[]`.
  init(format: ReportFormat, table: GroupTable, members: Bool) {
    assert(Self.formats.contains(format), "a format that is written from report values")
    let groups = TableGroupWriter(table: table)
    var order: [Int] = []
    groups.reportOrder(of: table.groups.indices, into: &order)
    self.format = format
    self.groups = groups
    self.members = members
    self.order = order
    states = order.map { table.groups[$0].state }
  }

  /// The number of kept members of the group at `position` of `order`, for
  /// splitting the report into pieces of about equal size.
  func memberCount(at position: Int) -> Int {
    members ? groups.table.groups[order[position]].members.count : 0
  }

  /// What comes before the first group.
  func appendBeginning(to out: inout [UInt8]) {
    switch format {
    case .json: out.appendLiteral(order.isEmpty ? "{\n  \"sections\": [],\n" : "{\n  \"sections\": [\n")
    case .csv:
      out.append(contentsOf: CSVReportWriter.header.utf8)
      out.append(.carriageReturn)
      out.append(.newline)
    default: break
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

  /// Writes the groups at `positions`, calling `afterEachGroup` with the buffer after each.
  private func appendGroups<E: Error>(
    _ positions: Range<Int>, to out: inout [UInt8], afterEachGroup: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    try groups.table.groups.withUnsafeBufferPointer { (all) throws(E) in
      guard let base = all.baseAddress else { return }
      for position in positions {
        let group = base + order[position]
        switch format {
        case .json:
          let state = states[position]
          let opens = position == 0 || states[position - 1] != state
          let closes = position == order.count - 1 || states[position + 1] != state
          if opens {
            out.appendLiteral("    {\n      \"state\": ")
            groups.appendStateJSON(state, to: &out)
            out.appendLiteral(",\n      \"groups\": [\n")
          }
          out.appendLiteral("        ")
          groups.appendJSON(group, includingState: false, members: members, to: &out)
          if closes {
            out.appendLiteral("\n      ]\n    }")
            if position < order.count - 1 { out.append(.comma) }
          } else {
            out.append(.comma)
          }
          out.append(.newline)
        case .jsonl:
          groups.appendJSON(group, includingState: true, members: members, to: &out)
          out.append(.newline)
        default:
          groups.appendCSV(group, prefix: [], to: &out)
        }
        try afterEachGroup(&out)
      }
    }
  }

  /// What comes after the last group: the run's accounting, for `json` only
  /// (`jsonl` holds only its rows, `csv` ends with its last row).
  func appendEnd(stats: RunStats, to out: inout [UInt8]) {
    switch format {
    case .json:
      if !order.isEmpty { out.appendLiteral("  ],\n") }
      out.appendLiteral("  \"stats\": ")
      JSONReportWriter.appendStats(stats, to: &out)
      out.appendLiteral("\n}\n")
    default: break
    }
  }
}
