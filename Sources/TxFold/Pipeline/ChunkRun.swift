/// One run of the chunk pipeline, whatever its job: the one driving loop
/// that `group`, the parallel `list`, `summary` and `TransactionReader` share.
///
/// It owns what every job did alike: framing the inputs (`InputFramer`), the
/// schema choice, the workers and the chunks they circulate (`WorkerCrew`,
/// `ChunkPool`), the chunks' sequence numbers and putting results back in
/// input order, counting (and, when asked, fingerprinting) the bytes read,
/// progress, the stats and the end-of-run judgement. A job brings only its
/// workers, one `(RecordChunk) -> ChunkResult<Output>` closure each over
/// that worker's own state, and how to apply a result in input order (its
/// sink): `ResultAccounting.apply` for `group` and `list`, merging sums for
/// `summary`, handing tables on for input sorted by account. `Output` is
/// what the job's workers hand on with a chunk (`ChunkResult`). The
/// per-record work stays inside the workers; the run adds a closure call
/// per chunk, nothing per record.
///
/// With more than one worker, the calling thread reads and frames while a
/// crew folds; results come back in any order and are applied in input
/// order, so rejections, line numbers and `--strict` stops are the same for
/// every thread count. With one worker the chunk is folded and applied on
/// the calling thread as soon as it is framed. Without workers (`read`) the
/// job reads each chunk itself (`TransactionReader`, which hands records on
/// as it decodes them).
///
/// Without `recycling` (the summary's crew) a worker hands its chunk back
/// with its result, and `apply` receives it: the chunk returns to the pool
/// only once its result is applied, so a chunk whose sums overflow can be
/// read again record by record.
final class ChunkRun {
  /// The run's read options (the job's, as it reads them).
  let read: ReadOptions
  /// The inputs' names, for messages; a single input's size is the progress total.
  let names: [String]
  let framer: InputFramer
  /// Counts, line numbers and rejections, applied in input order: the job's
  /// `apply` gets it, and may set it up before the run (`sorted`, `fileNames`).
  var accounting: ResultAccounting
  /// Bytes read and decoded so far; the schema and the counts once settled (`settle`).
  private(set) var stats = RunStats()
  /// With `fingerprinting`, each input's fingerprint, in input order.
  private(set) var fingerprints: [InputFingerprint] = []
  private var schemas: SchemaChoice
  private let fingerprinting: Bool
  private let onProgress: ((PipelineProgress) -> Void)?

  /// - Parameters:
  ///   - needsPositions: `false` when no record's position is read (`SchemaChoice`).
  ///   - fingerprinting: hash every input (in this, the reader's, thread) for `fingerprints`.
  init(
    read: ReadOptions, names: [String], needsPositions: Bool = true, fingerprinting: Bool = false,
    onRejection: ((RecordRejection) throws -> Void)?, onProgress: ((PipelineProgress) -> Void)?
  ) {
    self.read = read
    self.names = names
    framer = InputFramer(
      limits: read.limits, itemsPath: read.itemsPath, allowTrailingCommas: read.allowTrailingCommas,
      lengthPrefixed: read.readsStatePayloads)
    accounting = ResultAccounting(options: read, onRejection: onRejection)
    accounting.fileNames = names
    schemas = SchemaChoice(options: read, needsPositions: needsPositions)
    self.fingerprinting = fingerprinting
    self.onProgress = onProgress
  }

  /// Reads every input `next` opens, in order, as one stream of chunks
  /// folded by `workers`, and applies each result with `apply`, in input
  /// order, on the calling thread. `apply` gets the chunk too when it has it
  /// (one worker, or a crew without `recycling`); it must not keep it.
  ///
  /// - Complexity: O(input bytes); memory O(workers × chunk size) for the chunks.
  func run<Output, Failure: ChunkRunFailure>(
    workers: [(RecordChunk) -> ChunkResult<Output>], recycling: Bool = true,
    next: () throws(PipelineError) -> (any ByteSource)?,
    apply: (_ result: ChunkResult<Output>, _ chunk: RecordChunk?, _ accounting: inout ResultAccounting) throws(Failure)
      -> Void
  ) throws(Failure) {
    precondition(!workers.isEmpty, "a run folds with at least one worker")
    let first = workers[0]
    try drive(workers: workers, recycling: recycling, next: next, apply: apply) {
      (chunk, accounting) throws(Failure) in try apply(first(chunk), chunk, &accounting)
    }
  }

