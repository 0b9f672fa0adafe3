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
  private var buffers: [ListRunBuffer]
  private let store: ListRunStore
  private var merger: ListEntryMerger?
  // Unchecked: the rows are read by one thread.
  @exclusivity(unchecked) private var skipped = 0
  @exclusivity(unchecked) private var shown = 0

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
    buffers: [ListRunBuffer], store: ListRunStore, readBufferSize: Int, maxFanIn: Int, stats: RunStats,
    matched: Int, page: PageRequest
  ) throws(SpillError) {
    self.buffers = buffers
    self.store = store
    self.stats = stats
    self.matched = matched
    self.page = page
    let keepFirst = page.end
    let sorting = SortingBox(buffers)
    DispatchQueue.concurrentPerform(iterations: buffers.count) { index in
      let buffer = sorting.buffers[index]
      if let keepFirst { buffer.keepFirst(keepFirst) } else { buffer.sort() }
    }
    var runs = store.takeRuns()
    let fanIn = max(2, maxFanIn)
    while runs.count > fanIn {
      let batch = Array(runs.prefix(fanIn))
      runs.removeFirst(batch.count)
      runs.append(try store.merge(batch, keepFirst: keepFirst, readBufferSize: readBufferSize))
    }
    spilledRuns = store.spilledRuns
    merger = ListEntryMerger(
      runs: runs.map { ListEntryMerger.Run(file: $0, bufferSize: readBufferSize) }
        + buffers.map { ListEntryMerger.Run(memory: $0) })
  }

  /// The next entry of the page, valid until the next call; `nil` after the last.
  func next() throws(PipelineError) -> UnsafeRawPointer? {
    if let limit = page.limit, shown >= limit {
      close()
      return nil
    }
    while true {
      if merger == nil { return nil }
      let entry: UnsafeRawPointer?
      do throws(SpillError) {
        entry = try merger?.next()
      } catch {
        throw .spill(error)
      }
      guard let entry else {
        close()
        return nil
      }
      if skipped < page.offset {
        skipped += 1
        continue
      }
      shown += 1
      return entry
    }
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
    merger = nil
    buffers = []
    store.remove()
  }

  deinit { store.remove() }
}

/// Hands the workers' buffers to the threads that sort them, one buffer per thread.
private final class SortingBox: @unchecked Sendable {
  let buffers: [ListRunBuffer]
  init(_ buffers: [ListRunBuffer]) { self.buffers = buffers }
}
