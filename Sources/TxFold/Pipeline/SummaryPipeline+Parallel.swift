/// The plain `summary` run on every core: `group`'s chunk pipeline with
/// summary workers.
///
/// The calling thread reads and frames the inputs; `threads` workers
/// (`SummaryChunkFolder`) decode, classify, select and sum each chunk per key
/// and currency straight from its bytes; the calling thread merges the
/// chunks' sums in input order (`SummaryAccumulator.merge`), with their
/// rejections, so keys, cells, rejections and line numbers come out as adding
/// one transaction at a time gives them, whatever the thread count.
///
/// A chunk whose sums would overflow is read again transaction by transaction
/// (`SummaryChunkFolder.replay`, the way `TransactionReader` hands them on),
/// so the run stops at the same transaction, naming the same key, after the
/// same rejections: workers hand chunks back with their results, and a chunk
/// returns to the pool only once its result is applied.
extension SummaryPipeline {
  /// Summarises the inputs `next` opens in order, named `names`, on `options.threads` workers.
  ///
  /// - Complexity: O(input bytes) over the workers, plus O(keys × currencies) per chunk
  ///   on the calling thread; memory O(threads × chunk size + keys).
  func runParallel(names: [String], next: () throws(PipelineError) -> (any ByteSource)?) throws(PipelineError)
    -> DatedSummary
  {
    do throws(TransactionReadError<SumOverflow>) {
      let folded = try foldParallel(read: options.read, names: names, next: next)
      return folded.accumulator.dated(stats: folded.stats)
    } catch {
      throw Self.pipelineError(error)
    }
  }

  /// `--dedupe` with the summary summed in the first pass, which collects
  /// the ids too: when no record repeats (most exports) that pass is the run.
  /// Otherwise a second pass reads only the losers (the others are framed,
  /// not decoded) and takes them out of the sums, and out of the counts per
  /// day that give the winners' first and last day, again; were a cell's
  /// scale then unknown (`SummaryAccumulator.subtract`), or had a sum
  /// overflowed with the losers still in, the winners are summed anew
  /// instead. Not for an incremental run, whose first pass also keeps
  /// tonight's records for the state.
  func runDeduplicating(_ input: QueryInput) throws(PipelineError) -> DatedSummary {
    var sums: SummaryAccumulator?
    let first = try DuplicateFinder.firstPass(try input.runInputs(), settings: dedupeSettings) {
      read, names, partitions, next throws(PipelineError) in
      do throws(TransactionReadError<SumOverflow>) {
        let folded = try foldParallel(read: read, names: names, collecting: partitions, next: next)
        // A sum that overflowed with the losers still in says nothing of the winners' sums.
        if !folded.overflowed { sums = folded.accumulator }
        let report = folded.overflowed ? nil : folded.accumulator.dated(stats: folded.stats)
        return DuplicateFinder.FirstFold(stats: folded.stats, sample: folded.sample, value: report)
      } catch {
        // Overflows are not thrown while collecting (see `foldParallel`): only the input's errors.
        throw Self.pipelineError(error)
      }
    }
    if let folded = first.folded {
      var dated = folded.value
      dated.report.stats = folded.stats
      return dated
    }
    if let sums, let deduplicated = first.read.deduplicated {
      var read = first.read
      read.deduplicated = deduplicated.readingLosers()
      var losers = first.inputs
      do throws(TransactionReadError<SumOverflow>) {
        let taken = try foldParallel(read: read, names: losers.names, subtractingFrom: sums) {
          () throws(PipelineError) in try losers.next()
        }
        if !taken.overflowed {
          var dated = taken.accumulator.dated(stats: taken.stats)
          // Without the counts per day, the first pass's span may end on a loser's day.
          if !options.datesDeduplicated { dated.days = nil }
          return dated
        }
      } catch {
        throw Self.pipelineError(error)
      }
    }
    var again = first.inputs
    return try secondPass(first.read).runParallel(names: again.names) { () throws(PipelineError) in try again.next() }
  }

  private static func pipelineError(_ error: TransactionReadError<SumOverflow>) -> PipelineError {
    switch error {
    case .input(let error): error
    case .body(let error, let file): .totalOverflow(error.found(in: .reading(file)))
    }
  }

  /// What `foldParallel` summed: the sums, the run's stats and rejections,
  /// and, when collecting ids or subtracting, whether a sum overflowed or
  /// could not be taken back out (the sums then stand for nothing).
  private struct ParallelFold {
    var accumulator: SummaryAccumulator
    var stats: RunStats
    var sample: [RecordRejection]
    var overflowed: Bool
  }

