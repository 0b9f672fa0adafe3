/// The `json` group object and the `csv` rows of one group, written straight
/// from a fold's table: the bytes `JSONReportWriter.appendGroup` and
/// `CSVReportWriter.appendRow` write from a `TransactionGroup`, without making
/// one (no string per state, currency and member, no arrays per group).
///
/// The one writer of a group from a table: the whole report
/// (`TableReportWriter`) and the per-account writer
/// (`AccountReportWriter+Table.swift`) both call it. States and currencies
/// are few, so each one's JSON string and CSV cell are made once per writer
/// from the same `String` the report path makes, and copied per group; the
/// members' text is escaped from the table's bytes.
///
/// Groups are read in place through pointers: a copy of one would retain and
/// release every one of its arrays.
struct TableGroupWriter {
  let table: GroupTable
  /// Each state's and currency's rank in report order.
  let stateRanks: [Int]
  let currencyRanks: [Int]
  /// Each state and currency as a quoted JSON string and as a CSV cell.
  private let stateJSON: [[UInt8]]
  private let stateCSV: [[UInt8]]
  private let currencyJSON: [[UInt8]]
  private let currencyCSV: [[UInt8]]

  /// The scratch memory a group is written into (`ByteScratch`): on the
  /// stack, which `withUnsafeTemporaryAllocation` gives only up to 1 KiB
  /// (beyond, it took `malloc` once a group).
  static let scratchSize = 1_024
  /// A member's bytes besides its three strings' own: the keys, quotes,
  /// braces and comma (88), the amount (at most 22) and the instant.
  static let memberFrame = 88 + ExactDecimal.canonicalTextLimit + Timestamp.textLimit

  /// A writer for `table`'s groups, with the names the table has now.
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

  /// Whether this writer still serves `table`: the same table, with no new
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

  /// The quoted JSON string of state `state`.
  func appendStateJSON(_ state: Int, to out: inout [UInt8]) { out.append(contentsOf: stateJSON[state]) }

