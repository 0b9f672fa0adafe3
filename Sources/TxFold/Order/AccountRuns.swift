/// The per-account fold's runs on disk: each a per-account table written out
/// in account order (`AccountRunCodec`) when it passed its share of the
/// memory limit, read back by `AccountRunMerger`; kept in a `SpillStore`,
/// which merges the smallest half into one, account by account, when it
/// holds `openRunLimit`.
final class AccountRunStore: Sendable {
  let store: SpillStore
  /// Members kept per group (the merge of a pass keeps the same).
  private let memberLimit: Int
  /// The run's memory limit, which sizes a pass's read buffers.
  private let memoryLimit: Int

  init(
    temporaryParent: String?, memberLimit: Int, memoryLimit: Int, openRunLimit: Int = SpillDirectory.openRunLimit,
    register: @escaping (String) -> Void
  ) {
    store = SpillStore(temporaryParent: temporaryParent, openRunLimit: openRunLimit, register: register)
    self.memberLimit = memberLimit
    self.memoryLimit = memoryLimit
  }

  /// How many runs were written, the merge passes' included (0: the fold stayed in memory).
  var runCount: Int { store.filesMade }

  /// Writes every group of `table` (a per-account table) as one run, in
  /// account order, then empties the table; with `refilling`, the table
  /// keeps its groups' small storage for the groups it folds next.
  ///
  /// - Complexity: O(a log a + g log g + m) for a accounts, g groups and m kept members.
  func spill(_ table: GroupTable, refilling: Bool = true) throws(AccountRunFailure) {
    let file: SpillFile
    do throws(SpillError) {
      file = try store.makeFile()
      var out: [UInt8] = []
      out.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
      let names = table.accounts.strings
      var scratch = RawScratch()
      let accounts = table.groupsByAccount()
      for (position, (account, groups)) in accounts.enumerated() {
        // The accumulators four accounts ahead, and the storage of those whose
        // accumulators were asked for two accounts ago (`GroupTable+Prefetch.swift`).
        if position + 4 < accounts.count { table.prefetchAccumulators(accounts[position + 4].groups) }
        if position + 2 < accounts.count { table.prefetchStorage(accounts[position + 2].groups) }
        try AccountRunCodec.appendBlock(
          account: names[Int(account)], table: table, groups: groups, to: &out, scratch: &scratch
        ) { (bytes: inout [UInt8]) throws(SpillError) in try file.append(bytes: &bytes) }
      }
      try file.append(bytes: &out)
      try file.finishWriting()
    } catch {
      throw .spill(error)
    }
    // A table folding on keeps its room (counted by `estimatedBytes`): it
    // fills to about the same size again.
    table.removeAllGroups(keepingCapacity: refilling, recycling: refilling)
    try store.add(file) { (batch) throws(AccountRunFailure) in try merge(batch) }
  }

  /// Merges `readers` (per-account partials, say) account by account into
  /// one new run, and holds it as `spill` holds a table's.
  func append(merging readers: [any AccountBlockSource]) throws(AccountRunFailure) {
    let file = try write(merging: readers)
    try store.add(file) { (batch) throws(AccountRunFailure) in try merge(batch) }
  }

  /// Merges `batch` into one new run, account by account. A pass may run
  /// while the workers' tables fill the memory limit, so its buffers take a
  /// quarter of the final merge's share.
  private func merge(_ batch: [SpillFile]) throws(AccountRunFailure) -> SpillFile {
    try write(merging: readers(of: batch, memoryLimit: memoryLimit / 4))
  }

  /// Readers of `runs`, their buffers sized for reading all of them at once
  /// (`AccountRunReader.bufferSize`, by default within the store's memory limit).
  func readers(of runs: [SpillFile], memoryLimit: Int? = nil) -> [AccountRunReader] {
    let size = AccountRunReader.bufferSize(runs: runs.count, memoryLimit: memoryLimit ?? self.memoryLimit)
    return runs.map { AccountRunReader($0, bufferSize: size) }
  }

  /// Merges `readers` account by account into one new run.
  private func write(merging readers: [any AccountBlockSource]) throws(AccountRunFailure) -> SpillFile {
    let file: SpillFile
    do throws(SpillError) {
      file = try store.makeFile()
    } catch {
      throw .spill(error)
    }
    var out: [UInt8] = []
    out.reserveCapacity(BufferFlushing.threshold + BufferFlushing.threshold / 4)
    var scratch = RawScratch()
    var writeFailure: SpillError?
    do throws(PartialStateError) {
      let merger = try AccountRunMerger(readers: readers, memberLimit: memberLimit)
      while writeFailure == nil, let account = try merger.nextAccount() {
        let groups = Array(merger.table.groups.indices)[...]
        do throws(SpillError) {
          try AccountRunCodec.appendBlock(
            account: account, table: merger.table, groups: groups, to: &out, scratch: &scratch
          ) { (bytes: inout [UInt8]) throws(SpillError) in try file.append(bytes: &bytes) }
        } catch {
          writeFailure = error
        }
      }
    } catch {
      throw .merge(error)
    }
    if let writeFailure { throw .spill(writeFailure) }
    do throws(SpillError) {
      try file.append(bytes: &out)
      try file.finishWriting()
    } catch {
      throw .spill(error)
    }
    return file
  }

