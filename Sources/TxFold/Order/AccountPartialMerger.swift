/// Merges per-account partials (`txfold group --per-account --emit partial`)
/// account by account: `txfold merge --per-account`.
///
/// Every input is one per-account partial, in account order. The merger reads
/// each header first — the settings must agree and no input may have been
/// folded twice — then walks the partials together like a merge sort, so
/// memory holds one block per input and one account's merged groups, however
/// many accounts there are. `stats` is the sum of the partials' accounting
/// once `next()` has returned `nil`.
///
/// Any number of partials: each open partial is a descriptor, so past
/// `SpillDirectory.openRunLimit` of them (`init(paths:)`) the partials are
/// merged in passes — a batch at a time, each batch into one run in a private
/// temporary directory (`AccountRunStore`, with `SpillDirectory`'s
/// guarantees), the runs in turn merged in passes as they add up — and the
/// last pass reads the runs. The bytes are those of one merge over all; each
/// batch's headers are checked before its accounts are read.
///
/// ```swift
/// let merger = try AccountPartialMerger(paths: ["part-0.jsonl", "part-1.jsonl.gz"])
/// while let account = try merger.next() { print(account.account, account.count) }
/// ```
public final class AccountPartialMerger {
  /// The settings every partial was folded with.
  package let settings: PartialSettings
  /// The fingerprints of every input the partials were folded from.
  package let inputs: [InputFingerprint]
  /// Where the partials took accounts from: `field` or `file name`.
  public let accountSource: String
  /// The merged accounting; complete (with `accounts`) once `next()` returned `nil`.
  public private(set) var stats = RunStats()
  /// The partials the merger reads itself (none when they were merged in passes).
  private let headers: [AccountPartialHeader]
  private let readers: [AccountBlockReader]
  /// The accounting of the partials merged in passes, already checked.
  private let passedStats: RunStats
  /// The runs of the passes, when there were passes; removed at the end.
  private let store: AccountRunStore?
  private let merger: AccountRunMerger
  private var accounts = 0
  private var finished = false

  /// Opens every partial (`-` is standard input; gzip is detected from the
  /// content) and reads its header. Every file is checked to open before any
  /// is read (a FIFO by `stat(2)` only: `FileSource.openToCheck`). More
  /// partials than `SpillDirectory.openRunLimit` are merged in passes through
  /// a private directory made in `temporaryDirectory` (default `$TMPDIR`,
  /// else `/tmp`); `onTemporaryDirectory` is called with its path as it is
  /// made, for removal on an interrupt.
  public convenience init(
    paths: [String], temporaryDirectory: String? = nil, onTemporaryDirectory: @escaping (String) -> Void = { _ in }
  ) throws(PartialStateError) {
    try self.init(
      paths: paths, openLimit: SpillDirectory.openRunLimit, temporaryDirectory: temporaryDirectory,
      onTemporaryDirectory: onTemporaryDirectory)
  }

  /// `init(paths:)` holding at most `openLimit` partials open at once (and
  /// about as many runs).
  convenience init(
    paths: [String], openLimit: Int, temporaryDirectory: String?, onTemporaryDirectory: @escaping (String) -> Void
  ) throws(PartialStateError) {
    for path in paths where path != "-" {
      do throws(InputError) {
        _ = try FileSource.openToCheck(path: path)
      } catch {
        throw .input(error)
      }
    }
    guard paths.count > openLimit else {
      try self.init(sources: try Self.open(paths))
      return
    }
    // A batch of partials open at once, merged into one run; the store holds at most `openLimit` runs
    // (made once the first header names the members to keep).
    var store: AccountRunStore?
    var check = HeaderCheck()
    var total = RunStats()
    let batchSize = max(2, openLimit / 2)
    do throws(PartialStateError) {
      var start = 0
      while start < paths.count {
        let batch = Array(paths[start..<min(paths.count, start + batchSize)])
        start += batch.count
        var readers: [AccountBlockReader] = []
        var headers: [AccountPartialHeader] = []
        for source in try Self.open(batch) {
          let reader = AccountBlockReader(source, settings: PartialSettings.readingHeader)
          let header = try reader.readHeader()
          try check.admit(header)
          readers.append(reader)
          headers.append(header)
        }
        let runs =
          store
          ?? AccountRunStore(
            temporaryParent: temporaryDirectory, memberLimit: check.memberLimit, memoryLimit: Self.passMemory,
            openRunLimit: openLimit, register: onTemporaryDirectory)
        store = runs
        do throws(AccountRunFailure) {
          try runs.append(merging: readers)
        } catch {
          throw Self.partialError(error)
        }
        for (reader, header) in zip(readers, headers) {
          try total.add(try reader.finish(hasInputs: !header.inputs.isEmpty))
        }
      }
      try self.init(check: check, headers: [], readers: [], passed: store.map { (total, $0) })
    } catch {
      store?.remove()
      throw error
    }
  }

