import Foundation

/// The accounts of a per-account `group` run, handed out one at a time in
/// byte-wise order of their ids (`GroupPipeline.runPerAccount(paths:)`).
///
/// The fold is over when the cursor exists: `stats` holds the run's
/// accounting, and `stats.accounts` the number of accounts once the last one
/// was handed out. When the fold went to disk, each `next()` merges one
/// account from the runs, so memory holds one account at a time. Input
/// declared sorted by account (`GroupOptions.sortedByAccount`) is the
/// exception: the fold goes on while the cursor hands out each account as it
/// ends, `stats` is set only once `next()` returned `nil`, and a reading
/// error (an account out of order, a rejection under `strict`) comes from
/// `next()` after the accounts before it.
///
/// ```swift
/// let cursor = try GroupPipeline(options: options).runPerAccount(paths: ["export.jsonl.gz"])
/// while let account = try cursor.next() { print(account.account, account.count) }
/// ```
public final class AccountReportCursor {
  /// The run's accounting; `accounts` is set once `next()` returned `nil`.
  public internal(set) var stats: RunStats
  /// How many runs the fold wrote to disk (0 when it stayed within the memory limit).
  public let spilledRuns: Int
  /// The settings a per-account partial of this run carries.
  let settings: PartialSettings
  /// The inputs' fingerprints (only when the run was started for a partial).
  let inputs: [InputFingerprint]
  /// Where the accounts came from, as a per-account partial names it.
  let accountSource: String
  let members: Bool
  /// Where the accounts come from; only the building thread uses it once `next()` started it.
  let accounts: AccountGroupsSource

  private init(
    source: AccountGroupsSource.Source, stats: RunStats, spilledRuns: Int, options: GroupOptions,
    inputs: [InputFingerprint]
  ) {
    accounts = AccountGroupsSource(source, changed: options.read.nightly?.changedAccounts)
    self.stats = stats
    self.spilledRuns = spilledRuns
    members = options.reportMembers
    settings = PartialSettings(options: options, schema: GroupPipeline.schemaSetting(options))
    self.inputs = inputs
    accountSource = options.read.accounts == .fileName ? "file name" : "field"
  }

  convenience init(table: GroupTable, stats: RunStats, options: GroupOptions, inputs: [InputFingerprint]) {
    self.init(
      source: .memory(table, table.groupsByAccount()), stats: stats, spilledRuns: 0, options: options, inputs: inputs)
  }

  convenience init(stream: SortedAccountStream, options: GroupOptions) {
    self.init(source: .stream(stream), stats: RunStats(), spilledRuns: 0, options: options, inputs: [])
  }

  convenience init(
    merger: AccountRunMerger, store: AccountRunStore, stats: RunStats, options: GroupOptions,
    inputs: [InputFingerprint]
  ) {
    self.init(
      source: .runs(merger, store), stats: stats, spilledRuns: store.runCount, options: options, inputs: inputs)
  }

  /// The next account, or `nil` after the last.
  ///
  /// The accounts are merged and built on a thread of the cursor's own, a few
  /// ahead of the caller, so that writing one account overlaps building the next.
  public func next() throws(PipelineError) -> AccountReport? {
    let building: AccountPrefetcher<AccountReport>
    if let started = prefetcher {
      building = started
    } else {
      // The thread holds the source, never the cursor, so dropping the cursor
      // stops it (`deinit`) and removes the runs then. From here on only that
      // thread uses the source, until it has returned `nil` (`finishStats`).
      let accounts = HandOff(accounts)
      let members = members
      building = AccountPrefetcher(depth: Self.prefetchDepth, budget: Self.prefetchBudget, weight: Self.weight) {
        () throws(PipelineError) -> AccountReport? in
        guard let (account, table, groups) = try accounts.value.nextGroups() else { return nil }
        return table.accountReport(account: account, groups: groups, members: members)
      }
      prefetcher = building
    }
    let next = try building.next()
    // The thread has returned `nil` and is done with the source.
    if next == nil { finishStats() }
    return next
  }

  /// How many accounts the building thread may be ahead, and how much weight
  /// (groups and kept members) they may hold: a few corporate accounts, or
  /// many customers' (about 250 bytes a unit, so about 16 MB).
  static let prefetchDepth = 64

  /// A report's groups and kept members, and its members' text past about
  /// 250 bytes each: what its memory grows with (a unit is about 250 bytes).
  @Sendable static func weight(_ report: AccountReport) -> Int {
    var weight = 1
    for section in report.sections {
      for group in section.groups {
        weight += 1 + group.transactions.count
        for member in group.transactions {
          weight += (member.id.utf8.count + (member.description?.utf8.count ?? 0)) / 250
        }
      }
    }
    return weight
  }
  static let prefetchBudget = 65_536
  private var prefetcher: AccountPrefetcher<AccountReport>?
  /// Sets `stats` once every account was handed out: the sorted fold's
  /// stats are known only then.
  func finishStats() {
    if let final = accounts.finalStats { stats = final }
    stats.accounts = accounts.position
    if accounts.changed != nil { stats.changedAccounts = accounts.handedOut }
  }

