extension SummaryReport {
  /// The same summary with its entries in `order`.
  public func sorted(by order: SummaryOrder) -> SummaryReport {
    var copy = self
    switch order {
    case .expense:
      let ranked = TransactionSummary.rankCurrencies(entries)
      copy.entries = entries.sorted { TransactionSummary.precedes($0, $1, ranked: ranked) }
    case .income:
      let ranked = Self.rankByIncome(entries)
      copy.entries = entries.sorted { lhs, rhs in
        for currency in ranked {
          let order = lhs.income(in: currency).compare(rhs.income(in: currency))
          if order != 0 { return order > 0 }
        }
        return Self.keyPrecedes(lhs.key, rhs.key)
      }
    case .count:
      copy.entries = entries.sorted { lhs, rhs in
        lhs.count != rhs.count ? lhs.count > rhs.count : Self.keyPrecedes(lhs.key, rhs.key)
      }
    case .key:
      copy.entries = entries.sorted { Self.keyPrecedes($0.key, $1.key) }
    }
    return copy
  }

  /// Key order: the canonical text byte-wise (days and months
  /// chronologically), the missing key last.
  static func keyPrecedes(_ lhs: SummaryKey, _ rhs: SummaryKey) -> Bool {
    switch (lhs.text, rhs.text) {
    case (nil, _): return false
    case (_, nil): return true
    case (let left?, let right?): return TransactionOrder.compareUTF8(left, right) < 0
    }
  }

  /// Currencies by total income, largest first, ties by code.
  static func rankByIncome(_ entries: [SummaryEntry]) -> [String] {
    var totals: [String: ExactDecimal] = [:]
    for entry in entries {
      for cell in entry.currencies {
        let current = totals[cell.currency] ?? .zero
        // An overflowing grand total only affects the ranking: saturate by keeping the larger.
        totals[cell.currency] = current.adding(cell.income) ?? current
      }
    }
    return totals.sorted { lhs, rhs in
      let order = lhs.value.compare(rhs.value)
      return order != 0 ? order > 0 : TransactionOrder.compareUTF8(lhs.key, rhs.key) < 0
    }.map(\.key)
  }
}

extension SummaryEntry {
  /// The income in `currency` (zero when the key has none in it).
  public func income(in currency: String) -> ExactDecimal {
    currencies.first { $0.currency == currency }?.income ?? .zero
  }
}
