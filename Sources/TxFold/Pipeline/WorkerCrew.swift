import Foundation

/// The worker threads of a pipeline run and the queues between them and the reader.
///
/// A fixed pool of `2 × workers + 2` chunks circulates: reader → `work` queue
/// → a worker → back to the pool, with the worker's result on the `results`
/// queue. The pool's size is what bounds memory and gives back-pressure.
final class WorkerCrew: @unchecked Sendable {
  private let freeChunks = BlockingQueue<RecordChunk>()
  private let work = BlockingQueue<RecordChunk>()
  private let results = BlockingQueue<ChunkResult>()
  private let finished = DispatchGroup()
  private var closed = false

  init(folders: [ChunkFolder], chunkCapacity: Int) {
    for _ in 0..<(2 * folders.count + 2) { freeChunks.push(RecordChunk(capacity: chunkCapacity)) }
    for folder in folders {
      let box = FolderBox(folder)
      finished.enter()
      let thread = Thread { [work, freeChunks, results, finished] in
        while let chunk = work.pop() {
          let result = box.folder.fold(chunk)
          freeChunks.push(chunk)
          results.push(result)
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

  /// Returns a chunk that was taken and not filled.
  func giveBack(_ chunk: RecordChunk) { freeChunks.push(chunk) }

  /// Hands a filled chunk to the workers.
  func submit(_ chunk: RecordChunk) { work.push(chunk) }

  /// No more chunks will be submitted.
  func closeSubmissions() {
    if !closed {
      closed = true
      work.close()
    }
  }

  /// Applies the results that are ready; with `waiting`, waits until every
  /// chunk before `until` has been applied.
  func drainResults(into accounting: inout ResultAccounting, waiting: Bool, until: Int = 0) throws(PipelineError) {
    if waiting {
      while accounting.nextSequence < until, let result = results.pop() { try accounting.accept(result) }
    } else {
      while let result = results.tryPop() { try accounting.accept(result) }
    }
  }

  /// Stops the workers and waits for them (also after an error).
  func finish() {
    closeSubmissions()
    finished.wait()
  }
}

/// Carries a worker's folder into its thread; only that thread uses it until
/// the crew has finished.
private final class FolderBox: @unchecked Sendable {
  let folder: ChunkFolder
  init(_ folder: ChunkFolder) { self.folder = folder }
}
