/// A chunk's table handed from its worker to the reader's thread: one
/// thread uses it at a time (the hand-over goes through the results queue's
/// lock; its own lock, taken once a chunk, is what lets the compiler check
/// the class's `Sendable`). The reader takes the table out, because the queue's array
/// keeps results it has handed out for a while (`BlockingQueue` trims it
/// only now and then): holding the tables there would hold dozens of them.
final class ChunkTable: Sendable {
  private let table: LockedValue<GroupTable?>
  init(_ table: GroupTable) { self.table = LockedValue(table) }

  /// The table, once; `nil` after.
  func take() -> GroupTable? {
    table.withLock { table in
      defer { table = nil }
      return table
    }
  }
}

/// Where a group worker's table goes as chunks end — the one thing in which
/// the group job and its per-account forms differ past the fold of a record
/// (DuckDB's Combine): kept and merged at the end, written out as sorted runs
/// past a budget, or handed on with each chunk.
enum ChunkTables {
  /// Kept by the worker through the run and merged with the others' at its end (`group`).
  case merged
  /// Per account: written to the store as a run whenever it passes `budget`
  /// bytes; at the end the rest follow, and the runs are merged account by account.
  case accountRuns(AccountRunStore, budget: Int)
  /// Per account over input sorted by account: each chunk is folded into a
  /// table of its own, handed on with the chunk's result to the stage, which
  /// takes them in input order and hands out each account once it has ended.
  case handedOn(SortedAccountStage)
}

/// A worker's state: its decoders and the table it folds into. Runs on one
/// thread at a time.
final class ChunkFolder {
  /// One decoder per schema, made when first needed.
  private var decoders: SchemaDecoders
  /// The table this worker folds into; tables are merged at the end. Input
  /// sorted by account gets a new one for every chunk, handed on with the result.
  private(set) var table: GroupTable
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
  /// Where this worker's table goes as chunks end: the job's combine step.
  let tables: ChunkTables
  /// Input sorted by account (`ChunkTables.handedOn`): each chunk is folded
  /// into a table of its own, and the accounts' order is checked.
  let sortedByAccount: Bool
  /// The first pass of `--dedupe`: accepted records go here as id entries.
  var ids: IDCollector?
  /// With `ids`, whether records are folded too (a first pass that is the only one when nothing repeats).
  var foldsCollected = false

  /// Creates a worker for a run with `options` over the inputs `fileNames`,
  /// whose table goes where `tables` says.
  init(options: GroupOptions, fileNames: [String], tables: ChunkTables = .merged) {
    self.tables = tables
    decoders = SchemaDecoders(read: options.read)
    let schemas = decoders.schemas
    accounts = options.read.accounts
    table =
      options.retractable
      ? GroupTable(retractableReporting: options.memberLimit)
      : GroupTable(memberLimit: options.memberLimit, perAccount: options.read.accounts != .none)
    if case .handedOn = tables { sortedByAccount = true } else { sortedByAccount = false }
    self.fileNames = fileNames
    classifier = RecordClassifier(options: options.read, schemas: schemas)
    (defaultStates, pendingState, completedState) = Self.internStates(table, schemas: schemas)
    defaultCurrencies = schemas.map { Array(($0.defaultCurrency ?? RecordSchema.standardCurrency).utf8) }
    selection = RecordSelection(options.filter)
    selectionCurrencies = defaultCurrencies.map { $0.map(ByteStringInterner.upper) }
    extender = RecordExtender(recordCapacity: min(options.read.limits.maxRecordBytes, 1 << 16))
  }

  /// Interns the states every record may be given, in a fixed order, so that
  /// every table a folder makes numbers them alike: the schemas' default
  /// states, then `PENDING` and `COMPLETED`.
  static func internStates(_ table: GroupTable, schemas: [RecordSchema]) -> (
    defaults: [Int], pending: Int, completed: Int
  ) {
    let states = table.states
    let defaults = schemas.map { states.intern(Array(($0.defaultState ?? KnownState.completed).utf8)) }
    return (defaults, states.intern(Array(KnownState.pending.utf8)), states.intern(Array(KnownState.completed.utf8)))
  }