  /// Reads the header of each source, each one per-account partial.
  ///
  /// - Throws: `PartialStateError` for no input, a malformed header, settings
  ///   that differ from the first partial's, or an input folded twice.
  public convenience init(sources: [any ByteSource]) throws(PartialStateError) {
    guard !sources.isEmpty else { throw .malformed(file: "-", line: 1, detail: "no input was given") }
    var check = HeaderCheck()
    var headers: [AccountPartialHeader] = []
    var readers: [AccountBlockReader] = []
    for source in sources {
      let reader = AccountBlockReader(source, settings: PartialSettings.readingHeader)
      let header = try reader.readHeader()
      try check.admit(header)
      headers.append(header)
      readers.append(reader)
    }
    try self.init(check: check, headers: headers, readers: readers, passed: nil)
  }

  /// The merger over `readers` (whose headers `check` admitted), or over the
  /// runs of `passed`'s store when the partials were merged in passes.
  private init(
    check: HeaderCheck, headers: [AccountPartialHeader], readers: [AccountBlockReader],
    passed: (stats: RunStats, store: AccountRunStore)?
  ) throws(PartialStateError) {
    // Safe because every path admits at least one header.
    guard let first = check.first else { throw .malformed(file: "-", line: 1, detail: "no input was given") }
    self.headers = headers
    self.readers = readers
    settings = first.settings
    accountSource = first.accounts
    inputs = check.seen.keys.sorted()
    passedStats = passed?.stats ?? RunStats()
    store = passed?.store
    let sources: [any AccountBlockSource] = passed.map { $0.store.readers(of: $0.store.takeRuns()) } ?? readers
    merger = try AccountRunMerger(readers: sources, memberLimit: first.settings.memberLimit)
  }

  /// What a pass's read buffers may take together (`AccountRunReader.bufferSize`).
  private static let passMemory = 64 << 20

  /// Opens `paths` (`-` is standard input).
  private static func open(_ paths: [String]) throws(PartialStateError) -> [any ByteSource] {
    var sources: [any ByteSource] = []
    for path in paths {
      do throws(InputError) {
        sources.append(try InputOpener.open(path: path))
      } catch {
        throw .input(error)
      }
    }
    return sources
  }

  /// A pass's failure as the merge reports it.
  private static func partialError(_ failure: AccountRunFailure) -> PartialStateError {
    switch failure {
    case .spill(let error): return .temporaryStorage(error.description)
    case .merge(let error): return error
    }
  }

  /// The checks across headers: every setting as the first partial's, and no
  /// input folded into two partials.
  private struct HeaderCheck {
    var first: AccountPartialHeader?
    var seen: [InputFingerprint: AccountPartialHeader] = [:]
    var memberLimit: Int { first?.settings.memberLimit ?? 0 }