  /// Whether `write(with:flush:)` has taken the accounts.
  var writing = false
  /// Whether `next()` has started the building thread.
  var startedBuilding: Bool { prefetcher != nil }

  deinit {
    prefetcher?.stop()
    accounts.removeRuns()
  }

  /// Writes the accounts as a per-account partial (`group --per-account
  /// --emit partial`), to `flush` as the buffer fills: on a cursor whose
  /// `next()` was never called. Start the run with `runPerAccountPartial`,
  /// which fingerprints the inputs.
  ///
  /// - Throws: the `PartialStateError` of the accounts' merge, or what
  ///   `flush` threw, as it is.
  public func writePartial(flush: (inout [UInt8]) throws -> Void) throws {
    try AccountPartialWriteError.untyped { () throws(AccountPartialWriteError<any Error>) in
      try writePartial(typedFlush: flush)
    }
  }

  /// `writePartial(flush:)`, with the merge's failure and `flush`'s told apart by type.
  package func writePartial<E: Error>(typedFlush flush: (inout [UInt8]) throws(E) -> Void)
    throws(AccountPartialWriteError<E>)
  {
    precondition(prefetcher == nil, "writePartial(flush:) on a cursor whose next() was called")
    var writer = AccountPartialWriter()
    writer.begin(settings: settings, inputs: inputs, accounts: accountSource)
    while true {
      let next: (account: [UInt8], table: GroupTable, groups: [Int])?
      do throws(PipelineError) {
        next = try accounts.nextGroups()
      } catch {
        if case .accountMerge(let failure) = error { throw .partial(failure) }
        throw .partial(.malformed(file: "-", line: 0, detail: error.description))
      }
      do throws(E) {
        if let next {
          try writer.write(account: next.account, table: next.table, groups: next.groups, flush: flush)
        } else {
          finishStats()
          try writer.finish(stats: stats, flush: flush)
          return
        }
      } catch {
        throw .output(error)
      }
    }
  }
}

/// The accounts of a per-account run, from memory or merged from the runs:
/// the cursor's until `next()` starts the building thread, then that
/// thread's alone (`position` is read after it has returned `nil`).
///
/// With `changed` (`--changed-only`) it hands out only the accounts that
/// changed tonight, so that every way of writing the cursor — accounts,
/// batches, pages — skips the others here, in one place; `position` still
/// counts every account.
final class AccountGroupsSource {
  enum Source {
    case memory(GroupTable, [(account: UInt32, groups: ArraySlice<Int>)])
    case runs(AccountRunMerger, AccountRunStore)
    /// Input sorted by account, still being folded.
    case stream(SortedAccountStream)
  }
  let source: Source
  /// How many accounts were handed out or skipped: the run's accounts.
  var position = 0
  /// The accounts to hand out (`NightlyState.changedAccounts`); `nil`: every one.
  let changed: ChangedAccounts?
  /// How many accounts were handed out.
  var handedOut = 0
  /// The stream's batch being handed out an account at a time, and the next account in it.
  private var batch: AccountBatch?
  private var batchPosition = 0

  /// The run's stats when they are known only at the end (a sorted fold's), once handed out.
  var finalStats: RunStats? {
    if case .stream(let stream) = source { return stream.stats }
    return nil
  }

  init(_ source: Source, changed: ChangedAccounts? = nil) {
    self.source = source
    self.changed = changed
  }

  /// Whether `account` is handed out (every account without `changed`).
  func hands(_ account: [UInt8]) -> Bool { changed?.contains(account) ?? true }

  /// The next account to hand out: its id, the table holding its groups and their indices.
  func nextGroups() throws(PipelineError) -> (account: [UInt8], table: GroupTable, groups: [Int])? {
    while let next = try nextAccountGroups() {
      if hands(next.account) {
        handedOut += 1
        return next
      }
    }
    return nil
  }

