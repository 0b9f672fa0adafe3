import Foundation

/// An incremental run (`--state-in`, `--state-out`; Documentation/Guide.md,
/// "Nightly runs"): last night's state, and tonight's, written once the run
/// is done.
///
/// The contract: a run over tonight's inputs with last night's state reports
/// what `--dedupe` over every night's inputs, in order, would. The state
/// holds every transaction folded so far once — each key's winner, with all
/// the fields a report, list or sum shows — in account order, so a later
/// version of an id replaces it exactly as it would in the long run: the run
/// always dedupes.
///
/// How: the dedupe's first pass reads tonight's inputs, keeping each accepted
/// record in the state's form (`StateDelta`), then takes the previous state's
/// ids and instants straight from the file (`addPreviousEntries`), at places
/// before tonight's, those of the keys tonight's inputs hold too; the losers
/// are judged among all of them. (Keyed by account, it takes none: the
/// merge below meets each account's two sides itself, `AccountMatcher`.)
/// Tonight's state is then the previous one
/// less the records that lost, merged in account order with tonight's
/// winners (`StateMerge`) — and that merge, as the state's own
/// length-prefixed records (`StateSource`), is the second pass's one input:
/// each transaction once, already in account order, so a per-account `group`
/// folds it as input sorted by account, nothing spilled; it is written as
/// tonight's state as it is read. The counts are the previous state's plus
/// tonight's.
///
/// ```swift
/// var options = GroupOptions()
/// options.read.nightly = try NightlyState(previous: "monday.state", for: options)
/// let report = try GroupPipeline(options: options).run(paths: ["tuesday.jsonl"])
/// try options.read.nightly?.write(to: "tuesday.state", stats: report.stats)
/// ```
public final class NightlyState: Sendable {
  /// The job a state is written by, with the settings its records depend on.
  package enum Job: Sendable {
    case group(GroupOptions)
    case list(ListOptions)
    case summary(SummaryOptions)
  }

  /// How a refused state names the setting that differs: as the library's
  /// options (`memberLimit`, a `group` run) for an app, which has no command
  /// line, or as `txfold`'s flags (`--members`, `txfold group`) for the CLI.
  package enum SettingNames: Sendable {
    case options
    case flags
  }

  /// Each setting's option, by the flag that names it in a state's header.
  static let optionNames = [
    "--schema": "schema", "--field": "schema paths", "--timezone": "zone", "--currency": "defaultCurrency",
    "--items": "itemsPath", "--per-account": "accounts", "--members": "memberLimit",
  ]

  /// Last night's state, or `nil` on the first night.
  public let previousPath: String?
  /// The settings this run's state is written with (`--flag`, value).
  let settings: [(flag: String, value: String)]
  /// The run's `threads`: as many of zstd's threads compress tonight's state.
  let threads: Int
  let previous: (header: StateHeader, records: Int, status: FileStatus)?

  /// What the run learns, written by the workers and the dedupe's passes.
  private struct Learned {
    /// Tonight's accepted records (`StateDelta` entries), as the workers hand them over
    /// (`prepare` makes it, with the run's memory share and temporary directory).
    var tonightRecords: TonightRecords?
    /// The first failure to keep tonight's records on disk; the first pass stops with it.
    var failure: SpillError?
    /// The records that lost to a later version (`Deduplicated.placeKey`), ascending.
    var losers: [UInt64] = []
    var changedOnly = false
    /// With `changedOnly`, set by the dedupe's first pass: tonight's changed accounts.
    var changedAccounts: ChangedAccounts?
    /// Where the second pass writes tonight's state as it reads it (`StateMerge`), made by `prepare`.
    var store: SpillStore?
    /// Whether the second pass's input was opened (and so the state written beside it, once).
    var teeing = false
    /// Where the second pass writes tonight's state, when the caller staged it (`stage(into:name:)`).
    var staged: (descriptor: Int32, name: String)?
    /// Tonight's state as the second pass wrote it, whole, and the header it has: in a
    /// temporary file, or (`file` nil) in the staged descriptor.
    var teed: (file: SpillFile?, header: StateHeader)?
    /// The previous state's longest record payload, in bytes, once its ids are read.
    var longestPreviousPayload = 0
    /// Whether the second pass's merge judges the previous state's records
    /// against tonight's, an account at a time (`AccountMatcher`), in the
    /// run's zone, instead of the first pass (set by `addPreviousEntries`).
    var matchingZone: ZoneResolver?
    /// The duplicates the merge found, once it has ended.
    var mergeDuplicates = 0
    /// Tonight's inputs' names, as the run was given them (`prepending(to:)`).
    var tonightInputs: [String] = []
  }
  private let learned = LockedValue(Learned())

