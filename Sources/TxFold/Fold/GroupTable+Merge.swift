extension GroupTable {
  /// Adds every group of `other` (a table filled by another worker) into this one.
  ///
  /// Counts and totals add, the latest timestamp is the later one, and members
  /// are offered again, so the result is the same as one table folding both
  /// inputs, in any order.
  ///
  /// - Returns: `false` when a currency total would overflow 128 bits.
  /// - Complexity: O(groups + kept members of `other`).
  public func merge(_ other: GroupTable) -> Bool {
    let stateMap = other.states.strings.map { states.intern($0) }
    let currencyMap = other.currencies.strings.map { currencies.intern($0) }
    let accountMap = perAccount ? other.accounts.strings.map { UInt32(accounts.intern($0)) } : []
    for source in other.groups {
      if perAccount { setAccount(number: accountMap[Int(source.account)]) }
      let target = groupIndex(state: stateMap[source.state], day: source.day, indicator: source.indicator)
      groups[target].count += source.count
      if let latest = source.latest {
        if let current = groups[target].latest {
          if latest.compareTotal(current) > 0 { groups[target].latest = latest }
        } else {
          groups[target].latest = latest
        }
      }
      for total in source.totals {
        guard groups[target].addTotal(total.sum, currency: currencyMap[total.currency], count: total.count) else {
          return noteOverflow(group: target, currency: currencyMap[total.currency])
        }
      }
      source.members.forEachMember { groups[target].members.offer($0) }
    }
    return true
  }
}
