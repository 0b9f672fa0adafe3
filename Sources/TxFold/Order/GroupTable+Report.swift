extension GroupTable {
  /// The groups as report values, sectioned and ordered (see `SectionOrder`).
  ///
  /// With `members` false, every group's `transactions` is empty.
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members.
  public func report(stats: RunStats, members: Bool = true) -> GroupReport {
    GroupReport(sections: sections(of: groups.indices, members: members), stats: stats)
  }

  /// The sections of the groups numbered in `selection` (one account's, or all).
  func sections<S: Sequence<Int>>(of selection: S, members: Bool) -> [ReportSection] {
    let stateNames = states.strings.map { String(decoding: $0, as: UTF8.self) }
    let currencyNames = currencies.strings.map { String(decoding: $0, as: UTF8.self) }
    let currencyRanks = Self.byteOrderRanks(currencyNames)
    var values: [TransactionGroup] = []
    values.reserveCapacity(groups.count)
    for index in selection {
      let group = groups[index]
      guard let latest = group.latest else { continue }
      // By the names' UTF-8 bytes: ranks compare as the names do.
      let totals = group.totals
        .sorted { currencyRanks[$0.currency] < currencyRanks[$1.currency] }
        .map { CurrencyTotal(currency: currencyNames[$0.currency], amount: $0.sum, count: $0.count) }
      values.append(
        TransactionGroup(
          state: stateNames[group.state], date: group.day, creditDebitIndicator: group.indicator,
          count: group.count, totals: totals, latest: latest, transactions: members ? group.members.groupMembers() : [])
      )
    }
    return SectionOrder.sections(of: values)
  }

  /// Each name's rank in byte-wise order of its UTF-8 (equal names share a
  /// rank), so that sorting by rank orders as comparing the names would,
  /// without making two arrays per comparison.
  static func byteOrderRanks(_ names: [String]) -> [Int] {
    let keys = names.map { Array($0.utf8) }
    let order = keys.indices.sorted { ByteOrder.precedes(keys[$0], keys[$1]) }
    var ranks = Array(repeating: 0, count: keys.count)
    for (position, index) in order.enumerated() where position > 0 {
      let previous = order[position - 1]
      ranks[index] = ranks[previous] + (keys[previous] == keys[index] ? 0 : 1)
    }
    return ranks
  }
}

extension GroupTable {
  /// One account's report from its groups (indices into `groups`) in a per-account table.
  func accountReport<S: Sequence<Int>>(account: [UInt8], groups: S, members: Bool) -> AccountReport {
    var count = 0
    for index in groups { count += self.groups[index].count }
    return AccountReport(
      account: String(decoding: account, as: UTF8.self), count: count, sections: sections(of: groups, members: members))
  }
}
