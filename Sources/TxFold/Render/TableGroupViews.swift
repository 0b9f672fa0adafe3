/// A fold's table as the machine formats read it: its groups put in report
/// order and walked in place, each handed to a format's writer as a
/// `TableGroupView` — the bytes a `GroupReport` of the table gives, without
/// making one (no string per state, currency and member, no arrays per
/// group).
///
/// The whole report (`TableReportWriter`) and the per-account writer
/// (`AccountReportWriter+Table.swift`) both walk their groups here. States
/// and currencies are few, so each one's JSON string and CSV cell are made
/// once, from the same `String` the report path makes, and copied per group;
/// the members' text is escaped from the table's bytes.
///
/// A class so that a view can refer to it without retaining it, per group.
final class TableGroupViews {
  let table: GroupTable
  /// Each state's and currency's rank in report order.
  let stateRanks: [Int]
  let currencyRanks: [Int]
  /// Each state and currency as a quoted JSON string and as a CSV cell.
  let stateJSON: [[UInt8]]
  let stateCSV: [[UInt8]]
  let currencyJSON: [[UInt8]]
  let currencyCSV: [[UInt8]]

  /// The views of `table`'s groups, with the names the table has now.
  init(table: GroupTable) {
    self.table = table
    let states = table.states.strings.map { String(decoding: $0, as: UTF8.self) }
    let currencies = table.currencies.strings.map { String(decoding: $0, as: UTF8.self) }
    var ranks = Array(repeating: 0, count: states.count)
    for (rank, number) in states.indices.sorted(by: { SectionOrder.stateComesFirst(states[$0], states[$1]) })
      .enumerated()
    {
      ranks[number] = rank
    }
    stateRanks = ranks
    currencyRanks = GroupTable.byteOrderRanks(currencies)
    stateJSON = states.map(Self.jsonString)
    currencyJSON = currencies.map(Self.jsonString)
    stateCSV = states.map(Self.csvCell)
    currencyCSV = currencies.map(Self.csvCell)
  }

  /// Whether these views still serve `table`: the same table, with no new
  /// state or currency since (a pooled table keeps its names; their numbers
  /// stay valid).
  func serves(_ table: GroupTable) -> Bool {
    self.table === table && stateRanks.count == table.states.count && currencyRanks.count == table.currencies.count
  }

  private static func jsonString(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONEscaping.appendString(text, to: &bytes)
    return bytes
  }

  private static func csvCell(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    CSVReportWriter.appendTextCell(text, to: &bytes)
    return bytes
  }

  /// The groups numbered in `selection` that have a latest instant (every
  /// group a fold made), in report order: by state rank, then
  /// `SectionOrder.groupComesFirst`. Appended to `order`, which is emptied first.
  func reportOrder(of selection: some Sequence<Int>, into order: inout [Int]) {
    order.removeAll(keepingCapacity: true)
    let ranks = stateRanks
    table.groups.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return }
      for index in selection where base[index].latest != nil { order.append(index) }
      order.sort { lhs, rhs in
        let left = ranks[base[lhs].state]
        let right = ranks[base[rhs].state]
        if left != right { return left < right }
        return Self.groupComesFirst(base + lhs, base + rhs)
      }
    }
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

  /// Writes the groups at `positions` of `order` (groups of the table in
  /// report order, from `reportOrder`) with `writer`, calling
  /// `afterEachGroup` with the buffer after each; `members` false shows no
  /// member.
  ///
  /// Any run of positions can be written on its own: a section's start and
  /// end, and where it stands among the sections, follow from the
  /// neighbours' states, as sections are runs of one state in this order.
  func appendGroups<Writer: GroupSectionWriter, E: Error>(
    _ positions: Range<Int>, of order: [Int], members: Bool, with writer: Writer, to out: inout [UInt8],
    afterEachGroup: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    // Groups are read in place through pointers: a copy of one would retain
    // and release every one of its arrays.
    try table.groups.withUnsafeBufferPointer { (all) throws(E) in
      guard let base = all.baseAddress, let firstGroup = order.first, let lastGroup = order.last else { return }
      let firstState = base[firstGroup].state
      let lastState = base[lastGroup].state
      for position in positions {
        let group = base + order[position]
        guard let latest = group.pointee.latest else { continue }
        let state = group.pointee.state
        let opens = position == 0 || base[order[position - 1]].state != state
        let closes = position == order.count - 1 || base[order[position + 1]].state != state
        if opens {
          writer.appendSectionStart(
            first: state == firstState, appendState: { $0.append(contentsOf: stateJSON[state]) }, to: &out)
        }
        writer.appendGroup(
          TableGroupView(group: group, latest: latest, members: members, views: self), first: opens, last: closes,
          to: &out)
        if closes { writer.appendSectionEnd(last: state == lastState, to: &out) }
        try afterEachGroup(&out)
      }
    }
  }
}
