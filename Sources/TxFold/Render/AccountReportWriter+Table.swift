/// Per-account `jsonl` and `json` written straight from a fold's table: the
/// same bytes as `write(_ account: AccountReport, …)`, without building the
/// report first.
///
/// A bank's run writes hundreds of thousands of accounts of a group or two
/// each. Building an `AccountReport` for each made strings for every state,
/// currency and member and a dictionary of sections, which a thread then
/// freed after the other had written them; that was about half of the end of
/// a per-account run. Here the groups are sorted in place by the report's
/// order (`SectionOrder`, on numbers ranked once per table) and each value
/// is appended from the table's own storage.
extension AccountReportWriter {
  /// Whether `write(account:table:groups:members:flush:)` renders this format.
  var rendersTables: Bool { format == .jsonl || format == .json }

  /// Writes one account from `table`: the groups numbered in `groups` (all
  /// of the account's). Only for `rendersTables` formats.
  mutating func write<E: Error>(
    account: [UInt8], table: GroupTable, groups: some Sequence<Int>, members: Bool,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    assert(rendersTables, "a format that is written from reports")
    let ranks = tableRanks.ranks(for: table)
    var order = scratchOrder
    order.removeAll(keepingCapacity: true)
    try table.groups.withUnsafeBufferPointer { (all) throws(E) in
      // Groups are read in place through pointers: a copy of one would retain
      // and release every one of its arrays.
      let base = all.baseAddress
      var count = 0
      if let base {
        for index in groups {
          count += base[index].count
          if base[index].latest != nil { order.append(index) }
        }
        order.sort { lhs, rhs in
          let left = ranks.state[base[lhs].state]
          let right = ranks.state[base[rhs].state]
          if left != right { return left < right }
          return Self.groupComesFirst(base + lhs, base + rhs)
        }
      }
      if format == .json { document.appendAccountStart(to: &buffer) }
      buffer.appendLiteral("{\"account\":")
      account.withUnsafeBufferPointer { Self.appendJSONString($0, to: &buffer) }
      buffer.appendLiteral(",\"count\":")
      buffer.appendDecimal(count)
      buffer.appendLiteral(",\"sections\":[")
      var state = -1
      for index in order {
        // `order` is not empty only when `base` is not nil.
        guard let group = base.map({ $0 + index }) else { break }
        let groupState = group.pointee.state
        if groupState != state {
          if state >= 0 { buffer.appendLiteral("]},") }
          buffer.appendLiteral("{\"state\":")
          table.states.strings[groupState].withUnsafeBufferPointer { Self.appendJSONString($0, to: &buffer) }
          buffer.appendLiteral(",\"groups\":[")
          state = groupState
        } else {
          buffer.append(.comma)
        }
        try appendGroup(group, table: table, currencyRanks: ranks.currency, members: members, flush: flush)
      }
      if state >= 0 { buffer.appendLiteral("]}") }
      buffer.appendLiteral("]}")
    }
    if format == .jsonl { buffer.append(.newline) }
    scratchOrder = order
    document.accountWritten()
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// `SectionOrder.groupComesFirst` on the table's groups, read in place
  /// (only groups with a latest instant are ordered).
  private static func groupComesFirst(
    _ lhs: UnsafePointer<GroupAccumulator>, _ rhs: UnsafePointer<GroupAccumulator>
  ) -> Bool {
    guard let left = lhs.pointee.latest, let right = rhs.pointee.latest else { return false }
    return SectionOrder.groupComesFirst(
      (lhs.pointee.day, left, lhs.pointee.indicator), (rhs.pointee.day, right, rhs.pointee.indicator))
  }

  /// One group as `JSONReportWriter.appendGroup` writes it (without `state`).
  private mutating func appendGroup<E: Error>(
    _ group: UnsafePointer<GroupAccumulator>, table: GroupTable, currencyRanks: [Int], members: Bool,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    guard let latest = group.pointee.latest else { return }
    buffer.appendLiteral("{\"date\":\"")
    group.pointee.day.appendText(to: &buffer)
    buffer.appendLiteral("\",\"creditDebitIndicator\":\"")
    buffer.appendLiteral(group.pointee.indicator == .credit ? "CRDT" : "DBIT")
    buffer.appendLiteral("\",\"count\":")
    buffer.appendDecimal(group.pointee.count)
    buffer.appendLiteral(",\"totals\":[")
    // The totals are few (one or two currencies): each round picks the least
    // rank above the last one written, with no array to sort.
    var lastRank = Int.min
    for written in 0..<group.pointee.totals.count {
      var least = -1
      for (position, total) in group.pointee.totals.enumerated() {
        let rank = currencyRanks[total.currency]
        guard rank > lastRank else { continue }
        if least < 0 || rank < currencyRanks[group.pointee.totals[least].currency] { least = position }
      }
      guard least >= 0 else { break }
      let total = group.pointee.totals[least]
      lastRank = currencyRanks[total.currency]
      if written > 0 { buffer.append(.comma) }
      buffer.appendLiteral("{\"currency\":")
      table.currencies.strings[total.currency].withUnsafeBufferPointer { Self.appendJSONString($0, to: &buffer) }
      buffer.appendLiteral(",\"amount\":\"")
      total.sum.appendText(to: &buffer)
      buffer.appendLiteral("\"}")
    }
    buffer.appendLiteral("],\"latest\":\"")
    latest.appendText(to: &buffer)
    buffer.appendLiteral("\",\"transactions\":[")
    if members {
      var firstMember = true
      var out = buffer
      buffer = []
      group.pointee.members.forEachInReportOrder { slot, text in
        if !firstMember { out.append(.comma) }
        firstMember = false
        let idStart = slot.textStart
        let currencyStart = idStart + slot.idLength
        let descriptionStart = currencyStart + slot.currencyLength
        out.appendLiteral("{\"id\":")
        Self.appendJSONString(UnsafeBufferPointer(rebasing: text[idStart..<currencyStart]), to: &out)
        if slot.hasDescription {
          out.appendLiteral(",\"description\":")
          Self.appendJSONString(
            UnsafeBufferPointer(rebasing: text[descriptionStart..<(descriptionStart + slot.descriptionLength)]),
            to: &out)
        }
        out.appendLiteral(",\"amount\":\"")
        slot.amount.appendText(to: &out)
        out.appendLiteral("\",\"currency\":")
        Self.appendJSONString(UnsafeBufferPointer(rebasing: text[currencyStart..<descriptionStart]), to: &out)
        out.append(.closeBrace)
      }
      buffer = out
    }
    buffer.appendLiteral("]}")
    try BufferFlushing.flushIfFull(&buffer, flush)
  }

  /// A JSON string of bytes from the table. They are valid UTF-8 when they
  /// come from a fold or a run; text from a damaged partial may not be, and
  /// is then repaired as `String(decoding:as:)` repairs it, as the report
  /// path does.
  static func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if UTF8Validation.isValid(bytes) {
      JSONEscaping.appendString(contiguous: bytes, to: &out)
    } else {
      JSONEscaping.appendString(String(decoding: bytes, as: UTF8.self), to: &out)
    }
  }
}

/// Each state's and currency's rank in report order for one table, kept
/// while the table gains no names (a pooled table keeps its names; their
/// numbers stay valid).
struct TableRanks {
  private var table: GroupTable?
  private var stateCount = -1
  private var currencyCount = -1
  private(set) var state: [Int] = []
  private(set) var currency: [Int] = []

  mutating func ranks(for table: GroupTable) -> (state: [Int], currency: [Int]) {
    if self.table !== table || stateCount != table.states.count || currencyCount != table.currencies.count {
      let states = table.states.strings.map { String(decoding: $0, as: UTF8.self) }
      var stateRanks = Array(repeating: 0, count: states.count)
      for (rank, number) in states.indices.sorted(by: { SectionOrder.stateComesFirst(states[$0], states[$1]) })
        .enumerated()
      {
        stateRanks[number] = rank
      }
      state = stateRanks
      currency = GroupTable.byteOrderRanks(table.currencies.strings.map { String(decoding: $0, as: UTF8.self) })
      self.table = table
      stateCount = states.count
      currencyCount = table.currencies.count
    }
    return (state, currency)
  }
}
