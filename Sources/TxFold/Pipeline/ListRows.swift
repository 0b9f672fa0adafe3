import Foundation

/// A parallel list's sorted rows being read out (`ListPipeline.runRendered`):
/// the page's entries in list order, rendered to the output by `render`.
///
/// Holds the workers' sorted buffers and the runs on disk until it is
/// rendered, closed, or released; the spill directory goes with it.
package final class ListRows {
  /// The reading's accounting.
  package let stats: RunStats
  /// Rows that passed the filter, before paging.
  package let matched: Int
  /// The page being read.
  package let page: PageRequest
  /// Sorted runs written to disk, intermediate merges included (0 when everything fit).
  package let spilledRuns: Int
  /// The inputs read, which an overflowing sum names.
  package private(set) var inputs: [String]?
  private var buffers: [ListRunBuffer]
  private let store: SpillStore
  private var merge: KWayMerge<ListRunCursor>?
  // Unchecked: the rows are read by one thread.
  @exclusivity(unchecked) private var window: PageWindow

  /// The memory limit's shares: each worker's buffer, and each run reader's
  /// buffer in the merge. Three quarters go to the buffers, which hold every
  /// row at the end; the rest covers what the run holds besides: the read
  /// buffers (at most 1 MiB each, `maxFanIn` of them at once), the chunks
  /// being decoded, the keys' spare capacity and the output's buffers, so
  /// that the process stays near the limit (Documentation/Decisions.md).
  static func budgets(memoryLimit: Int, workers: Int) -> (buffer: Int, read: Int) {
    let limit = max(1, memoryLimit)
    let buffers = limit - limit / 4
    return (max(1, buffers / max(1, workers)), min(1 << 20, max(4096, limit / 8 / 16)))
  }

  /// Sorts what the workers hold (in parallel), merges the runs on disk down
  /// to `maxFanIn`, and prepares the final merge.
  init(
    buffers: [ListRunBuffer], store: SpillStore, readBufferSize: Int, maxFanIn: Int, stats: RunStats,
    matched: Int, page: PageRequest
  ) throws(SpillError) {
    self.buffers = buffers
    self.store = store
    self.stats = stats
    self.matched = matched
    self.page = page
    window = PageWindow(page)
    let keepFirst = page.end
    // One buffer per thread: no two threads touch the same one.
    let sorting = HandOff(buffers)
    DispatchQueue.concurrentPerform(iterations: buffers.count) { index in
      let buffer = sorting.value[index]
      if let keepFirst { buffer.keepFirst(keepFirst) } else { buffer.sort() }
    }
    let fanIn = max(2, maxFanIn)
    let runs = try store.takeRuns(mergingDownTo: fanIn, fanIn: fanIn) { (batch) throws(SpillError) in
      try ListRunCursor.merge(batch, into: store, keepFirst: keepFirst, readBufferSize: readBufferSize)
    }
    spilledRuns = store.filesMade
    merge = KWayMerge(
      cursors: runs.map { ListRunCursor(file: $0, bufferSize: readBufferSize) }
        + buffers.map { ListRunCursor(memory: $0) })
  }

  /// What a run of list workers reads and makes: `list` on every core
  /// (rows), and the per-account list (rows, with accounts) and summary (keys).
  struct Job {
    var read: ReadOptions
    var names: [String]
    var filter: TransactionFilter
    /// The entries the merge reads at most (a whole list's page end), which lets a buffer cut to them.
    var keepFirst: Int?
    var payload: ListChunkFolder.EntryPayload
    var dayZone: ZoneResolver
    var threads: Int
    var memoryLimit: Int
    var temporaryDirectory: String?
    var maxFanIn: Int
    var page: PageRequest
    var onRejection: ((RecordRejection) throws -> Void)?
    var onProgress: ((PipelineProgress) -> Void)?
    var onTemporaryDirectory: ((String) -> Void)?
  }

  /// Runs `job` over the inputs `next` opens: `job.threads` workers
  /// (`ListChunkFolder`) fill, sort and spill their buffers on the chunk
  /// pipeline, the run is judged, and the rows are ready to merge. The
  /// spill directory is removed on failure.
  static func run(_ job: Job, next: () throws(PipelineError) -> (any ByteSource)?) throws(PipelineError) -> ListRows {
    let workerCount = max(1, job.threads)
    let shares = budgets(memoryLimit: job.memoryLimit, workers: workerCount)
    let store = SpillStore(temporaryParent: job.temporaryDirectory) {
      [onTemporaryDirectory = job.onTemporaryDirectory] in onTemporaryDirectory?($0)
    }
    let folders = (0..<workerCount).map {
      ListChunkFolder(
        worker: $0, filter: job.filter, keepFirst: job.keepFirst, read: job.read, payload: job.payload,
        dayZone: job.dayZone, fileNames: job.names, budget: shares.buffer, store: store, readBufferSize: shares.read)
    }
    let run = ChunkRun(read: job.read, names: job.names, onRejection: job.onRejection, onProgress: job.onProgress)
    let stats: RunStats
    do throws(PipelineError) {
      try run.run(workers: folders.map { folder in { folder.fold($0) } }, next: next)
      stats = run.settle()
      try run.judge()
    } catch {
      store.remove()
      throw error
    }
    do throws(SpillError) {
      let rows = try ListRows(
        buffers: folders.map(\.buffer), store: store, readBufferSize: shares.read, maxFanIn: job.maxFanIn,
        stats: stats, matched: run.accounting.selected, page: job.page)
      rows.inputs = job.names
      return rows
    } catch {
      store.remove()
      throw .spill(error)
    }
  }

  /// The next entry of the page, valid until the next call; `nil` after the last.
  func next() throws(PipelineError) -> UnsafeRawPointer? {
    guard let merge else { return nil }
    do throws(SpillError) {
      if let entry = try window.next(from: { () throws(SpillError) in try merge.next() }) { return entry }
    } catch {
      throw .spill(error)
    }
    close()
    return nil
  }

  /// Writes the page as `format` (one of those `runRendered` took) with the
  /// writers of `ListRenderer`, returning the sum of what was shown.
  @discardableResult
  package func render<E: Error>(context: ListContext, format: ReportFormat, flush: (inout [UInt8]) throws(E) -> Void)
    throws(ListRenderer.Failure<PipelineError, E>) -> SelectionSum
  {
    try ListRenderer.renderEntries(context: context, format: format, next: next, flush: flush)
  }

  /// Releases the buffers, the runs and the spill directory now.
  package func close() {
    merge = nil
    buffers = []
    store.remove()
  }

  deinit { store.remove() }
}