  /// The first failure to keep tonight's records on disk; the first pass stops with it.
  var failure: SpillError? { learned.withLock { $0.failure } }
  /// The records that lost to a later version (`Deduplicated.placeKey`), ascending.
  var losers: [UInt64] {
    get { learned.withLock { $0.losers } }
    set { learned.withLock { $0.losers = newValue } }
  }
  /// `--changed-only`: a per-account run writes only the accounts whose
  /// report changed tonight (`ChangedAccounts`). Set before the run starts.
  public var changedOnly: Bool {
    get { learned.withLock { $0.changedOnly } }
    set { learned.withLock { $0.changedOnly = newValue } }
  }
  /// With `changedOnly`, set by the dedupe's first pass: tonight's changed accounts.
  package var changedAccounts: ChangedAccounts? { learned.withLock { $0.changedAccounts } }
  /// Whether the second pass's merge judges last night's records against tonight's (`AccountMatcher`).
  var matchesInMerge: Bool { learned.withLock { $0.matchingZone != nil } }
  /// The records the second pass's merge found to lose (`AccountMatcher`), once it has ended:
  /// the run's duplicates beyond the first pass's.
  var mergeDuplicates: Int { learned.withLock { $0.mergeDuplicates } }

  /// Opens last night's state (`nil` on the first night) for a `group` run
  /// with `options`, and checks that it was written with the same settings.
  /// Its header and trailer are checked now; its records and their checksums
  /// as the run reads them (once tonight's inputs are read): a damaged state
  /// fails the run, and nothing of it is written.
  ///
  /// - Throws: `PipelineError.state` when the file is cut short, damaged in its
  ///   header, from another version, or written with other settings (naming
  ///   the first that differs).
  public convenience init(previous path: String?, for options: GroupOptions) throws(PipelineError) {
    do throws(StateFileError) {
      try self.init(previous: path, job: .group(options))
    } catch {
      throw .state(error)
    }
  }

  /// Opens last night's state (`nil` on the first night) for a `list` run
  /// with `options`; see `init(previous:for:)` for a group run.
  public convenience init(previous path: String?, for options: ListOptions) throws(PipelineError) {
    do throws(StateFileError) {
      try self.init(previous: path, job: .list(options))
    } catch {
      throw .state(error)
    }
  }

  /// Opens last night's state (`nil` on the first night) for a `summary` run
  /// with `options`; see `init(previous:for:)` for a group run.
  public convenience init(previous path: String?, for options: SummaryOptions) throws(PipelineError) {
    do throws(StateFileError) {
      try self.init(previous: path, job: .summary(options))
    } catch {
      throw .state(error)
    }
  }

  /// Opens last night's state (`nil` on the first night) and checks that it
  /// was written with the settings of `job`.
  ///
  /// - Throws: `StateFileError` when the file is damaged, from another
  ///   version, or written with other settings (naming the first that differs).
  ///
  /// A state that comes through a pipe (a FIFO, `<(command)`: fetched from
  /// object storage, say) is read once, front to back, into an unlinked file
  /// in the temporary directory (`onTemporaryDirectory` is told of the
  /// directory while it exists) and read from there.
  package init(
    previous path: String?, job: Job, names: SettingNames = .options,
    onTemporaryDirectory: @escaping (String) -> Void = { _ in }
  ) throws(StateFileError) {
    previousPath = path
    settings = Self.settings(of: job)
    let temporaryDirectory: String?
    (threads, temporaryDirectory) =
      switch job {
      case .group(let options): (options.threads, options.temporaryDirectory)
      case .list(let options): (options.threads, options.temporaryDirectory)
      case .summary(let options): (options.threads, options.temporaryDirectory)
      }
    guard let path else {
      previous = nil
      pipedCopy = nil
      return
    }
    if let status = SystemCalls.status(ofPath: path), !status.isRegularFile, !status.isDirectory {
      pipedCopy = try Self.copyFromPipe(path, temporaryDirectory: temporaryDirectory, register: onTemporaryDirectory)
    } else {
      pipedCopy = nil
    }
    let reader = try Self.reader(of: path, copy: pipedCopy, checksRecords: true)
    let schemaAgrees = Self.schemaAgrees(header: reader.header, run: settings)
    for (flag, value) in settings where !(schemaAgrees && Self.schemaFlags.contains(flag)) {
      let written = reader.header["setting.\(flag)"] ?? "(not set)"
      guard written == value || Self.recordedNoZone(flag: flag, written: written, job: job) else {
        let name = names == .flags ? flag : Self.optionNames[flag] ?? flag
        // `--schema auto` is named with what it chose, the schema the state's records are read with.
        let chosen = reader.header["schemas"].flatMap { $0.isEmpty ? nil : $0 }
        let writtenShown =
          flag == "--schema" && written == "auto" && chosen != nil
          ? "auto (which chose \(chosen ?? ""))" : Self.shown(written, of: flag)
        let difference =
          switch (flag, names) {
          case ("command", .flags): "it was written by 'txfold \(written)'; this run is 'txfold \(value)'"
          case ("command", .options): "it was written by a \(written) run; this run is a \(value) run"
          default:
            "it was written with \(name) \(writtenShown); this run has \(name) \(Self.shown(value, of: flag))"
          }
        throw StateFileError(
          path: path, problem: difference + ". A state goes on only with the settings that made it")
      }
    }
    // The records are read, and their checksums checked, in the run's first pass (`addPreviousEntries`).
    guard let status = SystemCalls.status(ofPath: path) else {
      throw StateFileError(path: path, problem: "it cannot be read")
    }
    previous = (reader.header, reader.recordCount, status)
  }