  /// The next account's id, the table holding its groups and their indices, skipped or not.
  private func nextAccountGroups() throws(PipelineError) -> (account: [UInt8], table: GroupTable, groups: [Int])? {
    var next: (account: [UInt8], table: GroupTable, groups: [Int])?
    switch source {
    case .memory(let table, let order):
      if position < order.count {
        let (account, groups) = order[position]
        next = (table.accounts.strings[Int(account)], table, Array(groups))
      }
    case .runs(let merger, let store):
      let account: [UInt8]?
      do throws(PartialStateError) {
        account = try merger.nextAccount()
      } catch {
        throw .accountMerge(error)
      }
      if let account {
        next = (account, merger.table, Array(merger.table.groups.indices))
      } else {
        store.remove()
      }
    case .stream(let stream):
      while next == nil {
        if let current = batch, batchPosition < current.accounts.count {
          let (account, groups) = current.accounts[batchPosition]
          batchPosition += 1
          next = (account, current.table, Array(groups))
        } else {
          batch = nil
          guard let following = try stream.next() else { break }
          batch = following
          batchPosition = 0
        }
      }
    }
    if next != nil { position += 1 }
    return next
  }

  /// Removes the runs' directory (the runs themselves are unlinked already),
  /// or stops a sorted fold that is still reading and waits for it.
  func removeRuns() {
    switch source {
    case .runs(_, let store): store.remove()
    case .stream(let stream): stream.stop()
    case .memory: break
    }
  }
}

/// Runs `produce` on a thread of its own, ahead of `next()` by at most
/// `depth` results and `budget` units of weight (groups and kept members: a
/// corporate account's report weighs thousands, a customer's a few), until it
/// returns `nil` or throws; `stop()` ends it early.
final class AccountPrefetcher<Element>: Sendable {
  private struct State {
    /// The results built and not yet taken; each belongs to the producing thread until queued, then to `next()`'s.
    var queue: [(result: Result<Element?, PipelineError>, weight: Int)] = []
    var head = 0
    var queuedWeight = 0
    var stopped = false
    var producing = true
  }
  private let state = LockedValue(State())
  private let finished = DispatchGroup()

  init(
    depth: Int, budget: Int, weight: @escaping @Sendable (Element) -> Int,
    produce: @escaping @Sendable () throws(PipelineError) -> Element?
  ) {
    let depth = max(1, depth)
    finished.enter()
    let thread = Thread { [self] in
      defer {
        state.withLockWaking { $0.producing = false }
        finished.leave()
      }
      while true {
        let stop = state.withLock(when: {
          $0.stopped || ($0.queue.count - $0.head < depth && $0.queuedWeight <= budget)
        }) { $0.stopped }
        if stop { return }
        let result: Result<Element?, PipelineError>
        do throws(PipelineError) {
          result = .success(try produce())
        } catch {
          result = .failure(error)
        }
        var weighs = 1
        if case .success(.some(let element)) = result { weighs = weight(element) }
        state.withLockWaking { state in
          state.queue.append((result, weighs))
          state.queuedWeight += weighs
        }
        guard case .success(.some) = result else { return }
      }
    }
    thread.start()
  }

  /// The next result, waiting for it; `nil` after the last.
  func next() throws(PipelineError) -> Element? {
    let result = state.withLock(when: { $0.head < $0.queue.count || !$0.producing }) {
      (state) -> Result<Element?, PipelineError> in
      guard state.head < state.queue.count else { return .success(nil) }
      let (result, weight) = state.queue[state.head]
      state.queue[state.head].result = .success(nil)
      state.head += 1
      state.queuedWeight -= weight
      if state.head == state.queue.count {
        state.queue.removeAll(keepingCapacity: true)
        state.head = 0
      }
      return result
    }
    return try result.get()
  }

  /// Stops the thread after the result it is building, and waits for it.
  func stop() {
    state.withLockWaking { $0.stopped = true }
    finished.wait()
  }
}

extension GroupPipeline {
  /// Runs the job per account (`options.read.accounts` must not be `.none`):
  /// reads and folds every input, then hands the accounts out in order.
  ///
  /// The fold keeps about `options.memoryLimit` bytes of tables, whatever the
  /// number of accounts; past it, workers write their tables to temporary
  /// files, which the cursor merges. With `options.sortedByAccount` the
  /// cursor comes at once and the fold goes on, on a thread of its own,
  /// handing each account on as it ends; nothing goes to disk. The accounts and their bytes do not
  /// depend on the memory limit, the thread count or the input's order.
  /// - Complexity: O(input bytes + g log g); memory O(`memoryLimit` + threads × chunk size).
  public func runPerAccount(paths: [String]) throws(PipelineError) -> AccountReportCursor {
    try runPerAccount(inputs: try RunInputs(paths: paths))
  }

  /// Runs the job per account over already opened sources, in order.
  public func runPerAccount(sources: [any ByteSource]) throws(PipelineError) -> AccountReportCursor {
    try runPerAccount(inputs: RunInputs(sources: sources))
  }

  /// Runs the job per account like `runPerAccount(paths:)`, also taking each
  /// input's fingerprint, for `AccountReportCursor.writePartial(flush:)`.
  public func runPerAccountPartial(paths: [String]) throws(PipelineError) -> AccountReportCursor {
    try runPerAccount(inputs: try RunInputs(paths: paths), fingerprinting: true)
  }

