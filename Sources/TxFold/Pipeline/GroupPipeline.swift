import Foundation

/// How far a run has got, for a progress line.
public struct PipelineProgress: Sendable {
  /// Stored (possibly compressed) bytes read so far, all inputs together.
  public var storedBytesRead: Int64
  /// The stored size of all inputs when every one is a regular file.
  public var storedBytesTotal: Int64?
  /// Bytes of JSON read so far after decompression (equal to `storedBytesRead`
  /// for plain input): how much work a gzip input has turned out to be.
  public var decodedBytesRead: Int64 = 0
  /// Records (accepted and rejected) whose chunks were applied so far, in
  /// input order: a little behind the bytes read while workers decode.
  public var recordsRead: Int = 0
  /// Whether this is a later read of the inputs — `--dedupe`'s, once the
  /// first read found each transaction's latest version, or a nightly run's
  /// fold of tonight's state — whose counts start again from zero. Such a
  /// read reports once as it starts, with nothing read yet, so that a rate
  /// can be timed from its start.
  public var secondRead = false
}

/// The streaming `group` job: inputs → line framing → decode and fold on
/// worker threads → merge → ordered report.
///
/// The calling thread reads (and inflates) the inputs and cuts them into
/// chunks of whole lines; `threads` workers decode and fold chunks into their
/// own tables; results come back out of order and are applied in input order,
/// so rejections are reported in order and line numbers are exact. A fixed
/// pool of chunks bounds memory: the reader waits when all are in use.
/// Tables are merged at the end; since folding is order-independent, every
/// thread count gives the same report.
public final class GroupPipeline: DeduplicatingJob {
  /// The options every run of this pipeline uses.
  public let options: GroupOptions
  /// Called on the calling thread for every rejected record, in input order.
  public var onRejection: ((RecordRejection) throws -> Void)?
  /// Called on the calling thread after each chunk is read, and as a later read begins
  /// (`PipelineProgress.secondRead`).
  public var onProgress: ((PipelineProgress) -> Void)?
  /// Called with the path of the private temporary directory a per-account
  /// run makes when its fold first goes to disk (so a signal handler can remove it).
  public var onTemporaryDirectory: ((String) -> Void)?

  /// Creates a pipeline; nothing is read until a `run`.
  public init(options: GroupOptions) {
    self.options = options.dedupingNightly()
  }

  /// Runs the job over files (`-` is standard input), in order, as one stream of records.
  ///
  /// Every input is checked to open before any is read, so a missing file
  /// fails the run at once.
  /// - Complexity: O(input bytes); memory O(groups × members + threads × chunk size).
  public func run(paths: [String]) throws(PipelineError) -> GroupReport {
    try run(inputs: try RunInputs(paths: paths))
  }

  /// Runs the job over already opened sources, in order.
  ///
  /// `InputOpener` makes a source from bytes or `Data` in memory (a downloaded body) or from an
  /// open descriptor, detecting gzip and zstd as for a file:
  /// `run(sources: [try InputOpener.open(data: body, name: "download")])`.
  public func run(sources: [any ByteSource]) throws(PipelineError) -> GroupReport {
    try run(inputs: RunInputs(sources: sources))
  }

  func run(inputs: RunInputs) throws(PipelineError) -> GroupReport {
    try checkedFold(inputs: inputs).report
  }

