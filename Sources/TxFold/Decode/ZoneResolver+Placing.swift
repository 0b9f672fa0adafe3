extension ZoneResolver {
  /// The day `instant` belongs to in this zone (the date as written when the
  /// resolver has no zone). The instant itself is not changed.
  ///
  /// Safe to ask of an instant already placed with `placed(_:)`: an offset-less
  /// timestamp's day is its written date either way.
  @inlinable
  package func day(of instant: Timestamp) -> CalendarDay {
    var copy = instant
    return resolve(&copy)
  }

  /// The day a list taken in this zone shows `transaction` on: the day a list dated it on
  /// already when it carries one (`Transaction.date`, a decoded or listed transaction), else
  /// its instant's day here.
  package func day(of transaction: Transaction) -> CalendarDay {
    transaction.listedDay ?? day(of: transaction.instant)
  }

  /// `transaction` carrying the day a list taken in this zone shows it on (`Transaction.date`),
  /// as a zoned list hands its transactions out; unchanged when the resolver has no zone.
  package func dating(_ transaction: Transaction) -> Transaction {
    guard zone != nil, transaction.listedDay == nil else { return transaction }
    var dated = transaction
    dated.date = day(of: transaction.instant)
    return dated
  }

  /// `instant` with an offset-less time placed in this zone (it is read as UTC
  /// otherwise), so "most recent" compares what the zone means. Timestamps
  /// with an offset, and every timestamp when the resolver has no zone, come
  /// back unchanged. Apply it once: placing twice shifts an offset-less time twice.
  @inlinable
  package func placed(_ instant: Timestamp) -> Timestamp {
    guard zone != nil, !instant.hasOffset else { return instant }
    var copy = instant
    _ = resolve(&copy)
    return copy
  }
}