  /// The descriptor of last night's state as copied from a pipe (`copyFromPipe(_:temporaryDirectory:register:)`).
  private let pipedCopy: Int32?

  deinit {
    if let pipedCopy { SystemCalls.closeDescriptor(pipedCopy) }
  }

  /// A reader of last night's state from its start: of the file, or of its copy.
  private static func reader(of path: String, copy: Int32?, checksRecords: Bool) throws(StateFileError)
    -> StateFileReader
  {
    guard let copy else { return try StateFileReader(path: path, checksRecords: checksRecords) }
    let descriptor = SystemCalls.duplicate(copy)
    guard descriptor >= 0 else {
      throw StateFileError(
        path: path, problem: "its copy cannot be read (\(SystemCalls.errorText(SystemCalls.lastError)))")
    }
    return try StateFileReader(descriptor: descriptor, name: path, checksRecords: checksRecords)
  }

  /// A reader of last night's state (see `reader(of:copy:checksRecords:)`).
  func previousReader(checksRecords: Bool = true) throws(StateFileError) -> StateFileReader {
    guard let previousPath else { throw StateFileError(path: "", problem: "there is no previous state") }
    return try Self.reader(of: previousPath, copy: pipedCopy, checksRecords: checksRecords)
  }

  /// Copies the state at `path`, a FIFO or a device, into a new unlinked file
  /// and returns its descriptor, open for reading. A state file is read by
  /// position (its trailer first) and more than once a night, which a pipe
  /// cannot be; it is read here once, front to back. Stops at the first bytes
  /// when they are not a state's.
  private static func copyFromPipe(_ path: String, temporaryDirectory: String?, register: @escaping (String) -> Void)
    throws(StateFileError) -> Int32
  {
    func failed(_ problem: String) -> StateFileError { StateFileError(path: path, problem: problem) }
    func reason(_ error: InputError) -> String {
      switch error {
      case .cannotOpen(_, let reason), .readFailed(_, let reason): reason
      default: error.description
      }
    }
    let source: FileSource
    do throws(InputError) {
      source = try FileSource.open(path: path)
    } catch {
      throw .cannotOpen(path, reason: reason(error))
    }
    let store = SpillStore(temporaryParent: temporaryDirectory, register: register)
    // The file is unlinked once made: the directory can go at once.
    defer { store.remove() }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    // A disk that fills up, or a pipe that fails, is not the state's fault: an input's failure (74).
    func copying<T>(_ body: () throws(SpillError) -> T) throws(StateFileError) -> T {
      do throws(SpillError) {
        return try body()
      } catch {
        throw .cannotRead(path, reason: "cannot keep the copy of the state file that the run reads: \(error.clause)")
      }
    }
    let file = try copying { () throws(SpillError) in try store.makeFile() }
    var copied = 0
    while true {
      let count: Int
      do throws(InputError) {
        count = try source.read(into: buffer)
      } catch {
        throw .cannotRead(path, reason: reason(error) + " (the state file)")
      }
      if count == 0 { break }
      // Not a state (a device named by mistake, say): said at its first bytes, not after all it gives.
      for offset in copied..<max(copied, min(copied + count, StateFile.magic.count))
      where buffer[offset - copied] != StateFile.magic[offset] {
        throw failed(
          StateFile.notAState(
            startingWith: copied == 0 ? Array(buffer.prefix(min(count, TxFoldFileFormat.longestMagic))) : []))
      }
      copied += count
      try copying { () throws(SpillError) in
        try file.append(raw: UnsafeRawBufferPointer(rebasing: buffer.prefix(count)))
      }
    }
    try copying { () throws(SpillError) in try file.finishWriting() }
    let descriptor = SystemCalls.duplicate(file.fileDescriptor)
    guard descriptor >= 0 else {
      throw failed("its copy cannot be read (\(SystemCalls.errorText(SystemCalls.lastError)))")
    }
    return descriptor
  }

  /// The input index of tonight's first input.
  var firstTonightInput: Int { previous == nil ? 0 : 1 }

