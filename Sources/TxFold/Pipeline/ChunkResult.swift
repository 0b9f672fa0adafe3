/// What a worker found in one chunk, in two parts: what every job reports
/// alike — the counts, rejections, overflow and spill failure that
/// `ResultAccounting` applies in input order — and `output`, what the
/// worker's own job hands on with the chunk: a summary worker's sums
/// (`SummaryChunkDelta`), a chunk's own table when the input is sorted by
/// account (`SortedChunk`), nothing for the jobs whose folds stay with their
/// workers until the end (`group`, `list`). A job's sink reads its own
/// output and no other job's.
struct ChunkResult<Output: Sendable>: Sendable {
  /// The chunk's place in the run, which orders results back into input order.
  var sequence: Int
  /// The input the chunk came from, which names it in rejections.
  var fileIndex: Int
  /// Physical lines in the chunk (blank ones included), to number the next chunk's lines.
  var physicalLines = 0
  /// Records: non-blank lines, or the chunk's spans.
  var records = 0
  /// Records folded in.
  var accepted = 0
  /// Rejections; for lines, `line` is 1-based within the chunk until the pipeline adds the
  /// chunk's base (elements carry their line in the input, and `physicalLines` is 0).
  var rejections: [RecordRejection] = []
  /// Set when a total overflowed.
  var overflow = false
  /// Records the selection kept (`GroupOptions.filter`, `ListOptions.filter`), when one is set and there is no dedupe.
  var selected = 0
  /// Set when a spill failed: the list's or the per-account fold's runs
  /// could not be written, or a per-account merge pass failed.
  var spillFailure: PipelineError?
  /// What the worker's job hands on with the chunk.
  var output: Output

  /// An empty result for `chunk`, with `output`.
  init(of chunk: RecordChunk, output: Output) {
    sequence = chunk.sequence
    fileIndex = chunk.fileIndex
    self.output = output
  }
}

extension ChunkResult where Output == Void {
  /// An empty result for `chunk`, of a job whose fold stays with its worker.
  init(of chunk: RecordChunk) { self.init(of: chunk, output: ()) }
}
