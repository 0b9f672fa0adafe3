/// Applies chunk results in input order: line numbers, counts, rejections,
/// `--strict` and `--max-rejects`.
struct ResultAccounting {
  let strict: Bool
  let maxRejects: Int?
  let onRejection: ((RecordRejection) throws -> Void)?
  var records = 0
  var accepted = 0
  var rejected = 0
  /// Records the selection kept (without dedupe).
  var selected = 0
  var byReason: [RejectReason: Int] = [:]
  var overflow = false
  /// The input of the first chunk whose fold overflowed.
  var overflowFile: Int?
  /// The first rejections, kept for the end-of-run diagnosis (`NothingAccepted`):
  /// at most `sampleLimit` of them and about `sampleBytes` of raw bytes.
  var sample: [RecordRejection] = []
  var sampleBytes = 0
  static let sampleLimit = 64
  static let sampleByteLimit = 64 << 10
  /// Rejections for a trailing comma (`--allow-trailing-commas` accepts them).
  var trailingCommas = 0
  var currentFile = -1
  var lineBase = 0
  /// Records per input file, by file index.
  var recordsPerFile: [Int] = []
  /// The inputs' names, for errors that name an input (`fileName`).
  var fileNames: [String] = []

  /// Whether an input cut off inside a record fails the run (`ReadOptions.cutShortInputFails`).
  let cutShortInputFails: Bool
  /// A nightly run's second pass reads its state's records (`ReadOptions.readsStatePayloads`):
  /// one that is rejected is damage of the state named here, which fails the run.
  let damagedState: String?

  init(options: ReadOptions, onRejection: ((RecordRejection) throws -> Void)?) {
    strict = options.strict
    maxRejects = options.maxRejects
    cutShortInputFails = options.cutShortInputFails
    damagedState = options.readsStatePayloads ? options.nightly?.previousPath ?? "tonight's state" : nil
    self.onRejection = onRejection
  }

  /// Records the input file with index `file` held.
  func records(inFile file: Int) -> Int {
    file < recordsPerFile.count ? recordsPerFile[file] : 0
  }

  /// The record counts into `stats`, with the hints they suggest and
  /// `--dedupe`'s settlement, the same for every pipeline. The hints read the
  /// rest of `stats`, so it is called once that is complete.
  func settle(_ stats: inout RunStats, read: ReadOptions) {
    stats.lines = records
    stats.accepted = accepted
    stats.rejected = rejected
    stats.rejectedByReason = byReason
    stats.hints = RejectionHints.hints(
      stats: stats, trailingCommas: trailingCommas, maxRecordBytes: read.limits.maxRecordBytes, sample: sample)
    read.deduplicated?.settle(&stats)
    // A night's second pass: the records its merge found to lose, an account at a time (`AccountMatcher`).
    if read.deduplicated != nil, let nightly = read.nightly { stats.duplicates += nightly.mergeDuplicates }
  }

  /// Applies the result of the next chunk in input order.
  mutating func apply<Output>(_ result: ChunkResult<Output>) throws(PipelineError) {
    try enter(result)
    accepted += result.accepted
    selected += result.selected
    if result.overflow && !overflow { overflowFile = result.fileIndex }
    overflow = overflow || result.overflow
    for rejection in result.rejections { try count(rejection) }
    lineBase += result.physicalLines
  }

  /// Applies the next chunk's result as far as `line` (within the chunk),
  /// where the run stops: only the rejections before it. Returns the
  /// chunk's line base, which numbers that line in its input.
  mutating func apply<Output>(_ result: ChunkResult<Output>, stoppingBefore line: Int) throws(PipelineError) -> Int {
    try enter(result)
    for rejection in result.rejections where rejection.line < line { try count(rejection) }
    return lineBase
  }

  private mutating func enter<Output>(_ result: ChunkResult<Output>) throws(PipelineError) {
    enter(file: result.fileIndex, records: result.records)
    if let failure = result.spillFailure { throw failure }
  }

  /// The name of input `fileIndex`, for errors (`-` when the run was not told it).
  func fileName(_ fileIndex: Int) -> String {
    fileIndex >= 0 && fileIndex < fileNames.count ? fileNames[fileIndex] : "-"
  }

  /// Applies one rejected record of the chunk being read, at once: the way
  /// `TransactionReader` hands records on, so that a `strict` stop comes
  /// before the next record reaches its consumer. `finishChunk` ends the chunk.
  mutating func reject(_ rejection: RecordRejection, fileIndex: Int) throws(PipelineError) {
    enter(file: fileIndex, records: 1)
    try count(rejection)
  }

  /// Ends a chunk whose rejections went through `reject`: its accepted records and its lines.
  mutating func finishChunk(fileIndex: Int, accepted: Int, physicalLines: Int) {
    enter(file: fileIndex, records: accepted)
    self.accepted += accepted
    lineBase += physicalLines
  }

  /// Counts `records` of input `file`, which starts its line numbers afresh.
  private mutating func enter(file: Int, records: Int) {
    if file != currentFile {
      currentFile = file
      lineBase = 0
    }
    self.records += records
    if records > 0 && file >= 0 {
      if file >= recordsPerFile.count {
        recordsPerFile.append(contentsOf: repeatElement(0, count: file + 1 - recordsPerFile.count))
      }
      recordsPerFile[file] += records
    }
  }

  /// Counts one rejection (its line relative to the current chunk), hands it to
  /// `onRejection`, and stops the run under `strict` or past `maxRejects`.
  ///
  /// The one place where an input that ends inside a record or an unclosed
  /// document (framing's `.truncated`, on every pipeline) becomes
  /// `InputError.truncatedInput`, an I/O error like a truncated gzip stream:
  /// a file cut off mid-write must never pass as a shorter report.
  private mutating func count(_ rejection: RecordRejection) throws(PipelineError) {
    if let damagedState {
      throw .state(path: damagedState, problem: "a record of it is damaged (\(rejection.reason.rawValue))")
    }
    var rejection = rejection
    rejection.line += lineBase
    if cutShortInputFails && (rejection.clue == .cutShortRecord || rejection.clue == .cutShortDocument) {
      throw .input(
        .truncatedInput(path: rejection.file, line: rejection.line, insideDocument: rejection.clue == .cutShortDocument)
      )
    }
    rejected += 1
    byReason[rejection.reason, default: 0] += 1
    if rejection.clue == .trailingComma { trailingCommas += 1 }
    if sample.count < Self.sampleLimit && sampleBytes < Self.sampleByteLimit {
      sample.append(rejection)
      sampleBytes += rejection.raw.count
    }
    do {
      try onRejection?(rejection)
    } catch {
      throw .rejectOutput("\(error)")
    }
    if strict { throw .strictRejection(rejection) }
    if let maxRejects, rejected > maxRejects { throw .tooManyRejects(limit: maxRejects, last: rejection) }
  }
}