  /// Decodes and folds every record of `chunk`.
  ///
  /// Input sorted by account gets the chunk's table back, with what the
  /// order check found (`SortedChunk`); other runs keep folding into theirs.
  ///
  /// - Complexity: O(n) in the chunk's bytes; allocates only for kept members and rejections.
  func fold(_ chunk: RecordChunk) -> ChunkResult<SortedChunk?> {
    // The chunk's table as a constant: the per-record path reads no stored
    // `var` (each read of one is a dynamic exclusivity check).
    let table = table
    var result = ChunkResult<SortedChunk?>(of: chunk, output: nil)
    let fileName = fileNames[chunk.fileIndex]
    let schemaIndex = chunk.schemaIndex
    let decoder = decoders.decoder(schemaIndex)
    let defaultState = defaultStates[schemaIndex]
    let defaultCurrency = defaultCurrencies[schemaIndex]
    var ordinal = UInt64(chunk.sequence) << 32
    var decoded = DecodedRecord()
    // A file's account is set once per chunk; other accounts per record.
    let accountPerRecord = accounts == .field
    let fileAccount = accounts == .fileName ? Self.accountBytes(ofFile: fileName) : []
    if accounts == .fileName { fileAccount.withUnsafeBufferPointer { table.setAccount($0) } }
    var order = AccountOrderCheck()
    // Unowned (the folder holds the collector): binding it from an optional
    // in the per-record closure retained and released it for every record.
    let ids = ids.map { Unmanaged.passUnretained($0) }
    let foldsCollected = foldsCollected
    let fileIndex = chunk.fileIndex
    result.physicalLines = fileAccount.withUnsafeBufferPointer { fileAccount in
      classifier.classify(
        chunk, decoder: decoder, file: fileName, fileAccount: fileAccount, decoded: &decoded,
        accepted: { record, decoded, account in
          result.records += 1
          ordinal += 1
          result.accepted += 1
          if let ids {
            ids._withUnsafeGuaranteedRef { ids in
              if decoded.id.kind != .absent {
                ids.add(
                  id: decoded.id, record: record.bytes, account: account, instant: decoded.instant,
                  place: Deduplicated.placeKey(fileIndex: fileIndex, offset: record.framing.offset))
              }
              if let tonight = ids.tonight, fileIndex >= tonight.firstInput {
                tonight.add(
                  decoded, record: record.bytes, account: account, schema: decoder.schema,
                  place: Deduplicated.placeKey(fileIndex: fileIndex, offset: record.framing.offset),
                  position: record.framing.position)
              }
            }
            if !foldsCollected { return }
          }
          if accountPerRecord, let account { table.setAccount(account) }
          if sortedByAccount { order.see(table.currentAccount, of: table, line: record.framing.line) }
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
              currency: selectionCurrencies[schemaIndex], position: record.framing.position)
            guard selected else { return }
            result.selected += 1
          }
          if decoded.id.kind != .absent {
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
            decoded, record: record.bytes, position: record.framing.position, currency: defaultCurrency
          ) { decoded, bytes in
            if !table.fold(decoded, record: bytes, defaultState: state) {
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
    // Queued records and kept members' pending text point into the chunk's
    // bytes, which stay as they are until this method returns: finish now.
    if !table.finishChunk() { result.overflow = true }
    if !result.overflow { table.checkInvariantsIfEnabled() }
    if sortedByAccount {
      result.output = SortedChunk(table: ChunkTable(table), order: order)
      if case .handedOn(let stage) = tables, let spare = stage.stream.spareTable() {
        // A table of this run's folders: its states were interned in the same order.
        self.table = spare
        return result
      }
      let next = GroupTable(memberLimit: table.memberLimit, perAccount: true)
      // The same states in the same order: the numbers computed at `init` hold for it.
      _ = Self.internStates(next, schemas: decoders.schemas)
      self.table = next
      return result
    }
    if case .accountRuns(let store, let budget) = tables, table.estimatedBytes > budget {
      do throws(AccountRunFailure) {
        try store.spill(table)
      } catch {
        result.spillFailure = PipelineError(error)
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
}