  /// `runPerAccountPartial(paths:)` over already opened sources, in order.
  public func runPerAccountPartial(sources: [any ByteSource]) throws(PipelineError) -> AccountReportCursor {
    try runPerAccount(inputs: RunInputs(sources: sources), fingerprinting: true)
  }

  func runPerAccount(inputs: RunInputs, fingerprinting: Bool = false) throws(PipelineError) -> AccountReportCursor {
    var inputs = inputs
    let names = inputs.names
    guard options.read.accounts != .none else {
      throw .invalidOptions("A per-account run needs read.accounts set to .field or .fileName.")
    }
    if options.read.lacksAccountMapping {
      throw .invalidOptions("The schema maps no account field; map one (CanonicalField.account).")
    }
    if options.dedupe {
      guard !fingerprinting else {
        throw .invalidOptions(
          "dedupe cannot write a per-account partial: which record wins for an id depends on every shard.")
      }
      // The key is the account and the id: the same id in two accounts is two transactions.
      let (pipeline, again) = try deduplicating(inputs)
      return try pipeline.runPerAccount(inputs: again)
    }
    if options.sortedByAccount {
      guard !fingerprinting else {
        throw .invalidOptions(
          "sortedByAccount cannot write a per-account partial: its header names the inputs' fingerprints, "
            + "known only once every account is written.")
      }
      return runSortedPerAccount(inputs: inputs)
    }
    let next = { () throws(PipelineError) in try inputs.next() }
    let store = AccountRunStore(
      temporaryParent: options.temporaryDirectory, memberLimit: options.memberLimit,
      memoryLimit: options.memoryLimit
    ) { [onTemporaryDirectory] in
      onTemporaryDirectory?($0)
    }
    // On failure the runs' directory goes at once: the last reference to the
    // store may be dropped on a worker thread after this process has exited.
    let folded:
      (
        table: GroupTable, stats: RunStats, sample: [RecordRejection], inputs: [InputFingerprint], overflowed: Bool
      )
    do throws(PipelineError) {
      let budget = max(1, options.memoryLimit / max(1, options.threads))
      folded = try fold(
        names: names, fingerprinting: fingerprinting, tables: .accountRuns(store, budget: budget), next: next)
    } catch {
      store.remove()
      throw error
    }
    // The workers' tables are written out and freed: their memory goes back before the merge allocates its own.
    if store.runCount > 0 { MemoryRelease.trim() }
    // A shard whose records were all rejected is normal; only a report (or the merge) judges.
    if !fingerprinting {
      do throws(PipelineError) {
        try options.read.judge(folded.stats, sample: folded.sample)
      } catch {
        store.remove()
        throw error
      }
    }
    guard store.runCount > 0 else {
      store.remove()
      return AccountReportCursor(table: folded.table, stats: folded.stats, options: options, inputs: folded.inputs)
    }
    do throws(PartialStateError) {
      let merger = try AccountRunMerger(readers: store.readers(of: store.takeRuns()), memberLimit: options.memberLimit)
      return AccountReportCursor(
        merger: merger, store: store, stats: folded.stats, options: options, inputs: folded.inputs)
    } catch {
      store.remove()
      throw .accountMerge(error)
    }
  }

  /// `runPerAccount` over input sorted by account (`options.sortedByAccount`):
  /// the fold runs on a thread of its own and the cursor hands each account
  /// out once it has ended, while the fold goes on; nothing goes to disk.
  /// `onRejection` and `onProgress` are called on that thread, in input order.
  private func runSortedPerAccount(inputs: RunInputs) -> AccountReportCursor {
    // Only the fold's thread uses them until the stream has ended (`SortedAccountStream.stop()` waits for it).
    let job = HandOff((pipeline: self, inputs: inputs))
    let budget = max(1, options.memoryLimit / 4)
    let stream = SortedAccountStream(depth: Self.sortedStreamDepth, budget: budget) {
      (stream) throws(PipelineError) -> RunStats in
      var inputs = job.value.inputs
      let pipeline = job.value.pipeline
      let stage = SortedAccountStage(stream: stream)
      let folded = try pipeline.fold(names: inputs.names, tables: .handedOn(stage)) { () throws(PipelineError) in
        try inputs.next()
      }
      try stage.finish()
      try pipeline.options.read.judge(folded.stats, sample: folded.sample)
      return folded.stats
    }
    return AccountReportCursor(stream: stream, options: options)
  }

  /// How many finished chunks' accounts may wait for the cursor before the
  /// fold waits (and no more than a quarter of `memoryLimit` of them, beyond the first).
  static let sortedStreamDepth = 4
}
