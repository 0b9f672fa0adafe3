import Foundation

/// Everything `txfold list` can be told, as a validated value for the library.
public struct ListOptions: Sendable {
  /// How records are read.
  public var read = ReadOptions()
  /// Which transactions are kept. Its `zone` is `read.zone`, the run's one zone: reading it
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
  /// One transaction per id, the latest (needs memory per distinct id).
  public var dedupe = false
  /// Which part of the sorted list is shown.
  public var page = PageRequest.all
  /// The sort's in-memory budget in estimated bytes; past it, sorted runs
  /// spill to temporary files (default 256 MiB).
  public var memoryLimit = 256 << 20
  /// Worker threads that decode, filter, render and sort (`csv`, `json` and
  /// `jsonl` lists without `dedupe` in the command-line tool); 1 runs them on
  /// the calling thread. The output is the same for any count.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Where the spill directory goes (default `$TMPDIR`, else `/tmp`).
  public var temporaryDirectory: String?
  /// The most sorted runs merged at once.
  public var maxFanIn = 64

  /// Creates the defaults of `txfold list`.
  public init() {}
}
