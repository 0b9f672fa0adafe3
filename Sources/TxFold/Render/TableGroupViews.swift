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
/// A class so that the names' memory is freed once the last walk is done with it.
final class TableGroupViews {
  let table: GroupTable
  /// Each state's rank in report order.
  let stateRanks: [Int]
  /// The states' and currencies' text and the currencies' ranks, which each
  /// group's view reads.
  let names: Names

  /// Each state's and currency's JSON string and CSV cell, one after another
  /// in memory the views own, where each lies there, and each currency's
  /// rank in report order: no array, so that the views of the groups, which
  /// read them per group, hold and retain nothing (an array of arrays
  /// retained and released the one it handed out, and the views' object
  /// around each call: a third of a per-account csv run's rendering).
  struct Names {
    private let text: UnsafeMutableBufferPointer<UInt8>
    private let spans: UnsafeMutableBufferPointer<Range<Int>>
    private let stateCount: Int
    private let currencyCount: Int
    /// Each currency's rank in report order.
    let currencyRanks: UnsafeMutableBufferPointer<Int>

    fileprivate init(states: [String], currencies: [String]) {
      stateCount = states.count
      currencyCount = currencies.count
      currencyRanks = .allocate(capacity: max(1, currencies.count))
      _ = currencyRanks.initialize(from: GroupTable.byteOrderRanks(currencies))
      // States' JSON, states' CSV, currencies' JSON, currencies' CSV.
      let pieces =
        states.map(TableGroupViews.jsonString) + states.map(TableGroupViews.csvCell)
        + currencies.map(TableGroupViews.jsonString) + currencies.map(TableGroupViews.csvCell)
      text = .allocate(capacity: max(1, pieces.reduce(0) { $0 + $1.count }))
      spans = .allocate(capacity: max(1, pieces.count))
      var end = 0
      for (index, piece) in pieces.enumerated() {
        _ = UnsafeMutableBufferPointer(rebasing: text[end..<(end + piece.count)]).initialize(from: piece)
        spans[index] = end..<(end + piece.count)
        end += piece.count
      }
    }

    fileprivate func deallocate() {
      text.deallocate()
      spans.deallocate()
      currencyRanks.deallocate()
    }

    /// How many currencies there were when the names were made.
    var currencies: Int { currencyCount }
    /// A state's quoted JSON string.
    func stateJSON(_ state: Int) -> UnsafeBufferPointer<UInt8> { piece(state) }
    /// A state's CSV cell.
    func stateCSV(_ state: Int) -> UnsafeBufferPointer<UInt8> { piece(stateCount + state) }
    /// A currency's quoted JSON string.
    func currencyJSON(_ currency: Int) -> UnsafeBufferPointer<UInt8> { piece(2 * stateCount + currency) }
    /// A currency's CSV cell.
    func currencyCSV(_ currency: Int) -> UnsafeBufferPointer<UInt8> {
      piece(2 * stateCount + currencyCount + currency)
    }

    @inline(__always)
    private func piece(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: text[spans[index]])
    }
  }

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
    names = Names(states: states, currencies: currencies)
  }

  deinit { names.deallocate() }

  /// Whether these views still serve `table`: the same table, with no new
  /// state or currency since (a pooled table keeps its names; their numbers
  /// stay valid).
  func serves(_ table: GroupTable) -> Bool {
    self.table === table && stateRanks.count == table.states.count && names.currencies == table.currencies.count
  }

  fileprivate static func jsonString(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONEscaping.appendString(text, to: &bytes)
    return bytes
  }

  fileprivate static func csvCell(_ text: String) -> [UInt8] {
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
            first: state == firstState, appendState: { $0.append(contentsOf: names.stateJSON(state)) }, to: &out)
        }
        writer.appendGroup(
          TableGroupView(group: group, latest: latest, members: members, names: names), first: opens, last: closes,
          to: &out)
        if closes { writer.appendSectionEnd(last: state == lastState, to: &out) }
        try afterEachGroup(&out)
      }
    }
  }
}