  /// `run` for a job whose results need only accounting (`group`, `list`):
  /// what the workers fold stays with them until the end.
  func run<Output>(
    workers: [(RecordChunk) -> ChunkResult<Output>], next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) {
    try run(workers: workers, next: next) { (result, _, accounting) throws(PipelineError) in
      try accounting.apply(result)
    }
  }

  /// Reads every input `next` opens, in order, as one stream of chunks, and
  /// hands each to `read` on the calling thread as soon as it is framed,
  /// without workers (`TransactionReader`, which hands records on as it decodes them).
  func read<Failure: ChunkRunFailure>(
    next: () throws(PipelineError) -> (any ByteSource)?,
    _ read: (_ chunk: RecordChunk, _ accounting: inout ResultAccounting) throws(Failure) -> Void
  ) throws(Failure) {
    let noWorkers: [(RecordChunk) -> ChunkResult<Void>] = []
    try drive(workers: noWorkers, recycling: true, next: next, apply: { (_, _, _) throws(Failure) in }, inline: read)
  }

  /// The loop `run` and `read` share. With more than one worker, a crew
  /// folds and `apply` takes the results in input order; otherwise `inline`
  /// takes each chunk as it is framed.
  private func drive<Output, Failure: ChunkRunFailure>(
    workers: [(RecordChunk) -> ChunkResult<Output>], recycling: Bool,
    next: () throws(PipelineError) -> (any ByteSource)?,
    apply: (_ result: ChunkResult<Output>, _ chunk: RecordChunk?, _ accounting: inout ResultAccounting) throws(Failure)
      -> Void,
    inline: (_ chunk: RecordChunk, _ accounting: inout ResultAccounting) throws(Failure) -> Void
  ) throws(Failure) {
    let framer = framer
    let crew: WorkerCrew<Output>? =
      workers.count > 1
      ? WorkerCrew(workers: workers, chunkCapacity: framer.chunkCapacity, recycling: recycling) : nil
    defer { crew?.finish() }
    let pool = ChunkPool(crew: crew, chunkCapacity: framer.chunkCapacity)
    var sequence = 0
    // Results that arrived before an earlier chunk's, and the next one to apply.
    var waiting: [Int: WorkerCrew<Output>.Finished] = [:]
    var nextSequence = 0

    func accept(_ finished: WorkerCrew<Output>.Finished) throws(Failure) {
      waiting[finished.result.sequence] = finished
      while let ready = waiting.removeValue(forKey: nextSequence) {
        nextSequence += 1
        defer { if let crew, let chunk = ready.chunk { crew.giveBack(chunk) } }
        try apply(ready.result, ready.chunk, &accounting)
      }
    }

    /// Applies the results that are ready; with `end`, waits until every chunk before it is applied.
    func drain(until end: Int? = nil) throws(Failure) {
      guard let crew else { return }
      if let end {
        while nextSequence < end, let finished = crew.nextResult(waiting: true) { try accept(finished) }
      } else {
        while let finished = crew.nextResult(waiting: false) { try accept(finished) }
      }
    }

    func nextSource() throws(Failure) -> (any ByteSource)? {
      do throws(PipelineError) {
        return try next()
      } catch {
        throw .reading(error)
      }
    }

    func nextChunk() throws(Failure) -> RecordChunk {
      let chunk = try pool.next { (crew: WorkerCrew<Output>) throws(Failure) -> RecordChunk in
        // Without recycling, chunks come back only as results are applied: apply them while waiting.
        recycling ? crew.takeFreeChunk() : try crew.takeFreeChunk(applying: accept)
      }
      try drain()
      return chunk
    }

    let secondRead = read.deduplicated != nil || read.readsStatePayloads
    // A later read's counts start again from zero: said as it starts, so that a progress
    // line times its rate and ETA from here, not from the first read's start.
    if secondRead { onProgress?(PipelineProgress(storedBytesRead: 0, storedBytesTotal: nil, secondRead: true)) }
    var fileIndex = 0
    while let source = try nextSource() {
      let counting = CountingSource(source, hashing: fingerprinting)
      let totalSize = names.count == 1 ? source.storedSize : nil
      schemas.startInput()
      let outcome = try Self.statingFailure(of: source) { () throws(Failure) in
        try framer.frame(
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
            try inline(chunk, &accounting)
          }
          onProgress?(
            PipelineProgress(
              storedBytesRead: stats.bytesRead + source.storedBytesRead, storedBytesTotal: totalSize,
              decodedBytesRead: stats.bytesDecoded + counting.count, recordsRead: accounting.records,
              secondRead: secondRead))
        }
      }
      schemas.finishInput(wrapper: outcome.wrapper)
      pool.finishInput()
      stats.bytesRead += source.storedBytesRead
      stats.bytesDecoded += counting.count
      if fingerprinting { fingerprints.append(counting.hasher.fingerprint) }
      fileIndex += 1
    }
    if let crew {
      crew.closeSubmissions()
      try drain(until: sequence)
    }
  }

  /// `body`'s result; when it fails reading a nightly run's state (`StateSource`), the state's own
  /// failure (damage: 65, `PipelineError.state`) instead of the read error the source reported.
  private static func statingFailure<Result, Failure: ChunkRunFailure>(
    of source: any ByteSource, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    do {
      return try body()
    } catch {
      if let failure = (source as? StateSource)?.failure { throw .reading(failure) }
      throw error
    }
  }

  /// The run's stats once every chunk is applied: the schema, the counts and
  /// their hints (`ResultAccounting.settle`); with `countingSelected`, the
  /// records the selection kept (without dedupe).
  @discardableResult
  func settle(countingSelected: Bool = false) -> RunStats {
    stats.schema = schemas.summary
    if countingSelected { stats.selected = accounting.selected }
    accounting.settle(&stats, read: read)
    return stats
  }

  /// Judges the settled run as a whole (`ReadOptions.judge`: nothing
  /// accepted, the reject rate, too few accepted) on its first rejections.
  func judge() throws(PipelineError) {
    try read.judge(stats, sample: accounting.sample)
  }
}

