extension GroupTable {
  /// Adds a group given as values (as read from a partial state) into this table.
  ///
  /// The same as `merge(_:)` for one group: the count and totals add, the
  /// latest timestamp is the later one in the total order, and the members are
  /// offered again, so merging partials in any order gives the table one run
  /// over all their input would have.
  ///
  /// - Throws: `PartialGroup.MergeError` when the count or a total overflows;
  ///   the table is then partly updated and should be dropped.
  /// - Complexity: O(currencies + m log N) for m members and member limit N.
  public func merge(_ group: PartialGroup) throws(PartialGroup.MergeError) {
    let state = states.intern(group.state)
    let target = groupIndex(state: state, day: group.day, indicator: group.indicator)
    let (count, countOverflow) = groups[target].count.addingReportingOverflow(group.count)
    guard !countOverflow else {
      throw .countOverflow(state: String(decoding: states.strings[state], as: UTF8.self), date: group.day.description)
    }
    groups[target].count = count
    if let current = groups[target].latest {
      if group.latest.compareTotal(current) > 0 { groups[target].latest = group.latest }
    } else {
      groups[target].latest = group.latest
    }
    for total in group.totals {
      let currency = currencies.intern(total.currency)
      guard groups[target].addTotal(total.sum, currency: currency, count: total.count) else {
        throw .totalOverflow(
          state: String(decoding: states.strings[state], as: UTF8.self), date: group.day.description,
          currency: String(decoding: total.currency, as: UTF8.self))
      }
    }
    for member in group.members { groups[target].members.offer(member) }
  }

  /// Calls `body` with every group as values, ordered by state (byte-wise),
  /// day and indicator, members in report order: the order of a partial
  /// state, which is therefore the same on every run and thread count.
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members.
  public func forEachPartialGroup<E: Error>(_ body: (PartialGroup) throws(E) -> Void) throws(E) {
    try forEachPartialGroup(of: groups.indices, body)
  }

  /// `forEachPartialGroup(_:)` over the groups numbered in `selection` (one account's).
  func forEachPartialGroup<E: Error, S: Sequence<Int>>(
    of selection: S, _ body: (PartialGroup) throws(E) -> Void
  ) throws(E) {
    let order = selection.filter { groups[$0].latest != nil }.sorted { lhs, rhs in
      let left = groups[lhs]
      let right = groups[rhs]
      if left.state != right.state {
        return states.strings[left.state].lexicographicallyPrecedes(states.strings[right.state])
      }
      if left.day != right.day { return left.day < right.day }
      return left.indicator.rawValue < right.indicator.rawValue
    }
    for index in order {
      let group = groups[index]
      guard let latest = group.latest else { continue }
      let totals = group.totals
        .map { PartialGroup.Total(currency: currencies.strings[$0.currency], sum: $0.sum, count: $0.count) }
        .sorted { $0.currency.lexicographicallyPrecedes($1.currency) }
      try body(
        PartialGroup(
          state: states.strings[group.state], day: group.day, indicator: group.indicator, count: group.count,
          totals: totals, latest: latest, members: group.members.sorted()))
    }
  }
}