  /// The settings a state depends on: those that decide which records are
  /// accepted, what their fields are, and which key they dedupe by.
  static func settings(of job: Job) -> [(flag: String, value: String)] {
    let (command, read, members): (String, ReadOptions, String) =
      switch job {
      case .group(let options): ("group", options.read, options.reportMembers ? String(options.memberLimit) : "0")
      case .list(let options): ("list", options.read, "-")
      case .summary(let options): ("summary", options.read, "-")
      }
    let fields = fieldsSetting(of: read.schema)
    let accounts =
      switch read.accounts {
      case .none: "no"
      case .field: "yes"
      case .fileName: "yes (file names)"
      }
    return [
      ("command", command),
      // `--schema ledger --field …` is named `ledger+fields`: the mapping is `--field`'s setting.
      ("--schema", read.schema.map { $0.name.hasSuffix("+fields") ? String($0.name.dropLast(7)) : $0.name } ?? "auto"),
      ("--field", fields),
      ("--timezone", read.zone.zone?.identifier ?? "(as written)"),
      ("--currency", read.defaultCurrency),
      ("--items", read.itemsPath?.joined(separator: ".") ?? "(auto)"),
      ("--per-account", accounts),
      ("--members", members),
    ]
  }

  /// The settings that say which schema reads the records: `schemaAgrees` judges them together.
  static let schemaFlags: Set<String> = ["--schema", "--field"]

  /// Whether a state and this run read records with the same schema although their `--schema`
  /// and `--field` settings are not written alike: one side lets detection choose (`auto`) and the
  /// other names a built-in schema without `--field` mappings. A run that detects accepts a state
  /// of any built-in schema (detection chooses per input, night after night); a run that names
  /// schema X accepts a detecting state only when X is every schema its detection chose
  /// (the header's `schemas`, the schemas the state's records were read with), or it chose none.
  static func schemaAgrees(header: StateHeader, run: [(flag: String, value: String)]) -> Bool {
    func value(_ flag: String) -> String? { run.first { $0.flag == flag }?.value }
    guard let runSchema = value("--schema"), let runFields = value("--field"),
      let writtenSchema = header["setting.--schema"], let writtenFields = header["setting.--field"]
    else { return false }
    /// Whether `name` and `fields` are a built-in schema's own mapping.
    func builtIn(_ name: String, _ fields: String) -> Bool {
      RecordSchema.named(name).map { fieldsSetting(of: $0) == fields } ?? false
    }
    func detecting(_ name: String, _ fields: String) -> Bool { name == "auto" && fields == fieldsSetting(of: nil) }
    if detecting(runSchema, runFields) { return builtIn(writtenSchema, writtenFields) }
    guard detecting(writtenSchema, writtenFields), builtIn(runSchema, runFields), let chosen = header["schemas"]
    else { return false }
    return chosen.split(separator: ",").allSatisfy { $0.trimmingCharacters(in: .whitespaces) == runSchema }
  }

  /// `--field`'s setting: every canonical field's paths in `schema` (`nil`: detection's, `(auto)`).
  static func fieldsSetting(of schema: RecordSchema?) -> String {
    schema.map { schema in
      CanonicalField.allCases.compactMap { field in
        schema.paths[field].map { "\(field.name)=\($0.joined(separator: "|"))" }
      }.joined(separator: ",")
    } ?? "(auto)"
  }

  /// Whether `written`, a state's `--timezone`, is what a list or summary state held whatever its
  /// zone before `ReadOptions.zone` became their one zone: their zone was their filter's then, and
  /// their states said `(as written)`. Such a state goes on in this run's zone, and its next state
  /// names that zone.
  static func recordedNoZone(flag: String, written: String, job: Job) -> Bool {
    guard flag == "--timezone", written == "(as written)" else { return false }
    if case .group = job { return false }
    return true
  }

  /// A setting's value as its flag is written: `--members all` is recorded as the largest `Int`
  /// (what every state written so far holds, so the record stays), and named `all`.
  static func shown(_ value: String, of flag: String) -> String {
    flag == "--members" && value == String(Int.max) ? "all" : value
  }

  /// The schema the previous state's records are read with (`StateSource`).
  static let stateSchema: RecordSchema = {
    var schema = RecordSchema.custom([
      (.id, "i"), (.instant, "t"), (.amount, "a"), (.currency, "c"), (.indicator, "d"), (.state, "s"),
      (.description, "x"), (.category, "g"), (.counterparty, "p"), (.fee, "f"), (.account, "n"),
    ])
    schema.name = "txfold-state"
    schema.amountIsMagnitude = false
    return schema
  }()

  /// `inputs` with the previous state's place before them: the first pass
  /// reads no record there (`addPreviousEntries` gives the state's ids
  /// straight from the file), but tonight's inputs keep the indexes that put
  /// their places after the state's.
  func prepending(to inputs: RunInputs) -> RunInputs {
    learned.withLock { $0.tonightInputs = inputs.names.map(Self.inputName) }
    guard let previousPath else { return inputs }
    let names = [previousPath] + inputs.names
    let paths = [previousPath] + (inputs.paths ?? Array(repeating: "-", count: inputs.names.count))
    return RunInputs(names: names, paths: paths) { (index) throws(PipelineError) -> any ByteSource in
      guard index > 0 else { return MemorySource(bytes: [], name: previousPath) }
      return try inputs.source(at: index - 1)
    }
  }