  /// Folds `inputs` and checks the run's accounting; with `dedupe`, the
  /// first pass folds too, and when no record repeats it is the only one.
  func checkedFold(inputs: RunInputs) throws(PipelineError) -> FoldedGroups {
    guard options.dedupe else {
      var inputs = inputs
      return try checkedFold(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
    }
    // An incremental run's first pass reads tonight's records only: the fold is the second pass's.
    guard options.read.nightly == nil else {
      let (pipeline, again) = try deduplicating(inputs)
      // One report over every account: its groups are not split by account (nor are `--dedupe`'s).
      var report = pipeline.options
      report.read.accounts = .none
      report.sortedByAccount = false
      let second = GroupPipeline(options: report)
      second.onProgress = onProgress
      return try second.checkedFold(inputs: again)
    }
    return try foldDeduplicating(inputs)
  }

  /// `--dedupe` with the groups folded in the first pass, which collects the
  /// ids too: when no record repeats (most exports) that pass is the run.
  /// Otherwise a second pass reads only the losers (the others are framed,
  /// not decoded), folds them into a table of their own and takes that out of
  /// the first pass's (`GroupTable.retract`); were some group's result then
  /// unknown, or had a total overflowed with the losers still in, the
  /// winners are folded anew instead.
  func foldDeduplicating(_ inputs: RunInputs) throws(PipelineError) -> FoldedGroups {
    let reported = options.reportMembers ? options.memberLimit : 0
    var retractable = options
    retractable.dedupe = false
    retractable.threads = max(1, options.threads)
    retractable.memberLimit = reported
    retractable.retractable = true
    var firstFold: (table: GroupTable, selected: Int?)?
    let first = try DuplicateFinder.firstPass(inputs, settings: dedupeSettings) {
      read, names, partitions, next throws(PipelineError) in
      retractable.read = read
      let pipeline = GroupPipeline(options: retractable)
      pipeline.onRejection = onRejection
      pipeline.onProgress = onProgress
      let folded = try pipeline.fold(names: names, collecting: partitions, foldingToo: true, next: next)
      var stats = folded.stats
      if options.filter.keepsEverything { stats.selected = nil }
      // A total that overflowed with the losers still in says nothing of the winners' totals.
      if !folded.overflowed { firstFold = (folded.table, stats.selected) }
      return DuplicateFinder.FirstFold(
        stats: stats, sample: folded.sample, value: folded.overflowed ? nil : folded.table)
    }
    let threads = max(1, options.threads)
    if let folded = first.folded {
      folded.value.trimMembers(to: reported)
      return FoldedGroups(table: folded.value, stats: folded.stats, members: options.reportMembers, threads: threads)
    }
    if let firstFold, let deduplicated = first.read.deduplicated {
      retractable.read = first.read
      retractable.read.deduplicated = deduplicated.readingLosers()
      let pipeline = GroupPipeline(options: retractable)
      pipeline.onProgress = onProgress
      var losers = first.inputs
      let taken = try pipeline.fold(names: losers.names, overflowFails: false) { () throws(PipelineError) in
        try losers.next()
      }
      if !taken.overflowed, firstFold.table.retract(taken.table, reportingMembers: reported) {
        var stats = taken.stats
        if let selected = firstFold.selected { stats.selected = selected - (taken.stats.selected ?? 0) }
        return FoldedGroups(table: firstFold.table, stats: stats, members: options.reportMembers, threads: threads)
      }
    }
    var again = first.inputs
    return try secondPass(first.read).checkedFold(names: again.names) { () throws(PipelineError) in
      try again.next()
    }
  }

  /// The first pass reads with the run's own read options.
  var firstPassRead: ReadOptions { options.read }

  /// With `dedupe`, reads `inputs` once to find each transaction's latest
  /// version (`DuplicateFinder`) and returns the pipeline and inputs of the
  /// second pass, which folds only those; without, `self` and `inputs`.
  func deduplicating(_ inputs: RunInputs) throws(PipelineError) -> (GroupPipeline, RunInputs) {
    guard options.dedupe else { return (self, inputs) }
    let first = try DuplicateFinder.firstPass(inputs, settings: dedupeSettings)
    guard options.read.nightly != nil else { return (secondPass(first.read), first.inputs) }
    // An incremental run's second pass reads tonight's state, which is in account order.
    var second = options
    second.dedupe = false
    second.read = first.read
    second.sortedByAccount = options.read.accounts != .none
    let pipeline = GroupPipeline(options: second)
    pipeline.onProgress = onProgress
    pipeline.onTemporaryDirectory = onTemporaryDirectory
    return (pipeline, first.inputs)
  }

  /// Runs the job over files (`-` is standard input), in order, as one
  /// stream of records, as ``run(paths:)`` does, and hands back the fold
  /// itself: ``FoldedGroups/render(format:options:flush:)`` writes its report
  /// without building a ``GroupReport`` first.
  public func fold(paths: [String]) throws(PipelineError) -> FoldedGroups {
    try checkedFold(inputs: try RunInputs(paths: paths))
  }

  /// Folds every input and checks the run's accounting (nothing accepted, `--max-reject-rate`, `--min-accepted`).
  func checkedFold(
    names: [String], next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> FoldedGroups {
    let folded = try fold(names: names, fingerprinting: false, next: next)
    try options.read.judge(folded.stats, sample: folded.sample)
    return FoldedGroups(
      table: folded.table, stats: folded.stats, members: options.reportMembers, threads: max(1, options.threads))
  }

  /// Reads and folds every input: the merged table and the run's accounting,
  /// before any ordering (`report(stats:)` orders; `--emit partial` writes it as is).
  /// With `fingerprinting`, also the fingerprints of the inputs that held a record
  /// (hashed in this, the reader's, thread, a block at a time), sorted, each once.
  /// `tables` says where the workers' tables go (per account: `runPerAccount`).
  func fold(
    names: [String], fingerprinting: Bool = false, tables: ChunkTables = .merged,
    collecting ids: IDPartitions? = nil, foldingToo: Bool = false,
    overflowFails: Bool = true, next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> (
    table: GroupTable, stats: RunStats, sample: [RecordRejection], inputs: [InputFingerprint], overflowed: Bool
  ) {
    let workerCount = max(1, options.threads)
    let folders = (0..<workerCount).map { _ in ChunkFolder(options: options, fileNames: names, tables: tables) }
    // Workers whose tables are merged at the end share floors on their members, so that none
    // keeps a record that others already hold enough newer ones for (`MemberFloors.swift`).
    if case .merged = tables, ids == nil,
      let floors = SharedMemberFloors(workers: workerCount, memberLimit: options.memberLimit)
    {
      for (worker, folder) in folders.enumerated() { folder.table.shareFloors(floors, worker: worker) }
    }
    if let ids {
      for folder in folders {
        folder.ids = IDCollector(partitions: ids, workers: workerCount)
        folder.foldsCollected = foldingToo
      }
    }
    let run = ChunkRun(
      read: options.read, names: names, fingerprinting: fingerprinting, onRejection: onRejection,
      onProgress: onProgress)
    let workers = folders.map { folder in { folder.fold($0) } }
    if case .handedOn(let stage) = tables {
      try run.run(workers: workers, next: next) { (result, _, accounting) throws(PipelineError) in
        try stage.apply(result, to: &accounting)
      }
    } else {
      try run.run(workers: workers, next: next)
    }
    for folder in folders { folder.table.stopSharingFloors() }
    let accounting = run.accounting
    // With `collecting ids` and `foldingToo`, the fold is only a candidate for the run's (`--dedupe`).
    let overflowFails = overflowFails && !(ids != nil && foldingToo)
    if accounting.overflow && overflowFails {
      throw overflowError(folders.map(\.table), file: accounting.overflowFile.map { names[$0] })
    }
    var overflowed = accounting.overflow

    for folder in folders {
      guard let collector = folder.ids else { continue }
      collector.handOver()
      if let failure = collector.failure { throw .spill(failure) }
    }
    let table = folders[0].table
    if case .accountRuns(let store, _) = tables, store.runCount > 0 {
      // Some tables went to disk: the rest follow, and the runs are merged account by account.
      for folder in folders where folder.table.groupCount > 0 {
        do throws(AccountRunFailure) {
          try store.spill(folder.table, refilling: false)
        } catch {
          throw PipelineError(error)
        }
      }
    } else if !overflowed {
      for folder in folders.dropFirst() where !table.merge(folder.table) {
        if overflowFails { throw overflowError([table]) }
        overflowed = true
        break
      }
    }
    let stats = run.settle(countingSelected: !options.filter.keepsEverything)
    // An input without records adds nothing, and the same empty input may come in twice.
    let fingerprints = run.fingerprints
    let inputs = fingerprints.indices.filter { accounting.records(inFile: $0) > 0 }.map { fingerprints[$0] }
    let sample = options.read.deduplicated?.sample ?? accounting.sample
    return (table, stats, sample, Array(Set(inputs)).sorted(), overflowed)
  }

  /// Names the group whose total overflowed first, and the input being read then
  /// (`nil`: found when the workers' tables were added up).
  func overflowError(_ tables: [GroupTable], file: String? = nil) -> PipelineError {
    let found = tables.lazy.compactMap(\.overflow).first
    return .sumOverflow(
      state: found?.state ?? "?", date: found?.date ?? "?", currency: found?.currency ?? "?", file: file)
  }
}