  /// Appends one group as a compact JSON object, with `"state"` as its first
  /// key when `includingState` is true (the `jsonl` line): what
  /// `JSONReportWriter.appendGroup` writes for the same group, with its kept
  /// members when `members` is true and `"transactions":[]` otherwise.
  ///
  /// The caller flushes after the group: a group is in the buffer whole, as
  /// its members are in the table (not generic over `flush`'s error, so the
  /// members' loop is compiled for the buffer alone).
  func appendJSON(
    _ group: UnsafePointer<GroupAccumulator>, includingState: Bool, members: Bool, to out: inout [UInt8]
  ) {
    guard let latest = group.pointee.latest else { return }
    // The whole group goes through the scratch memory, moved to `out` when
    // full: a per-account report writes one group per customer and day, and
    // appending its dozen pieces to the array one by one (a uniqueness and
    // capacity check and a call each) was most of writing it.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.scratchSize) { memory in
      var scratch = ByteScratch(memory)
      scratch.write(.openBrace)
      if includingState {
        scratch.write("\"state\":")
        scratch.write(stateJSON[group.pointee.state], flushingTo: &out)
        scratch.makeRoom(1, flushingTo: &out)
        scratch.write(.comma)
      }
      scratch.makeRoom(Self.headRoom, flushingTo: &out)
      scratch.write("\"date\":\"")
      scratch.write(group.pointee.day)
      scratch.write(
        group.pointee.indicator == .credit ? "\",\"creditDebitIndicator\":\"CRDT" : "\",\"creditDebitIndicator\":\"DBIT"
      )
      scratch.write("\",\"count\":")
      scratch.writeDecimal(group.pointee.count)
      scratch.write(",\"totals\":[")
      var written = 0
      forEachTotal(group) { total in
        scratch.makeRoom(14, flushingTo: &out)
        if written > 0 { scratch.write(.comma) }
        written += 1
        scratch.write("{\"currency\":")
        scratch.write(currencyJSON[total.currency], flushingTo: &out)
        scratch.makeRoom(12, flushingTo: &out)
        scratch.write(",\"amount\":\"")
        scratch.write(total.sum, flushingTo: &out)
        scratch.makeRoom(2, flushingTo: &out)
        scratch.write("\"}")
      }
      scratch.makeRoom(Self.tailRoom, flushingTo: &out)
      scratch.write("],\"latest\":\"")
      scratch.write(latest)
      scratch.write("\",\"transactions\":[")
      if members { appendMembers(of: group, scratch: &scratch, to: &out) }
      scratch.makeRoom(2, flushingTo: &out)
      scratch.write("]}")
      scratch.move(to: &out)
    }
  }

  /// What the group's object takes from `"date"` to `"totals":[`, and from
  /// `],"latest"` to `"transactions":[`, at most.
  private static let headRoom = 80 + ByteScratch.fieldRoom
  private static let tailRoom = 40 + ByteScratch.fieldRoom

  /// Writes the group's kept members, comma-separated, through `scratch`.
  private func appendMembers(
    of group: UnsafePointer<GroupAccumulator>, scratch: inout ByteScratch, to out: inout [UInt8]
  ) {
    var first = true
    group.pointee.members.forEachInReportOrder { slot, text in
      let idStart = slot.textStart
      let currencyStart = idStart + slot.idLength
      let descriptionStart = currencyStart + slot.currencyLength
      let id = UnsafeBufferPointer(rebasing: text[idStart..<currencyStart])
      let currency = UnsafeBufferPointer(rebasing: text[currencyStart..<descriptionStart])
      let description =
        slot.hasDescription
        ? UnsafeBufferPointer(rebasing: text[descriptionStart..<(descriptionStart + slot.descriptionLength)]) : nil
      // The usual member, strings without escapes and an amount in a word, is
      // copied into the scratch memory; any other is appended piece by piece.
      let need = Self.memberFrame + id.count + currency.count + (description?.count ?? 0)
      if need > scratch.room { scratch.move(to: &out) }
      let copied =
        need <= scratch.room && JSONEscaping.isPlainText(id) && JSONEscaping.isPlainText(currency)
        && description.map(JSONEscaping.isPlainText) != false
        && slot.amount.withCanonicalText { amount in
          if !first { scratch.write(.comma) }
          scratch.write("{\"id\":\"")
          scratch.write(id)
          if let description {
            scratch.write("\",\"description\":\"")
            scratch.write(description)
          }
          scratch.write("\",\"amount\":\"")
          scratch.write(amount)
          scratch.write("\",\"currency\":\"")
          scratch.write(currency)
          scratch.write("\",\"instant\":\"")
          scratch.write(slot.instant)
          scratch.write("\"}")
          return true
        } == true
      if !copied {
        scratch.move(to: &out)
        if !first { out.append(.comma) }
        out.appendLiteral("{\"id\":")
        Self.appendJSONString(id, to: &out)
        if let description {
          out.appendLiteral(",\"description\":")
          Self.appendJSONString(description, to: &out)
        }
        out.appendLiteral(",\"amount\":\"")
        slot.amount.appendText(to: &out)
        out.appendLiteral("\",\"currency\":")
        Self.appendJSONString(currency, to: &out)
        out.appendLiteral(",\"instant\":\"")
        slot.instant.appendText(to: &out)
        out.appendLiteral("\"}")
      }
      first = false
    }
  }

  /// Appends the `csv` rows of one group, each after `prefix` (the
  /// per-account report's account cell, or nothing): what
  /// `CSVReportWriter.appendRow` writes for the same group's totals.
  func appendCSV(_ group: UnsafePointer<GroupAccumulator>, prefix: [UInt8], to out: inout [UInt8]) {
    guard let latest = group.pointee.latest else { return }
    let state = stateCSV[group.pointee.state]
    @inline(__always) func appendStart() {
      out.append(contentsOf: prefix)
      out.append(contentsOf: state)
      out.append(.comma)
      group.pointee.day.appendText(to: &out)
      out.appendLiteral(group.pointee.indicator == .credit ? ",CRDT," : ",DBIT,")
      out.appendDecimal(group.pointee.count)
      out.append(.comma)
    }
    @inline(__always) func appendEnd() {
      out.append(.comma)
      latest.appendText(to: &out)
      out.append(.carriageReturn)
      out.append(.newline)
    }
    if group.pointee.totals.isEmpty {
      appendStart()
      out.append(.comma)
      out.append(.comma)
      appendEnd()
      return
    }
    forEachTotal(group) { total in
      appendStart()
      out.append(contentsOf: currencyCSV[total.currency])
      out.append(.comma)
      out.appendDecimal(total.count)
      out.append(.comma)
      // Canonical decimal text: digits, `.` and a leading `-` only.
      total.sum.appendText(to: &out)
      appendEnd()
    }
  }

  /// Calls `body` with the group's totals in report order (by the currency's rank).
  ///
  /// The totals are few (one or two currencies): each round picks the least
  /// rank above the last one given, with no array to sort.
  private func forEachTotal(
    _ group: UnsafePointer<GroupAccumulator>, _ body: ((currency: Int, sum: ExactDecimal, count: Int)) -> Void
  ) {
    let totals = group.pointee.totals
    var lastRank = Int.min
    for _ in 0..<totals.count {
      var least = -1
      for (position, total) in totals.enumerated() {
        let rank = currencyRanks[total.currency]
        guard rank > lastRank else { continue }
        if least < 0 || rank < currencyRanks[totals[least].currency] { least = position }
      }
      guard least >= 0 else { break }
      lastRank = currencyRanks[totals[least].currency]
      body(totals[least])
    }
  }

  /// A JSON string of bytes from the table. They are valid UTF-8 when they
  /// come from a fold or a run; text from a damaged partial may not be, and
  /// is then repaired as `String(decoding:as:)` repairs it, as the report
  /// path does.
  static func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if JSONEscaping.appendPlainASCII(bytes, to: &out) { return }
    if UTF8Validation.isValid(bytes) {
      JSONEscaping.appendString(contiguous: bytes, to: &out)
    } else {
      JSONEscaping.appendString(String(decoding: bytes, as: UTF8.self), to: &out)
    }
  }
}
