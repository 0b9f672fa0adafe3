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