/// The error a chunk run's job throws. The run's own failures (an input,
/// `--strict`, `--max-rejects`, the rejection callback: a `PipelineError`)
/// become one, so a job whose `apply` fails in its own way (a summary's
/// sum, a reader's consumer) still throws one typed error.
protocol ChunkRunFailure: FramingFailure {
  static func reading(_ error: PipelineError) -> Self
}

extension PipelineError: ChunkRunFailure {
  static func reading(_ error: PipelineError) -> PipelineError { error }
}

extension TransactionReadError: ChunkRunFailure {
  static func reading(_ error: PipelineError) -> TransactionReadError { .input(error) }
}

/// Counts the bytes a source hands out (the decompressed size for gzip) and,
/// when asked, hashes them for the input's fingerprint.
final class CountingSource: WrappingSource {
  let source: any ByteSource
  var count: Int64 = 0
  let hashing: Bool
  var hasher = InputHasher()
  init(_ source: any ByteSource, hashing: Bool = false) {
    self.source = source
    self.hashing = hashing
  }
  /// Whether more bytes came out than were taken from storage: the reader is
  /// inflating (`WorkerCrew.submit(_:readerInflating:)`).
  var inflates: Bool { count > source.storedBytesRead }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let read = try source.read(into: buffer)
    count += Int64(read)
    if hashing { hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<read])) }
    return read
  }
}