    mutating func admit(_ header: AccountPartialHeader) throws(PartialStateError) {
      if let first {
        if let difference = header.settings.difference(from: first.settings) {
          throw .mismatch(
            setting: difference.setting, file: header.file, line: header.line, value: difference.mine,
            referenceFile: first.file, referenceLine: first.line, referenceValue: difference.theirs)
        }
        if header.accounts != first.accounts {
          throw .mismatch(
            setting: "accounts", file: header.file, line: header.line, value: header.accounts,
            referenceFile: first.file, referenceLine: first.line, referenceValue: first.accounts)
        }
      } else {
        first = header
      }
      for input in header.inputs {
        if let earlier = seen[input] {
          throw .duplicateInput(
            file: header.file, line: header.line, referenceFile: earlier.file, referenceLine: earlier.line,
            input: input.description)
        }
        seen[input] = header
      }
    }
  }

  /// The next account's report (members kept unless `members` is false), or
  /// `nil` after the last, when `stats` is complete.
  ///
  /// - Throws: `PartialStateError` for a malformed or truncated partial,
  ///   accounts out of order, or an overflowing count or total.
  public func next(members: Bool = true) throws(PartialStateError) -> AccountReport? {
    guard let account = try nextAccount() else { return nil }
    return merger.table.accountReport(account: account, groups: merger.table.groups.indices, members: members)
  }

  /// Writes the merge as one per-account partial, to `flush` as the buffer fills.
  ///
  /// - Throws: the `PartialStateError` of reading or merging the partials, or
  ///   what `flush` threw, as it is.
  public func writePartial(flush: (inout [UInt8]) throws -> Void) throws {
    try AccountPartialWriteError.untyped { () throws(AccountPartialWriteError<any Error>) in
      try writePartial(typedFlush: flush)
    }
  }

  /// `writePartial(flush:)`, with the merge's failure and `flush`'s told apart by type.
  package func writePartial<E: Error>(typedFlush flush: (inout [UInt8]) throws(E) -> Void)
    throws(AccountPartialWriteError<E>)
  {
    var writer = AccountPartialWriter()
    writer.begin(settings: settings, inputs: inputs, accounts: accountSource)
    while true {
      let account: [UInt8]?
      do throws(PartialStateError) {
        account = try nextAccount()
      } catch {
        throw .partial(error)
      }
      do throws(E) {
        if let account {
          try writer.write(account: account, table: merger.table, groups: merger.table.groups.indices, flush: flush)
        } else {
          try writer.finish(stats: stats, flush: flush)
          return
        }
      } catch {
        throw .output(error)
      }
    }
  }

  /// Merges the next account into `merger.table`; at the end, checks every
  /// partial's `stats` line and adds them up.
  private func nextAccount() throws(PartialStateError) -> [UInt8]? {
    guard !finished else { return nil }
    if let account = try merger.nextAccount() {
      accounts += 1
      return account
    }
    finished = true
    store?.remove()
    var total = passedStats
    for (reader, header) in zip(readers, headers) {
      try total.add(try reader.finish(hasInputs: !header.inputs.isEmpty))
    }
    total.accounts = accounts
    stats = total
    return nil
  }
}

/// Why writing a merged per-account partial stopped: the partials could not
/// be read or merged, or the output failed.
package enum AccountPartialWriteError<Output: Error>: Error {
  /// A partial or a spill run could not be read, or did not merge.
  case partial(PartialStateError)
  /// `flush` failed.
  case output(Output)
}

extension AccountPartialWriteError where Output == any Error {
  /// Runs `write`, the typed `writePartial(typedFlush:)` of the public
  /// `writePartial(flush:)`, which throws the error itself: the merge's, or `flush`'s.
  static func untyped(_ write: () throws(Self) -> Void) throws {
    do throws(Self) {
      try write()
    } catch {
      switch error {
      case .partial(let error): throw error
      case .output(let error): throw error
      }
    }
  }
}

extension AccountBlockReader: AccountBlockSource {
  func mergeNextGroup(into table: GroupTable) throws(PartialStateError) {
    let group = try nextGroup()
    do throws(PartialGroup.MergeError) {
      try table.merge(group)
    } catch {
      throw .overflow(what: error.what)
    }
  }
}
