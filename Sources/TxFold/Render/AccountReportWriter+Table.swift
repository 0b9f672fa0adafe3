/// Per-account `jsonl` and `json` written straight from a fold's table: the
/// same bytes as `write(_ account: AccountReport, …)`, without building the
/// report first (each group by `TableGroupWriter`, as the whole report's).
///
/// A bank's run writes hundreds of thousands of accounts of a group or two
/// each. Building an `AccountReport` for each made strings for every state,
/// currency and member and a dictionary of sections, which a thread then
/// freed after the other had written them; that was about half of the end of
/// a per-account run. Here the groups are sorted in place by the report's
/// order (`SectionOrder`, on numbers ranked once per table) and each value
/// is appended from the table's own storage.
///
/// The account's groups are sorted and its count summed before anything is
/// written; the buffer is moved into a local while writing, so the members'
/// closure can append to it.
extension AccountReportWriter {
  /// Whether `write(account:table:groups:members:flush:)` renders this format.
  var rendersTables: Bool { format == .jsonl || format == .json }

  /// Writes one account from `table`: the groups numbered in `groups` (all
  /// of the account's). Only for `rendersTables` formats.
  mutating func write<E: Error>(
    account: [UInt8], table: GroupTable, groups: some Collection<Int>, members: Bool,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    assert(rendersTables, "a format that is written from reports")
    let writer: TableGroupWriter
    if let current = tableWriter, current.serves(table) {
      writer = current
    } else {
      writer = TableGroupWriter(table: table)
      tableWriter = writer
    }
    var order = scratchOrder
    writer.reportOrder(of: groups, into: &order)
    var out = buffer
    buffer = []
    defer {
      buffer = out
      scratchOrder = order
    }
    var count = 0
    for index in groups { count += table.groups[index].count }
    if format == .json { document.appendAccountStart(to: &out) }
    out.appendLiteral("{\"account\":")
    account.withUnsafeBufferPointer { TableGroupWriter.appendJSONString($0, to: &out) }
    out.appendLiteral(",\"count\":")
    out.appendDecimal(count)
    out.appendLiteral(",\"sections\":[")
    try table.groups.withUnsafeBufferPointer { (all) throws(E) in
      var state = -1
      // `order` is not empty only when `all` is not.
      guard let base = all.baseAddress else { return }
      for index in order {
        let group = base + index
        let groupState = group.pointee.state
        if groupState != state {
          if state >= 0 { out.appendLiteral("]},") }
          out.appendLiteral("{\"state\":")
          writer.appendStateJSON(groupState, to: &out)
          out.appendLiteral(",\"groups\":[")
          state = groupState
        } else {
          out.append(.comma)
        }
        writer.appendJSON(group, includingState: false, members: members, to: &out)
        try BufferFlushing.flushIfFull(&out, flush)
      }
      if state >= 0 { out.appendLiteral("]}") }
    }
    out.appendLiteral("]}")
    if format == .jsonl { out.append(.newline) }
    document.accountWritten()
    try BufferFlushing.flushIfFull(&out, flush)
  }
}
