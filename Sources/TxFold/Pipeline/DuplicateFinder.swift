import Foundation

/// Runs the first pass of `--dedupe` (see `Deduplicated`).
enum DuplicateFinder {
  /// What the first pass needs of the run.
  struct Settings {
    var read: ReadOptions
    var threads: Int
    var memoryLimit: Int
    var temporaryDirectory: String?
    var onTemporaryDirectory: ((String) -> Void)?
    var onRejection: ((RecordRejection) throws -> Void)?
    var onProgress: ((PipelineProgress) -> Void)?
  }

  /// What the first pass found.
  struct FirstPass<Folded> {
    /// The inputs to read again.
    var inputs: RunInputs
    /// The read options of the second pass, which leave out the losers.
    var read: ReadOptions
    /// When the job folded in the first pass and no record lost: its result,
    /// which needs no second pass, with the run's stats.
    var folded: (value: Folded, stats: RunStats, sample: [RecordRejection])?
  }

  /// What a job's fold in the first pass hands back: the run's stats and
  /// rejections, and the job's own result (`nil` when it only collected ids,
  /// or its result cannot stand for the run's, as when a sum overflowed
  /// with the losers still in it).
  struct FirstFold<Folded> {
    var stats: RunStats
    var sample: [RecordRejection]
    var value: Folded?
  }

  /// Reads `inputs` once, reporting rejections and judging the run as any
  /// run does, and finds the losers; only the ids are collected (the jobs
  /// that fold in this pass too call `firstPass(_:settings:fold:)`).
  static func firstPass(_ inputs: RunInputs, settings: Settings) throws(PipelineError) -> FirstPass<Never> {
    var options = GroupOptions()
    options.threads = max(1, settings.threads)
    options.reportMembers = false
    return try firstPass(inputs, settings: settings) { read, names, partitions, next throws(PipelineError) in
      options.read = read
      let pipeline = GroupPipeline(options: options)
      pipeline.onRejection = settings.onRejection
      pipeline.onProgress = settings.onProgress
      let folded = try pipeline.fold(names: names, collecting: partitions, next: next)
      var stats = folded.stats
      if options.filter.keepsEverything { stats.selected = nil }
      return FirstFold(stats: stats, sample: folded.sample, value: nil)
    }
  }

  /// Reads `inputs` once through `fold`, which gets the first pass's read
  /// options, the inputs' names, the id table to fill
  /// and the inputs (copied where they cannot be read twice); judges the
  /// run as any run does and finds the losers. When `fold` hands back a
  /// result and no record lost, that result is the run's: no second pass.
  static func firstPass<Folded>(
    _ inputs: RunInputs, settings: Settings,
    fold: (
      _ read: ReadOptions, _ names: [String], _ partitions: IDPartitions,
      _ next: () throws(PipelineError) -> (any ByteSource)?
    ) throws(PipelineError) -> FirstFold<Folded>
  ) throws(PipelineError) -> FirstPass<Folded> {
    // A record's place is where it starts in its input (`RecordFraming.offset`): nothing is counted for it.
    var read = settings.read
    let register = settings.onTemporaryDirectory ?? { _ in }
    // Half the budget for entries; sorting a partition needs its share again.
    let partitions = IDPartitions(
      budget: max(1, settings.memoryLimit / 2), temporaryParent: settings.temporaryDirectory, nightly: read.nightly,
      register: register)
    // Tonight's records for the state: a quarter of the budget in memory, then sorted runs on disk.
    read.nightly?.prepare(
      budget: max(1, settings.memoryLimit / 4), temporaryParent: settings.temporaryDirectory, register: register)
    defer { partitions.remove() }
    let inputs = read.nightly?.prepending(to: inputs) ?? inputs
    guard inputs.names.count <= Deduplicated.maxInputs else {
      throw .invalidOptions(
        "dedupe reads at most \(Deduplicated.maxInputs) inputs a run (last night's state counts as one); this run has \(inputs.names.count)."
      )
    }
    let copies = InputCopies(
      paths: inputs.paths, temporaryParent: settings.temporaryDirectory, register: register)
    var first = inputs
    let folded = try fold(read, inputs.names, partitions) { () throws(PipelineError) in
      guard let source = try first.next() else { return nil }
      return try copies.keep(source)
    }
    try copies.finish()
    // An incremental run's previous state: its ids from the file, at places before tonight's inputs —
    // read once tonight's are known, so that only the keys tonight's inputs hold too are entered.
    try read.nightly?.addPreviousEntries(
      to: partitions, read: read, filter: partitions.tonightKeyFilter(), threaded: settings.threads > 1)
    var losers: [UInt64] = []
    let spilled = partitions.spilled
    do throws(SpillError) {
      losers = try findLosers(partitions, threads: max(1, settings.threads))
    } catch {
      throw .spill(error)
    }
    // The id entries are judged and freed: their pages go back before the second pass, whose
    // threads would otherwise take new ones from other arenas (`MemoryRelease`).
    MemoryRelease.trim()
    var stats = folded.stats
    let selected = stats.selected
    stats.duplicates = losers.count
    stats.selected = nil
    if let nightly = read.nightly {
      if let failure = nightly.failure { throw .spill(failure) }
      // The thresholds judge tonight's export (an empty or broken night must fail), not the history.
      try read.judge(stats, sample: folded.sample)
      nightly.losers = losers
      nightly.settle(&stats)
      // Known before any account is written: the per-account cursors skip the unchanged ones.
      try nightly.findChangedAccounts()
      // The second pass reads tonight's state: each transaction once, in account order.
      let deduplicated = Deduplicated(losers: [], stats: stats, sample: folded.sample, spilled: spilled)
      return FirstPass(
        inputs: nightly.secondPassInputs(stats: stats), read: nightly.secondPassRead(read, deduplicated: deduplicated),
        folded: nil)
    } else {
      try read.judge(stats, sample: folded.sample)
    }
    if let value = folded.value, losers.isEmpty {
      stats.selected = selected
      return FirstPass(inputs: copies.secondPass(of: inputs), read: read, folded: (value, stats, folded.sample))
    }
    read.deduplicated = Deduplicated(losers: losers, stats: stats, sample: folded.sample, spilled: spilled)
    return FirstPass(inputs: copies.secondPass(of: inputs), read: read, folded: nil)
  }

