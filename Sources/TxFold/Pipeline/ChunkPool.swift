/// The chunks a pipeline's framer fills, shared by the group, summary and list pipelines.
///
/// With a crew, chunks come from the crew's free pool and go to its workers. A framer may
/// end an input without handing over the chunk it was filling (the input ended on a
/// newline, or was empty): that chunk is kept for the next input rather than lost, or the
/// pool would run dry after a few inputs (`finishInput`). On one thread, two chunks
/// alternate: the framer fills one while it still holds the other, whose tail it copies,
/// and each is folded before it is handed out again.
final class ChunkPool<Output: Sendable> {
  /// The workers, or `nil` when the pipeline folds on the calling thread.
  let crew: WorkerCrew<Output>?
  private let inlineChunks: [RecordChunk]
  private var inlineTurn = 0
  /// The crew's chunks the framer has taken and not yet handed over.
  private var held: [RecordChunk] = []
  /// A chunk the last input took and did not hand over, for the next input.
  private var spare: RecordChunk?

  init(crew: WorkerCrew<Output>?, chunkCapacity: Int) {
    self.crew = crew
    inlineChunks =
      crew == nil ? [RecordChunk(capacity: chunkCapacity), RecordChunk(capacity: chunkCapacity)] : []
    held.reserveCapacity(4)
  }

  /// The next chunk to fill: with a crew, the one the last input left, else one of the crew's
  /// free chunks (`takeFree`, which may apply results while it waits for one).
  func next<Failure: Error>(takeFree: (WorkerCrew<Output>) throws(Failure) -> RecordChunk) throws(Failure)
    -> RecordChunk
  {
    guard let crew else {
      inlineTurn ^= 1
      return inlineChunks[inlineTurn]
    }
    let chunk: RecordChunk
    if let kept = spare {
      spare = nil
      chunk = kept
    } else {
      chunk = try takeFree(crew)
    }
    held.append(chunk)
    return chunk
  }

  /// Hands `chunk` to the crew's workers.
  func submit(_ chunk: RecordChunk, readerInflating: Bool) {
    guard let crew else { return }
    held.removeAll { $0 === chunk }
    crew.submit(chunk, readerInflating: readerInflating)
  }

  /// At the end of an input: keeps one chunk the framer took and did not hand over for the
  /// next input, and gives the others back to the crew's free pool.
  func finishInput() {
    guard let crew else { return }
    for chunk in held {
      if spare == nil { spare = chunk } else { crew.giveBack(chunk) }
    }
    held.removeAll(keepingCapacity: true)
  }
}
