/// Everything `txfold summary` can be told, as a validated value for the library.
public struct SummaryOptions: Sendable {
  /// How records are read.
  public var read = ReadOptions()
  /// What the summary groups on.
  public var dimension = SummaryDimension.category
  /// Which transactions count (and the zone of their days and months).
  public var filter = TransactionFilter()
  /// One transaction per id, the latest; holds each id's latest transaction
  /// in memory until the end.
  public var dedupe = false

  /// Creates the defaults of `txfold summary`.
  public init() {}
}
