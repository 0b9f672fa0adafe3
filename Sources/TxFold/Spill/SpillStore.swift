import Foundation

/// The runs a job spills, and the files they live in: the one place that
/// makes spill files, holds them, and keeps their number within the
/// descriptors.
///
/// The directory is made on the first file, with `SpillDirectory`'s
/// guarantees: private (0700), registered (`register`, with SIGINT and SIGTERM
/// blocked) for removal on an interrupt, every file opened exclusively and
/// unlinked at once, so nothing is left behind on any exit. Workers spill at
/// the same time, each to a file of its own, so the store is shared.
///
/// Each run held is an open descriptor. When an `add` brings the store to
/// `openRunLimit` runs, the smallest half is merged into one by the job's
/// merge before the caller goes on: merging the smallest keeps the runs'
/// sizes apart by about the fan-in, as a binary counter's digits are, so each
/// entry is rewritten a logarithmic number of times (merging the newest would
/// merge the growing result of the last pass again at every pass, a quadratic
/// cost). One pass runs at a time, so the descriptors held stay within the
/// limit: the half being merged, and one per worker spilling meanwhile.
final class SpillStore: Sendable {
  private struct State {
    var directory: SpillDirectory?
    var runs: [(rank: Int, file: SpillFile)] = []
    var filesMade = 0
    let register: (String) -> Void
  }

  private let state: LockedValue<State>
  private let merging = NSLock()
  /// Where the directory is made.
  let temporaryParent: String
  /// The most runs held at once; past it the smallest half is merged into one.
  let openRunLimit: Int

  init(
    temporaryParent: String?, openRunLimit: Int = SpillDirectory.openRunLimit,
    register: @escaping (String) -> Void
  ) {
    self.temporaryParent = temporaryParent ?? SpillDirectory.defaultParent
    self.openRunLimit = max(4, openRunLimit)
    state = LockedValue(State(register: register))
  }

  /// Files made so far, the merge passes' included: the runs a job reports as spilled.
  var filesMade: Int { state.withLock { $0.filesMade } }

  /// A new file, already unlinked, open for writing and reading; the first makes the directory.
  func makeFile() throws(SpillError) -> SpillFile {
    try state.withLock { (state) throws(SpillError) -> SpillFile in
      state.filesMade += 1
      if let directory = state.directory { return try directory.makeFile() }
      let created = try SpillDirectory(parent: temporaryParent, register: state.register)
      state.directory = created
      return try created.makeFile()
    }
  }

  /// Holds `run`, a finished file; then, when the store holds `openRunLimit`
  /// runs, merges the smallest half into one with `merge` (which must write a
  /// new file of the store's). Which runs merge never changes what the job
  /// reads back: its entries are totally ordered, or (per-account blocks)
  /// merge the same in any grouping.
  ///
  /// - Parameter rank: where the run comes in `takeRuns()`, lower first (equal
  ///   ranks in the order added), so that a job whose workers spill at the same
  ///   time can hand its runs back in the same order on every run of the
  ///   program; a merged run takes the lowest rank of those it replaces.
  func add<Failure: Error>(
    _ run: SpillFile, rank: Int = .max, merging merge: ([SpillFile]) throws(Failure) -> SpillFile
  ) throws(Failure) {
    state.withLock { $0.runs.append((rank, run)) }
    merging.lock()
    defer { merging.unlock() }
    let batch = state.withLock { (state) -> [(rank: Int, file: SpillFile)] in
      guard state.runs.count >= openRunLimit else { return [] }
      let chosen = Self.smallest(openRunLimit / 2, of: state.runs.map(\.file.size))
      let taken = chosen.map { state.runs[$0] }
      for index in chosen.reversed() { state.runs.remove(at: index) }
      return taken
    }
    guard let rank = batch.map(\.rank).min() else { return }
    let merged = try merge(batch.map(\.file))
    state.withLock { $0.runs.append((rank, merged)) }
  }

  /// The positions of the `count` smallest of `sizes`, in ascending order of position.
  static func smallest(_ count: Int, of sizes: [Int64]) -> [Int] {
    let chosen = sizes.indices.sorted { (sizes[$0], $0) < (sizes[$1], $1) }.prefix(count)
    return chosen.sorted()
  }

  /// Takes the runs held, by rank (after every worker has stopped).
  func takeRuns() -> [SpillFile] {
    state.withLock { (state) -> [SpillFile] in
      // A stable sort: equal ranks stay in the order added.
      let taken = state.runs.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
      state.runs.removeAll()
      return taken.map(\.element.file)
    }
  }

  /// `takeRuns()`, merging the first `fanIn` into one with `merge`, again and
  /// again, until at most `count` are left: the final merge then reads a
  /// bounded number at once.
  func takeRuns<Failure: Error>(
    mergingDownTo count: Int, fanIn: Int, with merge: ([SpillFile]) throws(Failure) -> SpillFile
  ) throws(Failure) -> [SpillFile] {
    var runs = takeRuns()
    while runs.count > max(1, count) {
      let batch = Array(runs.prefix(max(2, fanIn)))
      runs.removeFirst(batch.count)
      runs.append(try merge(batch))
    }
    return runs
  }

  /// Drops the runs held and removes the (empty) directory, if one was made;
  /// the files still being read go when their readers do.
  func remove() {
    state.withLock {
      $0.runs.removeAll()
      $0.directory?.remove()
    }
  }
}
