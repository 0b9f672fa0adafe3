/// The kind of wrapper document an input's records were found in, which
/// tells the schema choice what the records probably are when no record of
/// the input decides it (an input whose records are all rejected, or none).
///
/// Framing names what it saw; which schema that suggests is the schema
/// choice's business (`SchemaChoice`), not the framer's.
enum RecordWrapper: Sendable, Equatable {
  /// A top-level `items` array (PAYBACK's export).
  case items
  /// A top-level `transactions` array (Swile's export).
  case transactions
  /// `transactions.booked` / `transactions.pending` arrays, or an `--items`
  /// path ending in `booked` / `pending` (a PSD2 account report).
  case bookedOrPending
}