  /// Judges every partition (on up to `threads` threads) and returns all losers, ascending.
  /// A partition larger than `sortLimit` bytes (by default a share of the
  /// budget per thread) is split before it is judged.
  static func findLosers(_ partitions: IDPartitions, threads: Int, sortLimit: Int? = nil) throws(SpillError)
    -> [UInt64]
  {
    let count = IDPartitions.partitionCount
    // Judging holds a set's bytes and about 17 bytes per entry (its offset, two 4-byte table slots, a
    // flag): entries are 32 bytes and more, so under twice its bytes.
    // At most 2^35 bytes: fewer than 2^30 entries, which the judging table numbers in 32 bits.
    let limit = min(sortLimit ?? max(1 << 20, partitions.budget / (3 * max(1, threads))), 1 << 35)
    let lock = NSLock()
    var found: [[UInt64]] = Array(repeating: [], count: count)
    var failure: SpillError?
    nonisolated(unsafe) let work = { (partition: Int) in
      do throws(SpillError) {
        var losers: [UInt64] = []
        try partitions.appendLosers(of: partitions.take(partition: partition), sortLimit: limit, to: &losers)
        lock.withLock { found[partition] = losers }
      } catch {
        lock.withLock { failure = failure ?? error }
      }
    }
    if threads > 1 {
      let nextPartition = LockedValue(0)
      DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
        while true {
          let partition = nextPartition.withLock { (next) -> Int in
            defer { next += 1 }
            return next
          }
          guard partition < count else { return }
          work(partition)
        }
      }
    } else {
      for partition in 0..<count { work(partition) }
    }
    if let failure { throw failure }
    var all: [UInt64] = []
    all.reserveCapacity(found.reduce(0) { $0 + $1.count })
    for losers in found { all.append(contentsOf: losers) }
    return sortedPlaces(all)
  }

  /// `places` in ascending order, by a radix sort of 11 bits a pass over only the bits the
  /// largest uses (a place is an offset, with the input's index above bit 44): `sort()`'s
  /// comparisons cost about 250 instructions a place.
  static func sortedPlaces(_ places: [UInt64]) -> [UInt64] {
    guard places.count > 64, let largest = places.max() else { return places.sorted() }
    let bits = 11
    let radix = 1 << bits
    let passes = (UInt64.bitWidth - largest.leadingZeroBitCount + bits - 1) / bits
    var from = places
    var to = [UInt64](repeating: 0, count: places.count)
    var counts = [Int](repeating: 0, count: radix)
    for pass in 0..<passes {
      let shift = UInt64(pass * bits)
      let mask = UInt64(radix - 1)
      from.withUnsafeBufferPointer { from in
        to.withUnsafeMutableBufferPointer { to in
          counts.withUnsafeMutableBufferPointer { counts in
            for index in 0..<radix { counts[index] = 0 }
            for value in from { counts[Int(truncatingIfNeeded: (value >> shift) & mask)] += 1 }
            var start = 0
            for index in 0..<radix {
              let count = counts[index]
              counts[index] = start
              start += count
            }
            for value in from {
              let digit = Int(truncatingIfNeeded: (value >> shift) & mask)
              to[counts[digit]] = value
              counts[digit] += 1
            }
          }
        }
      }
      swap(&from, &to)
    }
    return from
  }
}