  /// Adds an id entry to `partitions` for each record of the previous state
  /// with a dedupe key, at its place (input 0, its position in the state):
  /// the state's records are winners already, so the first pass needs only
  /// their keys and instants, not the records folded again. With accounts
  /// the key starts with the account. Read once tonight's inputs are: with
  /// `filter` (tonight's keys), a record whose key tonight's inputs do not
  /// hold cannot lose nor make one lose, and gets no entry and no decoding.
  /// The others are decoded as the second pass will decode them
  /// (`StateRecord.decode`, in the run's zone): one that does not decode is
  /// damage, refused now. (A record the second pass cannot decode fails the
  /// run as damage too: `ResultAccounting`; never is one left out.)
  ///
  /// With `threaded`, the file is read, decompressed and checked on a thread
  /// of its own (`StateBlock`s of whole records) while this one decodes and
  /// enters them: the pass has the machine to itself, and either half alone
  /// left the other core idle.
  func addPreviousEntries(
    to partitions: IDPartitions, read: ReadOptions, filter: KeyHashFilter?, threaded: Bool
  ) throws(PipelineError) {
    guard let previousPath else { return }
    // Keyed by account and id, with room for any account's tonight records (a quarter of the id
    // budget): the second pass's merge meets the two sides an account at a time instead, and this
    // pass reads nothing of the state (`AccountMatcher`). `--changed-only` needs the losers first.
    let largest = learned.withLock { $0.tonightRecords?.largestAccountBound ?? 0 }
    if read.accounts != .none, !changedOnly, largest <= partitions.budget / 4 {
      learned.withLock { $0.matchingZone = read.zone }
      return
    }
    let collector = IDCollector(partitions: partitions, workers: 1)
    let decoder = RecordDecoder(schema: Self.stateSchema, zone: read.zone)
    let keyedByAccount = read.accounts != .none
    var decoded = DecodedRecord()
    var position = 0
    var longest = 0
    /// Enters one record (the next in the state's order).
    func enter(_ payload: UnsafeRawBufferPointer) throws(StateFileError) {
      position += 1
      longest = max(longest, payload.count)
      // A key tonight's inputs do not hold: no entry, and nothing of it decoded (the second pass decodes it).
      if let filter, let fields = StateRecord.fields(of: payload) {
        guard !fields.positionalID else { return }
        let account = keyedByAccount ? (fields.account ?? UnsafeRawBufferPointer(start: nil, count: 0)) : nil
        guard
          collector.passes(
            filter, key: fields.id.assumingMemoryBound(to: UInt8.self),
            account: account?.assumingMemoryBound(to: UInt8.self))
        else { return }
      }
      let record = payload.assumingMemoryBound(to: UInt8.self)
      guard !payload.isEmpty, StateRecord.decode(record, with: decoder, into: &decoded) == nil else {
        throw StateFileError(path: previousPath, problem: "record \(position) is damaged")
      }
      // A position standing in for an id is no dedupe key, as in the run that kept it.
      guard !StateRecord.Flags(rawValue: payload[0]).contains(.positionalID) else { return }
      collector.add(
        id: decoded.id, record: record, account: keyedByAccount ? GroupTable.bytes(decoded.account, record) : nil,
        instant: decoded.instant, place: Deduplicated.placeKey(fileIndex: 0, offset: Int64(position)))
    }
    do throws(StateFileError) {
      // Threaded, the records are checked here, not on the reading thread, which decompressing keeps busier.
      let reader = try previousReader(checksRecords: !threaded)
      if threaded {
        let blocks = StateBlock.prefetcher(reading: reader)
        defer { blocks.stop() }
        /// The reading thread's next block, or what stopped it (only ever a `StateFileError`).
        func nextBlock() throws(StateFileError) -> StateBlock? {
          do throws(PipelineError) { return try blocks.next() } catch {
            guard case .state(let path, let problem) = error else {
              throw StateFileError(path: previousPath, problem: "it cannot be read (\(error))")
            }
            throw StateFileError(path: path, problem: problem)
          }
        }
        var checksum: UInt32 = 0
        while let block = try nextBlock() {
          checksum = block.checksum(continuing: checksum)
          try block.forEach(enter)
        }
        guard checksum == reader.recordsChecksum else {
          throw StateFileError(path: previousPath, problem: "its checksum does not match (the file is damaged)")
        }
      } else {
        while let payload = try reader.nextPayload() { try enter(payload) }
      }
    } catch {
      throw .state(error)
    }
    learned.withLock { $0.longestPreviousPayload = longest }
    collector.handOver()
    if let failure = collector.failure { throw .spill(failure) }
  }

