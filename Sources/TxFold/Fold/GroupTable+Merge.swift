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
      if let overflowing = groups[target].absorb(source, currencyMap: currencyMap) {
        return noteOverflow(group: target, currency: overflowing)
      }
    }
    if let reserve, let theirs = other.reserve {
      for (number, source) in other.groups.enumerated() {
        let key = Self.packKey(state: stateMap[source.state], day: source.day, indicator: source.indicator)
        reserve.absorb(theirs, group: number, into: index.find(key), currencyMap: currencyMap)
      }
    }
    checkInvariantsIfEnabled()
    return true
  }
}

extension GroupAccumulator {
  /// Adds `source` (a group of another table, whose currency numbers
  /// `currencyMap` translates): counts and totals add, the latest is the
  /// later one, members are offered again. Returns the (mapped) currency
  /// whose total overflowed, `nil` when none did.
  mutating func absorb(_ source: GroupAccumulator, currencyMap: [Int]) -> Int? {
    count += source.count
    if let latest = source.latest {
      if let current = self.latest {
        if latest.compareTotal(current) > 0 { self.latest = latest }
      } else {
        self.latest = latest
      }
    }
    for total in source.totals {
      let currency = currencyMap[total.currency]
      guard addTotal(total.sum, currency: currency, count: total.count) else { return currency }
    }
    members.offerMembers(of: source.members)
    return nil
  }
}
