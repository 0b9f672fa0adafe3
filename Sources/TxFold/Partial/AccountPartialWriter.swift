/// Writes a per-account partial (Documentation/Formats.md, "Per-account
/// partials"): a `txfoldAccountPartial` header, one block per account in
/// byte-wise order of the ids (`AccountBlocks`), then a `stats` line that
/// also counts the accounts.
///
/// The caller hands the accounts over in order; the writer counts them and
/// their groups for the `stats` line.
struct AccountPartialWriter {
  /// The version a `txfoldAccountPartial` header carries; a reader refuses any other.
  static let formatVersion = 2

  private var out: [UInt8] = []
  private var accounts = 0
  private var groups = 0

  init() { out.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4) }

  /// The header: the settings shards must share, the inputs' fingerprints and
  /// where accounts were taken from (`field` or `file name`).
  mutating func begin(settings: PartialSettings, inputs: [InputFingerprint], accounts source: String) {
    PartialStateWriter.appendHeader(settings, inputs: inputs, accounts: source, to: &out)
  }

  /// One account's block: its groups in `table` (indices in partial order).
  mutating func write<E: Error, S: Collection<Int>>(
    account: [UInt8], table: GroupTable, groups indices: S, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    accounts += 1
    groups += indices.count
    try AccountBlocks.appendBlock(account: account, table: table, groups: ArraySlice(indices), to: &out, flush: flush)
  }

  /// The `stats` line, and the last bytes to `flush`.
  mutating func finish<E: Error>(stats: RunStats, flush: (inout [UInt8]) throws(E) -> Void) throws(E) {
    PartialStateWriter.appendStats(stats, groups: groups, accounts: accounts, to: &out)
    try flush(&out)
    out.removeAll(keepingCapacity: true)
  }
}