  /// The second pass's input: tonight's state as length-prefixed records
  /// (`StateSource`), in account order — each transaction once, so the job
  /// reads it as a run without `--dedupe` reads an export, with
  /// `secondPassRead(_:deduplicated:)`.
  /// As it is read, the state is also written (into the staged file, or a
  /// temporary one, with the header of `stats`, the first pass's settled
  /// counts), so that `write` has nothing to do, or copies it, instead of
  /// merging and compressing it again.
  func secondPassInputs(stats: RunStats) -> RunInputs {
    let name = previousPath.map { "\($0) and tonight's records" } ?? "tonight's records"
    return RunInputs(names: [name]) { [self] (_) throws(PipelineError) -> any ByteSource in
      let merge = try merge()
      merge.ended = { [self] duplicates in learned.withLock { $0.mergeDuplicates = duplicates } }
      return StateSource(merge, name: name, tee: tee(stats: stats))
    }
  }

  /// Has the second pass write tonight's state straight into `descriptor`
  /// (a new, empty regular file: `--state-out`'s staged file, opened before
  /// the run), so that `write(toDescriptor:name:stats:)` to it after the run
  /// has nothing left to do, instead of copying a temporary file. Set before
  /// the run starts.
  package func stage(into descriptor: Int32, name: String) {
    learned.withLock { $0.staged = (descriptor, name) }
  }

  /// A writer of tonight's state into the staged file or a temporary one,
  /// the first time the second pass's input is opened; `nil` after (or when
  /// none can be made: `write` then merges anew).
  private func tee(stats: RunStats) -> StateMerge.Tee? {
    let header = header(stats: stats)
    let (store, staged) = learned.withLock { (learned) -> (SpillStore?, (descriptor: Int32, name: String)?) in
      defer { learned.teeing = true }
      return learned.teeing ? (nil, nil) : (learned.store, learned.staged)
    }
    do {
      if let staged {
        let writer = try StateFileWriter(
          descriptor: staged.descriptor, name: staged.name, header: header, workers: threads)
        return StateMerge.Tee(writer: writer, stats: stats, header: self.header) { [self] final in
          learned.withLock { $0.teed = (nil, final) }
        }
      }
      guard let store else { return nil }
      let file = try store.makeFile()
      let writer = try StateFileWriter(
        descriptor: file.fileDescriptor, name: file.name, header: header, workers: threads)
      return StateMerge.Tee(writer: writer, stats: stats, header: self.header) { [self] final in
        learned.withLock { $0.teed = (file, final) }
      }
    } catch {
      return nil
    }
  }

  /// How the second pass reads `secondPassInputs()`: state records
  /// (`readsStatePayloads`) in the state's schema, the account from the
  /// record (also where it first came from file names), no item path, and
  /// `deduplicated` for the first pass's accounting, with no loser left to
  /// skip. A payload may be a little longer than the record it came from
  /// (defaults filled in, an amount's exponent written out), and a previous
  /// state's records were limited by the night that read them: the limit is
  /// raised by `payloadAllowance`, so no record of tonight's state is refused.
  func secondPassRead(_ read: ReadOptions, deduplicated: Deduplicated) -> ReadOptions {
    var second = read
    second.accounts = read.accounts == .none ? .none : .field
    second.schema = Self.stateSchema
    second.itemsPath = nil
    second.deduplicated = deduplicated
    second.readsStatePayloads = true
    // A merge that matches has not read the previous state: its records may be as long as a state's can.
    let previousLongest = learned.withLock {
      $0.matchingZone == nil ? $0.longestPreviousPayload : StateFile.maxRecordBytes
    }
    let longest = max(read.limits.maxRecordBytes, previousLongest)
    second.limits.maxRecordBytes = longest + Self.payloadAllowance
    // Per account the state comes in account order, and each chunk is folded into a table of its
    // own accounts, held until they are written: the chunks in flight are most of a night's peak.
    if second.accounts != .none { second.chunkSize = min(read.chunkSize, Self.perAccountChunkSize) }
    return second
  }

  /// The bytes of state read at a time by a per-account night's second pass: half the usual
  /// chunk. A two-thread `jsonl` night peaked at 146–156 MiB with 1 MiB chunks, at 120–128 MiB
  /// with these, in the same time (BENCHMARKS, "Nightly runs"); a quarter (256 KiB) held about
  /// 100 MiB but took 7–12 % longer on two threads.
  static let perAccountChunkSize = 512 << 10

  /// What a payload may hold beyond its record's bytes: the fields' lengths, a
  /// default state or currency, a position as id, an amount written without its exponent.
  static let payloadAllowance = 4096

  /// Readies the run for tonight's records: held up to `budget` bytes, then spilled as sorted runs.
  func prepare(budget: Int, temporaryParent: String?, register: @escaping (String) -> Void) {
    let records = TonightRecords(budget: budget, temporaryParent: temporaryParent, register: register)
    let store = SpillStore(temporaryParent: temporaryParent, register: register)
    learned.withLock {
      $0.tonightRecords = records
      $0.store = store
    }
  }

  /// Takes a worker's records, sorted on the worker's thread first.
  func take(_ entries: inout [UInt8]) {
    guard !entries.isEmpty else { return }
    let run = TonightRecords.sorted(entries)
    entries = []
    learned.withLock { learned in
      guard learned.failure == nil else { return }
      if learned.tonightRecords == nil {
        learned.tonightRecords = TonightRecords(budget: Int.max, temporaryParent: nil, register: { _ in })
      }
      do throws(SpillError) { try learned.tonightRecords?.take(sorted: run) } catch { learned.failure = error }
    }
  }

