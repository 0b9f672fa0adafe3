import Foundation

/// The worker threads of a pipeline run and the queues between them and the reader.
///
/// A fixed pool of `2 × workers + 2` chunks circulates: reader → `work` queue
/// → a worker → back to the pool, with the worker's result on the `results`
/// queue. The pool's size is what bounds memory and gives back-pressure.
///
/// Without `recycling` (the summary's workers), a worker hands its chunk back
/// with the result (`Finished.chunk`) instead of to the pool: the reader
/// returns it (`giveBack`) once the result is applied in input order, so a
/// chunk whose sums would overflow can still be read again record by record.
/// The reader then waits on results, not on the pool (`takeFreeChunk(applying:)`).
/// A chunk then stays out until every chunk before it is applied, so one
/// worker held up (preempted, or on a slow chunk) holds up the chunks the
/// others finish meanwhile: such a crew gets `4 × workers + 2` chunks, so
/// the reader keeps framing through such a wait.
final class WorkerCrew<Output: Sendable>: Sendable {
  /// A worker's result, with its chunk when the crew does not recycle chunks itself.
  typealias Finished = (result: ChunkResult<Output>, chunk: RecordChunk?)
  private let freeChunks = BlockingQueue<RecordChunk>()
  private let work = BlockingQueue<RecordChunk>()
  private let results = BlockingQueue<Finished>()
  private let finished = DispatchGroup()
  /// Set once the reader is seen inflating its input (`submit(_:readerInflating:)`).
  private let inflating = CancellationFlag()
  /// How far a worker lowers its priority while the reader inflates.
  static var inflatingWorkerNiceness: Int32 { 5 }

  /// Starts one thread per `workers` element, each folding chunks with it
  /// (a closure over that worker's own state, used by its thread only).
  init(workers: [(RecordChunk) -> ChunkResult<Output>], chunkCapacity: Int, recycling: Bool) {
    for _ in 0..<((recycling ? 2 : 4) * workers.count + 2) { freeChunks.push(RecordChunk(capacity: chunkCapacity)) }
    for worker in workers {
      // The fold (and the state it closes over) is this thread's alone until the crew has finished.
      let fold = HandOff(worker)
      finished.enter()
      let thread = Thread { [work, freeChunks, results, finished, inflating] in
        var yielded = false
        while let chunk = work.pop() {
          if !yielded && inflating.isSet {
            // The reader, inflating gzip on its own thread, is the run's
            // bottleneck: with three busy threads on two cores, the scheduler
            // gave it two thirds of a core. Lowered, the workers run on what
            // it leaves (`submit(_:readerInflating:)`).
            yielded = true
            _ = SystemCalls.lowerCallingThreadPriority(by: Self.inflatingWorkerNiceness)
          }
          let result = fold.value(chunk)
          if recycling {
            freeChunks.push(chunk)
            results.push((result, nil))
          } else {
            results.push((result, chunk))
          }
        }
        finished.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// A chunk to fill, waiting until a worker returns one.
  func takeFreeChunk() -> RecordChunk {
    // The pool never runs dry for good: every submitted chunk comes back. It is never
    // closed, so `pop` waits instead of returning `nil`.
    guard let chunk = freeChunks.pop() else { preconditionFailure("the free-chunk pool is never closed") }
    return chunk
  }

  /// A chunk to fill when the workers hand chunks back with their results:
  /// while the pool is empty, waits for the next result and gives it to
  /// `apply` (which returns chunks to the pool once results are applied in
  /// order). Every chunk outside the pool and the framer is being folded or
  /// holds a result, so a result always comes.
  func takeFreeChunk<Failure: Error>(applying apply: (Finished) throws(Failure) -> Void) throws(Failure)
    -> RecordChunk
  {
    while true {
      if let chunk = freeChunks.tryPop() { return chunk }
      guard let result = results.pop() else { preconditionFailure("the result queue is never closed") }
      try apply(result)
    }
  }

  /// The next result, waiting for it when `waiting`; `nil` when none is ready.
  func nextResult(waiting: Bool) -> Finished? {
    waiting ? results.pop() : results.tryPop()
  }

  /// Returns a chunk that was taken and not filled, or whose result was applied.
  func giveBack(_ chunk: RecordChunk) { freeChunks.push(chunk) }

  /// Hands a filled chunk to the workers; `readerInflating` says the reader
  /// is inflating its input (`CountingSource.inflates`): from then on, and
  /// from their next chunk, the workers run at a lower priority (Linux's
  /// per-thread nice value, `inflatingWorkerNiceness` steps), so that the
  /// reader's thread, which alone inflates, keeps a core whenever it has
  /// work. Workers are threads of this run, so their priority ends with it;
  /// the reader's own thread (the caller's) is never changed.
  func submit(_ chunk: RecordChunk, readerInflating: Bool = false) {
    if readerInflating && !inflating.isSet { inflating.raise() }
    work.push(chunk)
  }

  /// No more chunks will be submitted (closing twice is harmless).
  func closeSubmissions() {
    work.close()
  }

  /// Stops the workers and waits for them (also after an error).
  func finish() {
    closeSubmissions()
    finished.wait()
  }
}
