/// One account's grouped view: what `group --per-account` prints for it.
public struct AccountReport: Sendable, Hashable {
  /// The account id as written (a JSON number's decimal text).
  public var account: String
  /// The account's transactions, all of them (the sum of its groups' counts).
  public var count: Int
  /// The account's sections, ordered as a whole report's (`GroupReport.sections`).
  public var sections: [ReportSection]

  /// Creates an account's report.
  public init(account: String, count: Int, sections: [ReportSection]) {
    self.account = account
    self.count = count
    self.sections = sections
  }
}

/// The accounts of a per-account `group` run, handed out one at a time in
/// byte-wise order of their ids (`GroupPipeline.runPerAccount(paths:)`).
///
/// The fold is over when the cursor exists: `stats` holds the run's
/// accounting, and `stats.accounts` the number of accounts once the last one
/// was handed out. When the fold went to disk, each `next()` merges one
/// account from the runs, so memory holds one account at a time.
///
/// ```swift
/// let cursor = try GroupPipeline(options: options).runPerAccount(paths: ["export.jsonl.gz"])
/// while let account = try cursor.next() { print(account.account, account.count) }
/// ```
public final class AccountReportCursor {
  /// The run's accounting; `accounts` is set once `next()` returned `nil`.
  public private(set) var stats: RunStats
  /// How many runs the fold wrote to disk (0 when it stayed within the memory limit).
  public let spilledRuns: Int
  private let members: Bool
  private enum Source {
    case memory(GroupTable, [(account: UInt32, groups: ArraySlice<Int>)])
    case runs(AccountRunMerger, AccountRunStore)
  }
  private let source: Source
  private var position = 0

  init(table: GroupTable, stats: RunStats, members: Bool) {
    self.stats = stats
    self.members = members
    spilledRuns = 0
    source = .memory(table, table.groupsByAccount())
  }

  init(merger: AccountRunMerger, store: AccountRunStore, stats: RunStats, members: Bool) {
    self.stats = stats
    self.members = members
    spilledRuns = store.runCount
    source = .runs(merger, store)
  }

  /// The next account, or `nil` after the last.
  public func next() throws(PipelineError) -> AccountReport? {
    let report: AccountReport?
    switch source {
    case .memory(let table, let order):
      guard position < order.count else {
        report = nil
        break
      }
      let (account, groups) = order[position]
      report = Self.report(
        account: table.accounts.strings[Int(account)], table: table, groups: groups, members: members)
    case .runs(let merger, let store):
      let account: [UInt8]?
      do throws(PartialStateError) {
        account = try merger.nextAccount()
      } catch {
        throw .accountMerge(error)
      }
      if let account {
        report = Self.report(
          account: account, table: merger.table, groups: merger.table.groups.indices[...], members: members)
      } else {
        store.remove()
        report = nil
      }
    }
    if report == nil {
      stats.accounts = position
    } else {
      position += 1
    }
    return report
  }

  static func report<S: Sequence<Int>>(account: [UInt8], table: GroupTable, groups: S, members: Bool)
    -> AccountReport
  {
    var count = 0
    for index in groups { count += table.groups[index].count }
    return AccountReport(
      account: String(decoding: account, as: UTF8.self), count: count,
      sections: table.sections(of: groups, members: members))
  }
}

extension GroupPipeline {
  /// Runs the job per account (`options.read.accounts` must not be `.none`):
  /// reads and folds every input, then hands the accounts out in order.
  ///
  /// The fold keeps about `options.memoryLimit` bytes of tables, whatever the
  /// number of accounts; past it, workers write their tables to temporary
  /// files, which the cursor merges. The accounts and their bytes do not
  /// depend on the memory limit, the thread count or the input's order.
  /// - Complexity: O(input bytes + g log g); memory O(`memoryLimit` + threads × chunk size).
  public func runPerAccount(paths: [String]) throws(PipelineError) -> AccountReportCursor {
    var inputs = try RunInputs(paths: paths)
    return try runPerAccount(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  /// Runs the job per account over already opened sources, in order.
  public func runPerAccount(sources: [any ByteSource]) throws(PipelineError) -> AccountReportCursor {
    var inputs = RunInputs(sources: sources)
    return try runPerAccount(names: inputs.names) { () throws(PipelineError) in try inputs.next() }
  }

  func runPerAccount(
    names: [String], next: () throws(PipelineError) -> (any ByteSource)?
  ) throws(PipelineError) -> AccountReportCursor {
    guard options.read.accounts != .none else {
      throw .invalidOptions("A per-account run needs read.accounts set to .field or .fileName.")
    }
    guard !options.dedupe else {
      throw .invalidOptions("dedupe cannot be combined with a per-account run.")
    }
    if options.read.lacksAccountMapping {
      throw .invalidOptions("The schema maps no account field; map one (CanonicalField.account).")
    }
    let store = AccountRunStore(temporaryParent: options.temporaryDirectory) { [onTemporaryDirectory] in
      onTemporaryDirectory?($0)
    }
    let folded = try fold(names: names, accountRuns: store, next: next)
    if options.read.requireAcceptedRecords, let failure = NothingAccepted(stats: folded.stats, sample: folded.sample) {
      throw .nothingAccepted(failure)
    }
    guard store.runCount > 0 else {
      store.remove()
      return AccountReportCursor(table: folded.table, stats: folded.stats, members: options.reportMembers)
    }
    let settings = PartialSettings(options: options, schema: "")
    do throws(PartialStateError) {
      let readers = store.finishedRuns.map { AccountBlockReader(SpillFileSource($0), settings: settings) }
      let merger = try AccountRunMerger(readers: readers, memberLimit: options.memberLimit)
      return AccountReportCursor(merger: merger, store: store, stats: folded.stats, members: options.reportMembers)
    } catch {
      throw .accountMerge(error)
    }
  }
}