  /// Sums the inputs read with `read` (placed in its zone). With
  /// `ids` (`--dedupe`'s first pass) every accepted record's id entry goes
  /// there too, the run is not judged (the first pass does that, once it
  /// knows the duplicates), and an overflow stops the summing instead of the run. With `subtracting` (`read`
  /// reads `--dedupe`'s losers only), the records are taken out of `sums`
  /// (`SummaryAccumulator.subtract`) instead of added.
  private func foldParallel(
    read: ReadOptions, names: [String], collecting ids: IDPartitions? = nil,
    subtractingFrom sums: SummaryAccumulator? = nil, next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(TransactionReadError<SumOverflow>) -> ParallelFold {
    typealias Failure = TransactionReadError<SumOverflow>
    var read = read
    // As `TransactionReader`: records without an id take their position, which only the id
    // filters read; without them no position is counted (a pass over every chunk on this thread).
    // `--dedupe` names records by where they start, which needs no count.
    let readsIDs = options.filter.readsIDs
    read.countPositions = readsIDs
    let workerCount = max(1, options.threads)
    let folders = (0..<workerCount).map {
      SummaryChunkFolder(worker: $0, options: options, read: read, fileNames: names)
    }
    // The calling thread's own decoders, for reading a chunk again while the workers go on.
    let replayer =
      workerCount == 1 ? folders[0] : SummaryChunkFolder(worker: -1, options: options, read: read, fileNames: names)
    if let ids {
      for folder in folders { folder.ids = IDCollector(partitions: ids, workers: workerCount) }
    }
    // Both passes of `--dedupe` count the days, so that the losers' days can be taken out too.
    let countsDays = options.datesDeduplicated && (ids != nil || sums != nil)
    for folder in folders { folder.countsDays = countsDays }
    var overflowed = false
    let filter = options.filter
    let keepsEverything = filter.keepsEverything
    let subtracting = sums != nil
    var accumulator = sums ?? SummaryAccumulator(dimension: options.dimension, zone: filter.zone)
    if ids != nil && countsDays { accumulator = accumulator.countingDays() }
    let run = ChunkRun(
      read: read, names: names, needsPositions: readsIDs, onRejection: onRejection, onProgress: onProgress)
    // Each worker's keys by its numbers, as its deltas name them, and where the accumulator
    // holds each (-1: not looked up yet); its currencies as written, with the accumulator's numbers.
    var workerKeys = [[SummaryAccumulator.Slot]](repeating: [], count: workerCount)
    var workerPositions = [[Int]](repeating: [], count: workerCount)
    var workerCurrencies = [[(number: Int, name: String)]](repeating: [], count: workerCount)
    var contributions: [SummaryAccumulator.Contribution] = []

    func reading<T>(_ step: @autoclosure () throws(PipelineError) -> T) throws(Failure) -> T {
      do throws(PipelineError) {
        return try step()
      } catch {
        throw .input(error)
      }
    }

    /// Applies the next chunk's result in input order: its sums, then its rejections;
    /// or, when its sums would overflow, its records one by one.
    func apply(
      _ result: ChunkResult<SummaryChunkDelta>, chunk: RecordChunk?, accounting: inout ResultAccounting
    ) throws(Failure) {
      guard !overflowed else { return try reading(accounting.apply(result)) }
      let delta = result.output
      let worker = delta.worker
      if worker >= 0 && worker < workerCount {
        workerKeys[worker].append(contentsOf: delta.newKeys)
        for currency in delta.newCurrencies {
          let name = String(decoding: currency, as: UTF8.self)
          workerCurrencies[worker].append((accumulator.currencyNumber(name), name))
        }
      }
      if !delta.overflow {
        let currencies = workerCurrencies[worker]
        contributions.removeAll(keepingCapacity: true)
        for cell in delta.cells {
          let currency = currencies[Int(cell.currency)]
          contributions.append(
            SummaryAccumulator.Contribution(
              key: Int(cell.key), currency: currency.number, name: currency.name, sums: cell.sums))
        }
        if subtracting {
          if !accumulator.subtract(contributions, keys: workerKeys[worker], positions: &workerPositions[worker]) {
            overflowed = true
          }
          accumulator.subtractDays(delta.dayCounts)
          return try reading(accounting.apply(result))
        }
        let merged: Bool
        do throws(SumOverflow) {
          merged = try accumulator.merge(contributions, keys: workerKeys[worker], positions: &workerPositions[worker])
        } catch {
          guard ids == nil else {
            overflowed = true
            return try reading(accounting.apply(result))
          }
          throw .body(error, file: names[result.fileIndex])
        }
        if merged {
          accumulator.addDays(delta.days, counts: delta.dayCounts)
          return try reading(accounting.apply(result))
        }
      }
      if ids != nil || subtracting {
        overflowed = true
        return try reading(accounting.apply(result))
      }
      // Every chunk is handed back with its result, so this does not happen; were
      // it to, the sum still overflows, only the transaction it does at is unknown.
      guard let chunk else { throw .body(SumOverflow(currency: "?", key: nil), file: names[result.fileIndex]) }
      var accepted = 0
      var failure: Failure?
      let lines = replayer.replay(chunk) { event in
        guard failure == nil else { return }
        switch event {
        case .accepted(let transaction):
          accepted += 1
          guard keepsEverything || filter.matches(transaction) else { return }
          do throws(SumOverflow) {
            try accumulator.add(transaction)
          } catch {
            failure = .body(error, file: names[chunk.fileIndex])
          }
        case .rejected(let rejection):
          do throws(PipelineError) {
            try accounting.reject(rejection, fileIndex: chunk.fileIndex)
          } catch {
            failure = .input(error)
          }
        }
      }
      if let failure { throw failure }
      accounting.finishChunk(fileIndex: chunk.fileIndex, accepted: accepted, physicalLines: lines)
    }

    try run.run(
      workers: folders.map { folder in { folder.fold($0) } }, recycling: false, next: next, apply: apply)
    let stats = run.settle()
    do throws(PipelineError) {
      if ids == nil && !subtracting { try run.judge() }
      for folder in folders {
        guard let collector = folder.ids else { continue }
        collector.handOver()
        if let failure = collector.failure { throw .spill(failure) }
      }
    } catch {
      throw .input(error)
    }
    return ParallelFold(accumulator: accumulator, stats: stats, sample: run.accounting.sample, overflowed: overflowed)
  }
}
