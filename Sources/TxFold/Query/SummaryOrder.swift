/// How a summary's entries are ordered (`txfold summary --sort`).
///
/// Every order ends with the key, so it is total and equal input gives equal
/// output.
public enum SummaryOrder: String, Sendable, CaseIterable {
  /// By key: days and months chronologically, text byte-wise, the missing key last.
  case key
  /// By absolute expense, largest first, currencies ranked by their total
  /// absolute expense (the order `TransactionSummary` documents).
  case expense
  /// By income, largest first, currencies ranked by their total income.
  case income
  /// By number of transactions, most first.
  case count

  /// The order a dimension shows by default: time keys (`day`, `month`) by
  /// key, so a period reads as a timeline; the others by expense.
  public static func defaultOrder(for dimension: SummaryDimension) -> SummaryOrder {
    switch dimension {
    case .day, .week, .month, .year: return .key
    default: return .expense
    }
  }
}
