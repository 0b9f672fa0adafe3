/// Per-account `jsonl`, `json` and `csv` written straight from a fold's
/// table: the same bytes as `write(_ account: AccountReport, …)`, by the same
/// writers (`SectionsJSON`, `CSVReportWriter` with the account's cell as its
/// prefix), without building the report first (the groups walked by
/// `TableGroupViews`, as the whole report's).
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
/// written; the buffer is moved into a local while writing, so the walk
/// appends to a plain variable rather than to a property of `self`.
extension AccountReportWriter {
  /// Whether `write(account:table:groups:members:flush:)` renders this format.
  var rendersTables: Bool { format == .jsonl || format == .json || format == .csv }

  /// Writes one account from `table`: the groups numbered in `groups` (all
  /// of the account's). Only for `rendersTables` formats.
  ///
  /// `groups` is a concrete slice: callers generic over their error type
  /// reach this unspecialized, and iterating a generic collection there
  /// allocated a coroutine frame for every element it read.
  mutating func write<E: Error>(
    account: [UInt8], table: GroupTable, groups: ArraySlice<Int>, members: Bool,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    assert(rendersTables, "a format that is written from reports")
    let views: TableGroupViews
    if let current = tableViews, current.serves(table) {
      views = current
    } else {
      views = TableGroupViews(table: table)
      tableViews = views
    }
    // Both moved out, not copied: a copy shares the array's storage, so
    // emptying or growing it would allocate a new one for every account.
    var order: [Int] = []
    swap(&order, &scratchOrder)
    views.reportOrder(of: groups, into: &order)
    var out: [UInt8] = []
    swap(&out, &buffer)
    defer {
      buffer = out
      scratchOrder = order
    }
    if format == .csv {
      var csv = CSVReportWriter()
      account.withUnsafeBufferPointer { _ = CSVReportWriter.appendTextCell(bytes: $0, to: &csv.prefix) }
      csv.prefix.append(.comma)
      try views.appendGroups(
        0..<order.count, of: order, members: members, with: csv, to: &out,
        afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
      document.accountWritten()
      try BufferFlushing.flushIfFull(&out, flush)
      return
    }
    var count = 0
    for index in groups { count += table.groups[index].count }
    if format == .json { document.appendAccountStart(to: &out) }
    account.withUnsafeBufferPointer { Self.appendObjectStart(account: $0, count: count, to: &out) }
    try views.appendGroups(
      0..<order.count, of: order, members: members, with: SectionsJSON(), to: &out,
      // Written at each call, not kept in a local: a closure stored in a
      // variable had its context allocated for every account.
      afterEachGroup: { (buffer: inout [UInt8]) throws(E) in try BufferFlushing.flushIfFull(&buffer, flush) })
    out.appendLiteral("]}")
    if format == .jsonl { out.append(.newline) }
    document.accountWritten()
    try BufferFlushing.flushIfFull(&out, flush)
  }
}
