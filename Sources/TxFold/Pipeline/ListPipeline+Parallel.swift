/// The plain `list` on every core, for the formats whose rows can be
/// rendered on their own (`csv`, `json`, `jsonl`): `group`'s chunk pipeline
/// with list workers, then one merge.
///
/// The calling thread reads and frames the inputs; `threads` workers
/// (`ListChunkFolder`) decode, filter and render each record into a compact
/// entry (sort key, sum fields, the output row) in their own `ListRunBuffer`,
/// and each sorts and spills its buffer when it passes its share of the
/// memory limit; the calling thread applies the chunks' accounting in input
/// order (rejections, `--strict`, `--max-rejects` as `TransactionReader`
/// does). At the end every worker's buffer is sorted and the buffers and the
/// runs on disk are merged (`KWayMerge` over `ListRunCursor`s) into rows copied straight to
/// the output (`ListRenderer.renderEntries`). The order is total, so the
/// bytes are the same for any thread count, chunking or memory limit, and
/// the same as the `Transaction` path (`run`) writes.
///
/// Not for `dedupe` (each id's winner is decided over all records first) nor
/// per-account lists; `runRendered` returns `nil` for them, and for `text`
/// and `html`, and the caller takes `run`.
extension ListPipeline {
  /// Whether `runRendered` can serve `format` with these options.
  func rendersInParallel(_ format: ReportFormat) -> Bool {
    guard format == .csv || format == .json || format == .jsonl else { return false }
    return options.read.accounts == .none
  }

  /// Reads, filters and sorts files (`-` is standard input) with rows
  /// rendered as `format` (dates in `zone`), on `options.threads` workers;
  /// `nil` when the format or options need the `Transaction` path (`run`).
  ///
  /// - Complexity: O(input bytes) over the workers, O(n log n) for n rows kept;
  ///   memory O(`memoryLimit`); disk O(rows kept) when they exceed it.
  package func runRendered(paths: [String], format: ReportFormat, zone: ZoneResolver)
    throws(PipelineError) -> ListRows?
  {
    guard rendersInParallel(format) else { return nil }
    let (pipeline, input) = try deduplicating(.paths(paths))
    var inputs: RunInputs
    do throws(PipelineError) {
      inputs = try input.runInputs()
    } catch {
      throw error
    }
    return try pipeline.runRendered(
      names: inputs.names, style: format == .csv ? .csv : .json, zone: zone,
      next: { () throws(PipelineError) in try inputs.next() })
  }

  /// The read options of a parallel list.
  var parallelReadOptions: ReadOptions {
    var read = options.read
    // As `TransactionReader`: records without an id take their position.
    read.countPositions = true
    return read
  }

  func runRendered(
    names: [String], style: ListRowStyle, zone: ZoneResolver,
    next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> ListRows {
    let job = ListRows.Job(
      read: parallelReadOptions, names: names, filter: options.filter, keepFirst: options.page.end,
      payload: .row(style), dayZone: zone, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, maxFanIn: options.maxFanIn, page: options.page,
      onRejection: onRejection, onProgress: onProgress, onTemporaryDirectory: onTemporaryDirectory)
    return try ListRows.run(job, next: next)
  }
}
