/// What folding one chunk produced besides the fold itself: the accounting,
/// and the rejections with their line numbers relative to the chunk.
struct ChunkResult: Sendable {
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
  /// Set when a currency total overflowed.
  var overflow = false
  /// Records the selection kept (`GroupOptions.filter`), when one is set and there is no dedupe.
  var selected = 0
  /// Set when the per-account fold could not write its table out.
  var spillFailure: SpillError?
  /// The chunk itself, when the crew hands chunks back with results (the summary's).
  var chunk: RecordChunk?
  /// A summary worker's sums for the chunk.
  var summary: SummaryChunkDelta?
}

/// A worker's state: its decoders and the table it folds into. Runs on one
/// thread at a time.
final class ChunkFolder {
  /// The run's schemas; a chunk names the one its records are read with.
  let schemas: [RecordSchema]
  /// One decoder per schema, made when first needed.
  private var decoders: [RecordDecoder?]
  /// The table this worker folds into; tables are merged at the end.
  let table: GroupTable
  /// The per-id winners when deduplicating (then `table` stays empty until the end).
  let dedupe: DedupeTable?
  let zone: ZoneResolver
  let allowTrailingCommas: Bool
  /// Input names, for rejections.
  let fileNames: [String]
  /// Which records are accepted, and why the others are rejected.
  let classifier: RecordClassifier
  /// Per schema: the state number of its default state, and its default currency.
  let defaultStates: [Int]
  let defaultCurrencies: [[UInt8]]
  /// The state numbers of `PENDING` and `COMPLETED`, for implied states.
  let pendingState: Int
  let completedState: Int
  let extender: RecordExtender
  /// Where each record's account comes from (per-account runs).
  let accounts: AccountSource
  /// The run's selection, `nil` when it keeps everything.
  let selection: RecordSelection?
  /// Per schema: its default currency upper-cased, for the selection.
  let selectionCurrencies: [[UInt8]]
  /// Per-account runs: where the table goes when it passes `tableBudget` bytes.
  var accountRuns: AccountRunStore?
  var tableBudget = Int.max

  /// Creates a worker for a run with `options` over the inputs `fileNames`.
  init(options: GroupOptions, fileNames: [String]) {
    schemas = options.read.schemaCandidates
    decoders = Array(repeating: nil, count: schemas.count)
    zone = options.read.zone
    allowTrailingCommas = options.read.allowTrailingCommas
    accounts = options.read.accounts
    table = GroupTable(memberLimit: options.memberLimit, perAccount: options.read.accounts != .none)
    dedupe = options.dedupe ? DedupeTable() : nil
    self.fileNames = fileNames
    classifier = RecordClassifier(options: options.read, schemas: schemas)
    let states = table.states
    defaultStates = schemas.map { states.intern(Array(($0.defaultState ?? KnownState.completed).utf8)) }
    defaultCurrencies = schemas.map { Array(($0.defaultCurrency ?? RecordSchema.standardCurrency).utf8) }
    pendingState = states.intern(Array(KnownState.pending.utf8))
    completedState = states.intern(Array(KnownState.completed.utf8))
    selection = RecordSelection(options.filter)
    selectionCurrencies = defaultCurrencies.map { $0.map(ByteStringInterner.upper) }
    extender = RecordExtender(recordCapacity: min(options.read.limits.maxRecordBytes, 1 << 16))
  }

  /// The decoder for `schemas[index]`.
  func decoder(_ index: Int) -> RecordDecoder {
    if let decoder = decoders[index] { return decoder }
    let decoder = RecordDecoder(schema: schemas[index], zone: zone, allowTrailingCommas: allowTrailingCommas)
    decoders[index] = decoder
    return decoder
  }

