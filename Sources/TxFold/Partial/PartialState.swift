/// A mergeable partial result of `txfold group`: the folded groups before any
/// ordering, the run's accounting and the settings it was folded with
/// (Documentation/Formats.md, "The partial format, version 3").
///
/// `txfold group --emit partial` writes one with `PartialStateWriter`;
/// `txfold merge` reads any number back with `PartialMerger` and renders the
/// merged state's `report()` — byte-identical to one `group` run over the
/// concatenated input, because folding is order-independent: counts and exact
/// totals add, the latest timestamp is a maximum in a total order, and the N
/// members a group keeps are the first N of all its members in a total order,
/// which are among the first N of any part.
///
/// `--dedupe` is refused with partials: which record wins for an id depends on
/// every shard (and, on a tie, on the order of the shards), so a partial would
/// have to carry every id's winner and its position — as large as the input.
///
/// ```swift
/// let merged = PartialState(settings: settings)
/// try merged.merge(partA)
/// try merged.merge(partB)
/// let report = merged.report()
/// ```
public final class PartialState {
  /// The version of the partial format (`txfoldPartial.version` in its header).
  public static let formatVersion = 3

  /// What the state was folded with; states merge only when these are equal.
  package let settings: PartialSettings
  /// The groups.
  @_spi(Benchmarks) public let table: GroupTable
  /// Lines, accepted, rejected (by reason) and duplicates, summed over every
  /// merged part; also the bytes read, for the summary.
  public internal(set) var stats: RunStats
  /// The fingerprints of the inputs folded in that held at least one record,
  /// sorted, each once: a merge refuses a part that shares one, because it
  /// would count that input twice.
  package internal(set) var inputs: [InputFingerprint]

  /// Wraps a folded table, its accounting and the fingerprints of its non-empty inputs.
  package init(
    settings: PartialSettings, table: GroupTable, stats: RunStats, inputs: [InputFingerprint] = []
  ) {
    self.settings = settings
    self.table = table
    self.stats = stats
    self.stats.schema = settings.schema
    self.inputs = Array(Set(inputs)).sorted()
  }

  /// An empty state to merge parts into.
  package convenience init(settings: PartialSettings) {
    self.init(settings: settings, table: GroupTable(memberLimit: settings.memberLimit), stats: RunStats())
  }

  /// Merges another state folded with the same settings into this one.
  ///
  /// - Throws: `PartialStateError.mismatch` when the settings differ (names are
  ///   `"(this)"` and `"(other)"`), `.duplicateInput` when both were folded
  ///   from a same non-empty input, `.overflow` when a count or total overflows.
  /// - Complexity: O(groups + kept members of `other`).
  public func merge(_ other: PartialState) throws(PartialStateError) {
    if let difference = other.settings.difference(from: settings) {
      throw .mismatch(
        setting: difference.setting, file: "(other)", line: 1, value: difference.mine, referenceFile: "(this)",
        referenceLine: 1, referenceValue: difference.theirs)
    }
    if let shared = other.inputs.first(where: { Set(inputs).contains($0) }) {
      throw .duplicateInput(
        file: "(other)", line: 1, referenceFile: "(this)", referenceLine: 1, input: shared.description)
    }
    inputs = Array(Set(inputs).union(other.inputs)).sorted()
    do throws(PartialGroup.MergeError) {
      try other.table.forEachPartialGroup { (group) throws(PartialGroup.MergeError) in try table.merge(group) }
    } catch {
      throw .overflow(what: error.what)
    }
    try add(stats: other.stats)
  }

  /// Adds fingerprints of inputs merged in (already checked not to be here).
  func add(inputs other: [InputFingerprint]) {
    inputs = Array(Set(inputs).union(other)).sorted()
  }

  /// Adds a part's accounting.
  func add(stats other: RunStats) throws(PartialStateError) {
    try stats.add(other)
  }
}

extension RunStats {
  /// Adds a part's accounting: counts checked for overflow, bytes saturating.
  mutating func add(_ other: RunStats) throws(PartialStateError) {
    func sum(_ lhs: Int, _ rhs: Int, _ name: String) throws(PartialStateError) -> Int {
      let (value, overflow) = lhs.addingReportingOverflow(rhs)
      if overflow { throw .overflow(what: "The number of \(name)") }
      return value
    }
    lines = try sum(lines, other.lines, "lines")
    accepted = try sum(accepted, other.accepted, "accepted records")
    rejected = try sum(rejected, other.rejected, "rejected records")
    duplicates = try sum(duplicates, other.duplicates, "duplicates")
    for (reason, count) in other.rejectedByReason {
      rejectedByReason[reason] = try sum(rejectedByReason[reason, default: 0], count, reason.code)
    }
    // Bytes only feed the summary; saturate rather than fail.
    bytesRead = bytesRead.addingReportingOverflow(other.bytesRead).overflow ? .max : bytesRead + other.bytesRead
    bytesDecoded =
      bytesDecoded.addingReportingOverflow(other.bytesDecoded).overflow ? .max : bytesDecoded + other.bytesDecoded
  }
}
