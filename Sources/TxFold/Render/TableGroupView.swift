/// A group of a fold's table, read in place, as the machine formats read it
/// (`GroupView`): made per group by `TableGroupViews.appendGroups`, for the
/// time of one write.
struct TableGroupView: GroupView {
  let group: UnsafePointer<GroupAccumulator>
  let latest: Timestamp
  /// Whether the report shows the group's kept members.
  let members: Bool
  /// The table's states and currencies as text, valid while the walk that
  /// made the view holds its `TableGroupViews`.
  let names: TableGroupViews.Names

  var day: CalendarDay { group.pointee.day }
  var indicator: CreditDebitIndicator { group.pointee.indicator }
  var count: Int { group.pointee.count }

  func writeStateJSON(to scratch: inout ByteScratch, flushingTo out: inout [UInt8]) {
    scratch.write(names.stateJSON(group.pointee.state), flushingTo: &out)
  }

  func appendStateCSV(to out: inout [UInt8]) { out.append(contentsOf: names.stateCSV(group.pointee.state)) }

  /// The totals by the currency's rank. They are few (one or two
  /// currencies): each round picks the least rank above the last one given,
  /// with no array to sort.
  func forEachTotal(_ body: (_ currency: Int, _ amount: ExactDecimal, _ count: Int?) -> Void) {
    // In place, taken before `body` runs: read around `body`, the totals
    // were retained and released per group.
    GroupTotals.withTotals(of: group) { first, others in
      guard let first else { return }
      // The usual group: one currency.
      guard !others.isEmpty else { return body(first.currency, first.sum, first.count) }
      let ranks = names.currencyRanks
      var lastRank = Int.min
      for _ in 0...others.count {
        var least: GroupTotals.Element?
        for position in 0...others.count {
          let total = position == 0 ? first : others[position - 1]
          let rank = ranks[total.currency]
          guard rank > lastRank else { continue }
          if let chosen = least, ranks[chosen.currency] <= rank { continue }
          least = total
        }
        guard let least else { break }
        lastRank = ranks[least.currency]
        body(least.currency, least.sum, least.count)
      }
    }
  }

  func writeCurrencyJSON(_ currency: Int, to scratch: inout ByteScratch, flushingTo out: inout [UInt8]) {
    scratch.write(names.currencyJSON(currency), flushingTo: &out)
  }

  func appendCurrencyCSV(_ currency: Int, to out: inout [UInt8]) {
    out.append(contentsOf: names.currencyCSV(currency))
  }

  func forEachMember(_ body: (GroupMemberText) -> Void) {
    // `members` is a stored property, so the pointer is never `nil`.
    guard members, let heap = group.pointer(to: \.members) else { return }
    MemberHeap.forEachInReportOrder(of: heap) { slot, text in
      let idStart = slot.textStart
      let currencyStart = idStart + slot.idLength
      let descriptionStart = currencyStart + slot.currencyLength
      body(
        GroupMemberText(
          id: UnsafeBufferPointer(rebasing: text[idStart..<currencyStart]),
          description: slot.hasDescription
            ? UnsafeBufferPointer(rebasing: text[descriptionStart..<(descriptionStart + slot.descriptionLength)]) : nil,
          currency: UnsafeBufferPointer(rebasing: text[currencyStart..<descriptionStart]), amount: slot.amount,
          instant: slot.instant,
          together: UnsafeBufferPointer(rebasing: text[idStart..<(descriptionStart + max(0, slot.descriptionLength))])))
    }
  }
}