  /// Decodes and folds every record of `chunk`.
  ///
  /// - Complexity: O(n) in the chunk's bytes; allocates only for kept members and rejections.
  func fold(_ chunk: RecordChunk) -> ChunkResult {
    var result = ChunkResult(sequence: chunk.sequence, fileIndex: chunk.fileIndex)
    let fileName = fileNames[chunk.fileIndex]
    let schemaIndex = chunk.schemaIndex
    let decoder = decoder(schemaIndex)
    let defaultState = defaultStates[schemaIndex]
    let defaultCurrency = defaultCurrencies[schemaIndex]
    var ordinal = UInt64(chunk.sequence) << 32
    var decoded = DecodedRecord()
    // A file's account is set once per chunk; other accounts per record.
    let accountPerRecord = accounts == .field
    let fileAccount = accounts == .fileName ? Self.accountBytes(ofFile: fileName) : []
    if accounts == .fileName { fileAccount.withUnsafeBufferPointer { table.setAccount($0) } }
    result.physicalLines = fileAccount.withUnsafeBufferPointer { fileAccount in
      classifier.classify(
        chunk, decoder: decoder, file: fileName, fileAccount: fileAccount, decoded: &decoded,
        accepted: { record, decoded, account in
          result.records += 1
          ordinal += 1
          result.accepted += 1
          if accountPerRecord, let account { table.setAccount(account) }
          let state =
            switch decoded.impliedState {
            case .none: defaultState
            case .pending: pendingState
            case .completed: completedState
            }
          var selected = true
          if let selection {
            selected = selection.matches(
              decoded, record: record.bytes, state: table.states.strings[state],
              currency: selectionCurrencies[schemaIndex], position: record.position)
            if dedupe == nil {
              guard selected else { return }
              result.selected += 1
            }
          }
          if decoded.id.kind != .absent && dedupe == nil {
            if decoded.currency.kind != .absent {
              // The usual case: everything is in the record's bytes, and the
              // decoded record is folded where it is, not copied for the extender.
              // Kept members' strings stay in the chunk until the end of the chunk.
              if !table.fold(&decoded, record: record.bytes, defaultState: state, deferringText: true) {
                result.overflow = true
              }
            } else if !defaultCurrency.withUnsafeBufferPointer({
              table.fold(&decoded, record: record.bytes, defaultState: state, suppliedCurrency: $0)
            }) {
              result.overflow = true
            }
            return
          }
          extender.withSuppliedValues(
            decoded, record: record.bytes, position: record.position, currency: defaultCurrency
          ) { decoded, bytes in
            if let dedupe {
              offer(decoded, record: bytes, state: state, position: ordinal, selected: selected, to: dedupe)
            } else if !table.fold(decoded, record: bytes, defaultState: state) {
              result.overflow = true
            }
          }
        },
        rejected: { rejection in
          result.records += 1
          ordinal += 1
          result.rejections.append(rejection)
        })
    }
    // Kept members' pending text points into the chunk's bytes, which stay
    // as they are until this method returns: copy it out now.
    table.writePendingText()
    if let accountRuns, table.estimatedBytes > tableBudget {
      do throws(SpillError) {
        try accountRuns.spill(table)
      } catch {
        result.spillFailure = error
      }
    }
    return result
  }

  /// The account of every record of a file read with `AccountSource.fileName`:
  /// its name without directories, up to the first `.` (the whole name when that leaves nothing).
  static func accountBytes(ofFile path: String) -> [UInt8] {
    let name = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last ?? path.utf8[...]
    let stem = name.split(separator: .dot, maxSplits: 1, omittingEmptySubsequences: false).first ?? name
    return stem.isEmpty ? Array(name) : Array(stem)
  }

  /// Copies a decoded record into the dedupe table (it must outlive the chunk).
  func offer(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, state stateNumber: Int, position: UInt64,
    selected: Bool, to dedupe: DedupeTable
  ) {
    var id: [UInt8] = []
    GroupTable.appendDecoded(decoded.id, record, to: &id)
    var state: [UInt8] = []
    if decoded.state.kind == .absent {
      state = table.states.strings[stateNumber]
    } else {
      GroupTable.appendDecoded(decoded.state, record, to: &state)
    }
    var currency: [UInt8] = []
    GroupTable.appendDecoded(decoded.currency, record, to: &currency)
    var description: [UInt8]?
    if decoded.description.kind != .absent {
      var text: [UInt8] = []
      GroupTable.appendDecoded(decoded.description, record, to: &text)
      description = text
    }
    let member = KeptMember(
      instant: decoded.instant, amount: decoded.amount.magnitude, id: id, currency: currency, description: description)
    dedupe.offer(
      id: id,
      entry: DedupeTable.Entry(
        state: state, day: decoded.day, indicator: decoded.indicator, member: member, position: position,
        selected: selected))
  }
}
