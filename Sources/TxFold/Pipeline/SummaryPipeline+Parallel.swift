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
  /// Whether `run` takes the parallel path: not with `dedupe` (each id's
  /// latest transaction is held until the end, on one thread), nor when the
  /// read options name a zone the filter does not (a library-only setting:
  /// the decoder's days would then not be the summary's).
  var foldsInParallel: Bool {
    return options.read.placing(in: options.filter.zone).zone.zone == options.filter.zone.zone
  }

  /// Summarises the inputs `next` opens in order, named `names`, on `options.threads` workers.
  ///
  /// - Complexity: O(input bytes) over the workers, plus O(keys × currencies) per chunk
  ///   on the calling thread; memory O(threads × chunk size + keys).
  func runParallel(names: [String], next: () throws(PipelineError) -> (any ByteSource)?) throws(PipelineError)
    -> SummaryReport
  {
    do throws(TransactionReadError<SumOverflow>) {
      return try foldParallel(names: names, next: next)
    } catch {
      switch error {
      case .input(let error): throw error
      case .body(let error): throw .totalOverflow(error)
      }
    }
  }

  private func foldParallel(names: [String], next: () throws(PipelineError) -> (any ByteSource)?)
    throws(TransactionReadError<SumOverflow>) -> SummaryReport
  {
    typealias Failure = TransactionReadError<SumOverflow>
    var read = options.read.placing(in: options.filter.zone)
    // As `TransactionReader`: records without an id take their position, which only the id
    // filters read; without them no position is counted (a pass over every chunk on this thread).
    // The second pass of `--dedupe` leaves out records by their position.
    let readsIDs = options.filter.readsIDs || read.deduplicated != nil
    read.countPositions = readsIDs
    let framer = InputFramer(
      limits: read.limits, itemsPath: read.itemsPath, allowTrailingCommas: read.allowTrailingCommas)
    let workerCount = max(1, options.threads)
    let folders = (0..<workerCount).map {
      SummaryChunkFolder(worker: $0, options: options, read: read, fileNames: names)
    }
    // The calling thread's own decoders, for reading a chunk again while the workers go on.
    let replayer =
      workerCount == 1 ? folders[0] : SummaryChunkFolder(worker: -1, options: options, read: read, fileNames: names)
    let filter = options.filter
    let keepsEverything = filter.keepsEverything
    var accounting = ResultAccounting(options: read, onRejection: onRejection)
    var accumulator = SummaryAccumulator(dimension: options.dimension, zone: filter.zone)
    var schemas = SchemaChoice(options: read, needsPositions: readsIDs)
    var stats = RunStats()
    // Each worker's keys by its numbers, as its deltas name them, and where the accumulator
    // holds each (-1: not looked up yet); its currencies as written, with the accumulator's numbers.
    var workerKeys = [[SummaryAccumulator.Slot]](repeating: [], count: workerCount)
    var workerPositions = [[Int]](repeating: [], count: workerCount)
    var workerCurrencies = [[(number: Int, name: String)]](repeating: [], count: workerCount)
    var contributions: [SummaryAccumulator.Contribution] = []
    var pending: [Int: ChunkResult] = [:]
    var nextSequence = 0

    let crew: WorkerCrew? =
      workerCount > 1
      ? WorkerCrew(
        workers: folders.map { folder in { folder.fold($0) } }, chunkCapacity: framer.chunkCapacity,
        recycling: false)
      : nil
    defer { crew?.finish() }
    let pool = ChunkPool(crew: crew, chunkCapacity: framer.chunkCapacity)
    var sequence = 0

    func reading<T>(_ step: @autoclosure () throws(PipelineError) -> T) throws(Failure) -> T {
      do throws(PipelineError) {
        return try step()
      } catch {
        throw .input(error)
      }
    }

    /// Applies the next chunk's result in input order: its sums, then its rejections;
    /// or, when its sums would overflow, its records one by one.
    func apply(_ result: ChunkResult, chunk: RecordChunk?) throws(Failure) {
      defer { if let crew, let chunk { crew.giveBack(chunk) } }
      guard let delta = result.summary else { return try reading(accounting.apply(result)) }
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
              key: Int(cell.key), currency: currency.number, name: currency.name, count: cell.count,
              income: cell.income, expense: cell.expense))
        }
        let merged: Bool
        do throws(SumOverflow) {
          merged = try accumulator.merge(contributions, keys: workerKeys[worker], positions: &workerPositions[worker])
        } catch {
          throw .body(error)
        }
        if merged { return try reading(accounting.apply(result)) }
      }
      // Every chunk is handed back with its result, so this does not happen; were
      // it to, the sum still overflows, only the transaction it does at is unknown.
      guard let chunk else { throw .body(SumOverflow(currency: "?", key: nil)) }
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
            failure = .body(error)
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

    /// Takes results in any order and applies every one that is now next.
    func accept(_ result: ChunkResult) throws(Failure) {
      pending[result.sequence] = result
      while var ready = pending.removeValue(forKey: nextSequence) {
        nextSequence += 1
        let chunk = ready.chunk
        ready.chunk = nil
        try apply(ready, chunk: chunk)
      }
    }

    func drain(until: Int? = nil) throws(Failure) {
      guard let crew else { return }
      if let until {
        while nextSequence < until, let result = crew.nextResult(waiting: true) { try accept(result) }
      } else {
        while let result = crew.nextResult(waiting: false) { try accept(result) }
      }
    }

    func nextChunk() throws(Failure) -> RecordChunk {
      let chunk = try pool.next { (crew: WorkerCrew) throws(Failure) -> RecordChunk in
        try crew.takeFreeChunk(applying: accept)
      }
      try drain()
      return chunk
    }

    var fileIndex = 0
    while let source = try reading(next()) {
      let counting = CountingSource(source)
      let totalSize = names.count == 1 ? source.storedSize : nil
      schemas.startInput()
      let outcome = try framer.frame(
        counting, fileIndex: fileIndex, firstChunk: try nextChunk(), nextChunk: nextChunk
      ) { (chunk: RecordChunk, wrapper: RecordWrapper?) throws(Failure) -> Void in
        schemas.stamp(chunk, wrapper: wrapper)
        chunk.sequence = sequence
        sequence += 1
        if crew != nil {
          pool.submit(chunk, readerInflating: counting.inflates)
          try drain()
        } else {
          nextSequence += 1
          try apply(folders[0].fold(chunk), chunk: chunk)
        }
        onProgress?(
          PipelineProgress(
            storedBytesRead: stats.bytesRead + source.storedBytesRead, storedBytesTotal: totalSize,
            decodedBytesRead: stats.bytesDecoded + counting.count, recordsRead: accounting.records))
      }
      schemas.finishInput(wrapper: outcome.wrapper)
      pool.finishInput()
      stats.bytesRead += source.storedBytesRead
      stats.bytesDecoded += counting.count
      fileIndex += 1
    }
    if crew != nil {
      crew?.closeSubmissions()
      try drain(until: sequence)
    }
    stats.schema = schemas.summary
    accounting.settle(&stats, read: read)
    do throws(PipelineError) {
      try read.judge(stats, sample: accounting.sample)
    } catch {
      throw .input(error)
    }
    return accumulator.report(stats: stats)
  }
}
