/// The reader's side of `--schema`: which schema each input's chunks are read
/// with, decided before any chunk of the input reaches a worker.
///
/// With a fixed schema every chunk gets it. With `auto`, each input decides
/// on its own (several files may hold different schemas): the first record
/// valid for a candidate decides (`SchemaDetector`). The records before it
/// are marked undecided (`RecordChunk.undecidedRecords`) and rejected the
/// same way whatever is chosen, so the outcome does not depend on where
/// chunks end. The decision is final for the input: later records of
/// another schema are read, and rejected, with the one chosen. An input
/// where no record decides is reported under its wrapper's schema, if any.
///
/// It also numbers the records of JSON lines when their position may be
/// needed as an id (array elements are numbered by the framer).
struct SchemaChoice {
  let candidates: [RecordSchema]
  let detector: SchemaDetector?
  let maxRecordBytes: Int
  let countPositions: Bool
  /// Whether positions may be read at all; when not, none are counted, whatever the schema.
  let needsPositions: Bool
  /// The schema chosen for the current input.
  private var current: Int?
  private var hint: RecordWrapper?
  /// Records of the current input so far (JSON lines), while counted.
  private var records = 0
  /// The names chosen, in order of first use.
  private var used: [String] = []
  /// The first input is an incremental run's previous state, read with the last candidate.
  private let stateFirst: Bool
  private var inputs = 0
  private var readingState = false

  /// - Parameter needsPositions: `false` when the run reads no record's
  ///   position (a `summary` whose filter reads no id), so none are counted.
  init(options: ReadOptions, needsPositions: Bool = true) {
    candidates = options.schemaCandidates
    stateFirst = options.nightly?.previous != nil && !candidates.isEmpty
    detector =
      options.schema == nil
      ? SchemaDetector(
        candidates: stateFirst ? Array(candidates.dropLast()) : candidates,
        allowTrailingCommas: options.allowTrailingCommas) : nil
    maxRecordBytes = options.limits.maxRecordBytes
    countPositions = options.countPositions
    self.needsPositions = needsPositions
  }

  mutating func startInput() {
    readingState = stateFirst && inputs == 0
    inputs += 1
    current = readingState ? candidates.count - 1 : detector == nil ? 0 : nil
    hint = nil
    records = 0
  }

  /// Sets the chunk's schema (deciding it on the input's first valid record)
  /// and, for JSON lines that need them, the position of its first record.
  mutating func stamp(_ chunk: RecordChunk, wrapper: RecordWrapper?) {
    hint = wrapper
    if current == nil, let detector {
      if let decision = detector.decision(in: chunk, maxRecordBytes: maxRecordBytes) {
        current = decision.index
        chunk.undecidedRecords = decision.before
      } else {
        chunk.undecidedRecords = Int.max
      }
    }
    chunk.schemaIndex = current ?? hintIndex ?? 0
    if needsPositions && chunk.kind != .elements {
      let needed = countPositions || current.map { candidates[$0].mayUsePositionIDs } ?? true
      if needed {
        chunk.firstPosition = records + 1
        records += chunk.countLineRecords()
      }
    }
  }

  /// Ends the current input; `wrapper` is what its framing found in the
  /// end (an input may hold no chunk at all, such as `{"items": []}`).
  mutating func finishInput(wrapper: RecordWrapper?) {
    if hint == nil { hint = wrapper }
    guard !readingState else { return }
    guard let index = current ?? hintIndex else { return }
    let name = candidates[index].name
    if !used.contains(name) { used.append(name) }
  }

  /// The schema names for the run summary: `ledger`, or `ledger, backbase`
  /// when inputs differ; empty when `auto` detected none.
  var summary: String {
    used.isEmpty && detector == nil ? candidates[0].name : used.joined(separator: ", ")
  }

  /// The candidate a wrapper suggests: PAYBACK exports wrap their records in
  /// `items`, Swile's in `transactions`, PSD2 reports in `booked`/`pending`.
  private var hintIndex: Int? {
    guard let hint else { return nil }
    let name =
      switch hint {
      case .items: RecordSchema.payback.name
      case .transactions: RecordSchema.swile.name
      case .bookedOrPending: RecordSchema.psd2.name
      }
    return candidates.firstIndex { $0.name == name }
  }
}
