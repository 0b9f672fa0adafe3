import Foundation

/// Everything `txfold summary` can be told, as a validated value for the library.
public struct SummaryOptions: Sendable {
  /// How records are read.
  public var read = ReadOptions()
  /// Worker threads that decode, filter and sum (not under `dedupe`, which
  /// reads on the calling thread); 1 runs everything on the calling thread.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// What the summary groups on.
  public var dimension = SummaryDimension.category
  /// Which transactions count. Its `zone` is `read.zone`, the run's one zone: reading it
  /// gives `read.zone`, and a filter set with a zone sets `read.zone` (one without leaves it).
  public var filter: TransactionFilter {
    get { read.dating(selection) }
    set {
      selection = newValue
      read.takeZone(of: newValue)
    }
  }
  /// The filter as set; its zone is `read.zone`'s (`filter`).
  private var selection = TransactionFilter()
  /// One transaction per id, the latest; holds each id's latest transaction
  /// in memory until the end.
  public var dedupe = false
  /// Per-account runs (`SummaryPipeline.runPerAccount`): the sort's
  /// in-memory budget in estimated bytes; past it, sorted runs spill to
  /// temporary files (default 512 MiB).
  public var memoryLimit = 512 << 20
  /// Where a per-account run's spill directory goes (default `$TMPDIR`, else `/tmp`).
  public var temporaryDirectory: String?
  /// The most sorted runs a per-account run merges at once.
  public var maxFanIn = 64
  /// Whether `--dedupe` gives the winners' first and last day (`DatedSummary.days`, which an
  /// `html` summary names as its period): both passes then count the records of each day, a
  /// look-up per record that no other output needs. Without it a deduplicated run names no days.
  package var datesDeduplicated = false

  /// Creates the defaults of `txfold summary`.
  public init() {}
}