  /// Turns the first pass's counts, tonight's inputs' alone (the state's
  /// records were not read as records), into the long run's: the previous
  /// state's counts plus tonight's.
  func settle(_ stats: inout RunStats) {
    let tonightSchemas = stats.schema
    guard let previous else { return }
    func count(_ name: String) -> Int { Int(previous.header["count.\(name)"] ?? "") ?? 0 }
    stats.lines += count("lines")
    stats.accepted += count("accepted")
    stats.rejected += count("rejected")
    stats.duplicates += count("duplicates")
    for (name, value) in previous.header.entries where name.hasPrefix("reason.") {
      guard let reason = RejectReason(rawValue: String(name.dropFirst(7))), let number = Int(value) else { continue }
      stats.rejectedByReason[reason, default: 0] += number
    }
    var schemas = (previous.header["schemas"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    for name in tonightSchemas.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !name.isEmpty && !schemas.contains(name) {
      schemas.append(name)
    }
    stats.schema = schemas.filter { !$0.isEmpty }.joined(separator: ", ")
  }

  /// Writes tonight's state to `path`, atomically (a temporary file renamed
  /// over it), after a successful run whose stats are `stats`.
  ///
  /// - Throws: `OutputError` when the file cannot be written (it is left as
  ///   it was); `PipelineError.state` when `path` is last night's state or the
  ///   previous state cannot be read again.
  public func write(to path: String, stats: RunStats) throws {
    if let previousPath, let written = SystemCalls.status(ofPath: path),
      let read = SystemCalls.status(ofPath: previousPath),
      written.device == read.device, written.inode == read.inode
    {
      throw PipelineError.state(
        StateFileError(path: path, problem: "it is last night's state, which a run reads and never replaces"))
    }
    let file = try OutputFile.open(path: path)
    do {
      try write(toDescriptor: file.fileDescriptor, name: path, stats: stats)
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }

  /// Whether ascending `values` holds `value`.
  static func sortedContains(_ values: [UInt64], _ value: UInt64) -> Bool {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < values.count && values[low] == value
  }

  /// Tonight's winners (not among `losers`), in (account, place) order.
  private func tonightWinners() throws(PipelineError) -> TonightRecords.Cursor {
    let (kept, losers) = learned.withLock { ($0.tonightRecords, $0.losers) }
    let records = kept ?? TonightRecords(budget: 0, temporaryParent: nil, register: { _ in })
    do throws(SpillError) {
      return try records.cursor(skipping: losers)
    } catch {
      throw .spill(error)
    }
  }

  /// Reads the previous state again, in order, calling `body` with each
  /// record's payload and whether it lost tonight.
  private func forEachPreviousRecord(
    _ body: (_ payload: UnsafeRawBufferPointer, _ lost: Bool) -> Void
  ) throws(PipelineError) {
    guard previousPath != nil else { return }
    let losers = losers
    var position = 0
    do throws(StateFileError) {
      let reader = try previousReader()
      while let payload = try reader.nextPayload() {
        position += 1
        body(payload, Self.sortedContains(losers, Deduplicated.placeKey(fileIndex: 0, offset: Int64(position))))
      }
    } catch {
      throw .state(error)
    }
  }

  /// With `changedOnly`, once `losers` is set: finds the accounts whose
  /// report changed tonight (`ChangedAccounts` says what that means). A
  /// payload that won tonight and one byte-for-byte equal that lost from the
  /// previous state cancel out; an account is changed when any of its payloads
  /// is left over. Both sides are kept in one buffer each and sorted, so a
  /// record costs no allocation; the previous state is read only when one of
  /// its records lost. A payload holds its account, so the test is per account.
  ///
  /// - Complexity: memory O(tonight's winners' bytes and the lost records' bytes).
  func findChangedAccounts() throws(PipelineError) {
    guard changedOnly else { return }
    var won = PayloadList()
    var lost = PayloadList()
    let winners = try tonightWinners()
    do throws(SpillError) {
      while let entry = winners.current {
        won.append(entry.payload)
        try winners.advance()
      }
    } catch {
      throw .spill(error)
    }
    // Place keys put the previous state (input 0) first: it lost records only when the first loser is one of them.
    if let first = losers.first, first < Deduplicated.placeKey(fileIndex: 1, offset: 0) {
      try forEachPreviousRecord { payload, isLoser in
        if isLoser { lost.append(payload) }
      }
    }
    var accounts = Set<[UInt8]>()
    PayloadList.forEachUnmatched(won, lost) { accounts.insert(Array(StateRecord.account(of: $0))) }
    let changed = ChangedAccounts(accounts)
    learned.withLock { $0.changedAccounts = changed }
  }

  /// The header of tonight's state: the settings and the run's counts.
  func header(stats: RunStats) -> StateHeader {
    var header = StateHeader()
    for (flag, value) in settings { header.entries.append(("setting.\(flag)", value)) }
    header.entries.append(("count.lines", String(stats.lines)))
    header.entries.append(("count.accepted", String(stats.accepted)))
    header.entries.append(("count.rejected", String(stats.rejected)))
    // Twenty digits: a night whose merge judges the previous state's records against tonight's
    // (`StateMerge`) counts its duplicates only once the header is written, and writes it again.
    let duplicates = String(stats.duplicates)
    header.entries.append(
      ("count.duplicates", String(repeating: "0", count: max(0, 20 - duplicates.count)) + duplicates))
    for (reason, count) in stats.rejectedByReason.sorted(by: { $0.key < $1.key }) {
      header.entries.append(("reason.\(reason.rawValue)", String(count)))
    }
    header.entries.append(("schemas", stats.schema))
    let inputs = inputs(tonight: learned.withLock { $0.tonightInputs })
    header.entries.append(("inputs.count", String(inputs.count)))
    // File names hold no `/`: it joins them.
    header.entries.append(("inputs.names", inputs.first.joined(separator: "/")))
    return header
  }

  /// How many inputs every night so far read, tonight's `tonight` (paths or
  /// sources' names) included, and the first three of their file names, in
  /// the order read night after night: what a report's `source`
  /// (`TextReportOptions.source`, an html page's title) names, so that a
  /// nightly report names what a `dedupe` run over every night's inputs
  /// would. A state written before states kept their inputs counts tonight's
  /// alone.
  public func inputs(tonight: [String]) -> (first: [String], count: Int) {
    var first: [String] = []
    var count = 0
    if let header = previous?.header, let previousCount = Int(header["inputs.count"] ?? "") {
      first = (header["inputs.names"] ?? "").split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      if first == [""] { first = [] }
      count = previousCount
    }
    let (total, overflow) = count.addingReportingOverflow(tonight.count)
    return (Array((first + tonight.map(Self.inputName)).prefix(Self.namedInputs)), overflow ? Int.max : total)
  }

  /// How many of the inputs' names a state keeps: as many as a report's title names.
  package static let namedInputs = 3

  /// An input's name as a report's title shows it and a state keeps it: its file name without the
  /// directory (`-` for standard input stays), so that a state does not depend on how a night's
  /// paths were spelt.
  package static func inputName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// Writes tonight's state to `descriptor`: the previous state's records
  /// that did not lose, merged in account order with tonight's that won.
  /// `stats` is the run's (`RunStats` as the report has them).
  ///
  /// - Throws: `PipelineError.state` when the previous state cannot be read
  ///   again, `OutputError` when writing fails.
  package func write(toDescriptor descriptor: Int32, name: String, stats: RunStats) throws {
    let (teed, staged) = learned.withLock { ($0.teed, $0.staged) }
    if let teed, teed.header == header(stats: stats) {
      if let file = teed.file {
        try Self.copy(file, to: descriptor, name: name)
        return
      }
      if staged?.descriptor == descriptor { return }
    }
    // The second pass may have written some of the state into this file: it is written again from the start.
    if staged?.descriptor == descriptor, !SystemCalls.empty(descriptor) {
      throw OutputError(path: name, reason: SystemCalls.errorText(SystemCalls.lastError))
    }
    let merge = try merge()
    let writer = try StateFileWriter(
      descriptor: descriptor, name: name, header: header(stats: stats), workers: threads)
    while let payload = try merge.next() { try writer.append(payload) }
    try writer.finish()
  }

  /// Copies the whole of `file` to `descriptor`.
  private static func copy(_ file: SpillFile, to descriptor: Int32, name: String) throws {
    guard let size = SystemCalls.status(ofDescriptor: file.fileDescriptor)?.size else {
      throw OutputError(path: name, reason: "tonight's state cannot be read back")
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while offset < size {
      let wanted = min(buffer.count, Int(size - offset))
      let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
      guard count > 0 else { throw OutputError(path: name, reason: "tonight's state ended early") }
      try DescriptorWriting.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: descriptor, name: name)
      offset += Int64(count)
    }
  }

  /// Tonight's state, record by record, once `losers` is set.
  func merge() throws(PipelineError) -> StateMerge {
    let winners = try tonightWinners()
    guard previousPath != nil else { return StateMerge(previous: nil, winners: winners, losers: []) }
    let zone = learned.withLock { $0.matchingZone }
    do throws(StateFileError) {
      // Its records were checked in the first pass (`addPreviousEntries`), unless the merge matches (it
      // read none then): the stored bytes' checksum says the file is still what they were decompressed from.
      let reader = try previousReader(checksRecords: zone != nil)
      return StateMerge(
        previous: reader, winners: winners, losers: losers, matcher: zone.map(AccountMatcher.init),
        prefetching: threads > 1)
    } catch {
      throw .state(error)
    }
  }
}