  /// Takes the runs, for reading back (after every worker has stopped):
  /// fewer than `openRunLimit` plus one per worker.
  func takeRuns() -> [SpillFile] { store.takeRuns() }

  /// Drops the runs and removes the (empty) directory, if one was made.
  func remove() { store.remove() }
}

/// Why the per-account fold's runs failed: their storage, or a merge pass
/// (a damaged run, a count or total that overflows when merged).
enum AccountRunFailure: Error {
  case spill(SpillError)
  case merge(PartialStateError)
}

/// Where `AccountRunMerger` takes blocks from: a binary spill run or a
/// per-account partial, read a group at a time.
protocol AccountBlockSource: AnyObject {
  /// The next block's account and how many groups follow; `nil` after the last.
  func nextAccount() throws(PartialStateError) -> (account: [UInt8], groups: Int)?
  /// Merges the next group of the block whose account was read last into `table`.
  func mergeNextGroup(into table: GroupTable) throws(PartialStateError)
  /// The source's name, for messages.
  var name: String { get }
  /// Where the last block started (a line, or a block number in a run).
  var blockLine: Int { get }
}

/// Merges sources of account blocks, each in account order, into one stream
/// of accounts in order: every account once, with the groups all sources
/// hold for it merged into `table` (which is emptied before each account).
///
/// Memory: each source's next account id, one group at a time, and one
/// account's merged groups — not a block per source, which for a corporate
/// account present in every run would be that account many times over.
/// Time: the sources wait in a `KWayMerge` on their next account (ties by
/// source number), so choosing an account costs O(log sources), not a scan
/// of every source twice: a large export at a small limit makes hundreds of runs.
final class AccountRunMerger {
  private let merge: KWayMerge<AccountBlockCursor>
  /// The table each account's groups are merged into; read it in `body`.
  let table: GroupTable

  init(readers: [any AccountBlockSource], memberLimit: Int) throws(PartialStateError) {
    merge = KWayMerge(cursors: readers.enumerated().map { AccountBlockCursor($1, number: $0) })
    table = GroupTable(memberLimit: memberLimit)
    try merge.start()
  }

  /// Merges the next account's groups (in byte-wise order of the ids) into
  /// `table`, emptied first, and returns the account; `nil` after the last.
  ///
  /// - Throws: `PartialStateError` for a damaged run or an account out of
  ///   order, or an overflow of a merged count or total.
  func nextAccount() throws(PartialStateError) -> [UInt8]? {
    table.removeAllGroups()
    return try nextAccount(into: table)
  }

  /// Merges the next account's groups into `target` under that account's
  /// number there (a per-account table may hold several accounts: a batch
  /// written together), and returns the account; `nil` after the last. The
  /// account's groups are the ones `target` gains.
  func nextAccount(into target: GroupTable) throws(PartialStateError) -> [UInt8]? {
    guard let first = merge.first, let head = merge.heads[first] else { return nil }
    let account = head.account
    target.setAccount(number: UInt32(truncatingIfNeeded: target.accounts.intern(account)))
    // Every source whose next account is this one, in source order (the
    // heads break ties by number), as the scan over all sources took them.
    while let index = merge.first, let current = merge.heads[index], ByteOrder.compare(current.account, account) == 0 {
      let source = merge.cursors[index].source
      for _ in 0..<current.groups { try source.mergeNextGroup(into: target) }
      try merge.advanceFirst()
      if let next = merge.heads[index], !ByteOrder.precedes(account, next.account) {
        let name = String(decoding: next.account, as: UTF8.self)
        throw .malformed(
          file: source.name, line: source.blockLine,
          detail: ByteOrder.compare(account, next.account) == 0
            ? "account '\(name)' repeated: a partial holds one block per account"
            : "accounts out of order: '\(name)' after '\(String(decoding: account, as: UTF8.self))'")
      }
    }
    return account
  }
}

/// A source of account blocks as the merge reads it: its next account, and
/// how many groups follow it there.
final class AccountBlockCursor: MergeCursor {
  typealias Entry = Head
  typealias Failure = PartialStateError
  struct Head {
    /// The account's first sixteen bytes as integers (`GroupTable.sortKey`), compared before the whole id.
    let key: (UInt64, UInt64)
    let account: [UInt8]
    let groups: Int
    /// The source's number, the last tie-break.
    let source: Int
  }

  let source: any AccountBlockSource
  private let number: Int

  init(_ source: any AccountBlockSource, number: Int) {
    self.source = source
    self.number = number
  }

  func next() throws(PartialStateError) -> Head? {
    guard let next = try source.nextAccount() else { return nil }
    return Head(key: GroupTable.sortKey(next.account), account: next.account, groups: next.groups, source: number)
  }

  static func precedes(_ lhs: Head, _ rhs: Head) -> Bool {
    if lhs.key != rhs.key { return lhs.key < rhs.key }
    let order = ByteOrder.compare(lhs.account, rhs.account)
    return order < 0 || (order == 0 && lhs.source < rhs.source)
  }
}
