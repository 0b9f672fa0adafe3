extension GroupTable {
  /// The groups as report values, sectioned and ordered (see `SectionOrder`).
  ///
  /// - Complexity: O(g log g + m log m) for g groups and m kept members.
  public func report(stats: RunStats) -> GroupReport {
    let stateNames = states.strings.map { String(decoding: $0, as: UTF8.self) }
    let currencyNames = currencies.strings.map { String(decoding: $0, as: UTF8.self) }
    var values: [TransactionGroup] = []
    values.reserveCapacity(groups.count)
    for group in groups {
      guard let latest = group.latest else { continue }
      let totals = group.totals
        .map { CurrencyTotal(currency: currencyNames[$0.currency], amount: $0.sum) }
        .sorted { Array($0.currency.utf8).lexicographicallyPrecedes(Array($1.currency.utf8)) }
      values.append(
        TransactionGroup(
          state: stateNames[group.state], date: group.day, creditDebitIndicator: group.indicator,
          count: group.count, totals: totals, latest: latest,
          transactions: group.members.sorted().map(\.groupMember)))
    }
    return GroupReport(sections: SectionOrder.sections(of: values), stats: stats)
  }
}
