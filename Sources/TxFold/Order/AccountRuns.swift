import Foundation

/// The per-account fold's runs on disk: each a per-account table written out
/// in account order (`AccountBlocks`) when it passed its share of the memory
/// limit, read back by `AccountRunMerger`.
///
/// Workers spill at the same time, each its own table to its own file, so
/// creating a file is locked. The directory is made on the first spill, with
/// `SpillDirectory`'s guarantees: private (0700), files opened exclusively
/// and unlinked at once, nothing left behind on any exit.
///
/// Each run is an open descriptor, so the store holds at most about
/// `openRunLimit` of them: when a spill reaches it, the smallest half is merged
/// into one run (account by account, as the final merge reads them) before the
/// worker goes on. One such pass runs at a time, so the descriptors held stay
/// within the limit, the half being merged and one per worker spilling meanwhile.
final class AccountRunStore: @unchecked Sendable {
  // Unchecked: `directory`, `runs` and `written` change only under `lock`;
  // `merging` serialises the merge passes.
  private let lock = NSLock()
  private let merging = NSLock()
  private let temporaryParent: String?
  private let register: (String) -> Void
  private var directory: SpillDirectory?
  /// The runs held now, in the order they were finished (a merged run after those it replaced).
  private var runs: [SpillFile] = []
  /// Runs written so far, the merge passes' included.
  private var written = 0
  /// The most runs held open at once; past it the smallest half is merged into one.
  let openRunLimit: Int
  /// Members kept per group (the merge of a pass keeps the same).
  private let memberLimit: Int
  /// The run's memory limit, which sizes a pass's read buffers.
  private let memoryLimit: Int

  init(
    temporaryParent: String?, memberLimit: Int, memoryLimit: Int, openRunLimit: Int = SpillDirectory.openRunLimit,
    register: @escaping (String) -> Void
  ) {
    self.temporaryParent = temporaryParent
    self.memberLimit = memberLimit
    self.memoryLimit = memoryLimit
    self.openRunLimit = max(4, openRunLimit)
    self.register = register
  }

  /// How many runs were written, the merge passes' included (0: the fold stayed in memory).
  var runCount: Int { lock.withLock { written } }

  /// Writes every group of `table` (a per-account table) as one run, in
  /// account order, then empties the table; with `refilling`, the table
  /// keeps its groups' small storage for the groups it folds next. When the
  /// store then holds `openRunLimit` runs, merges the smallest half into one.
  ///
  /// - Complexity: O(a log a + g log g + m) for a accounts, g groups and m kept members.
  func spill(_ table: GroupTable, refilling: Bool = true) throws(AccountRunFailure) {
    let file: SpillFile
    do throws(SpillError) {
      file = try makeFile()
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
    lock.withLock { runs.append(file) }
    try mergeIfFull()
  }

  /// Merges the smallest half of the runs into one when the store holds `openRunLimit`.
  private func mergeIfFull() throws(AccountRunFailure) {
    merging.lock()
    defer { merging.unlock() }
    let batch: [SpillFile] = lock.withLock {
      guard runs.count >= openRunLimit else { return [] }
      // Any subset merges to the same accounts: a merge does not depend on the runs' order.
      let chosen = SpillDirectory.smallest(openRunLimit / 2, of: runs.map(\.size))
      let taken = chosen.map { runs[$0] }
      for index in chosen.reversed() { runs.remove(at: index) }
      return taken
    }
    guard !batch.isEmpty else { return }
    let merged = try merge(batch)
    lock.withLock { runs.append(merged) }
  }

  /// Merges `readers` (per-account partials, say) account by account into
  /// one new run, then merges the smallest half of the runs into one when the
  /// store holds `openRunLimit`, as `spill` does.
  func append(merging readers: [any AccountBlockSource]) throws(AccountRunFailure) {
    let file = try write(merging: readers)
    lock.withLock { runs.append(file) }
    try mergeIfFull()
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
    return runs.map { AccountRunReader(SpillFileSource($0), bufferSize: size) }
  }

  /// Merges `readers` account by account into one new run.
  private func write(merging readers: [any AccountBlockSource]) throws(AccountRunFailure) -> SpillFile {
    let file: SpillFile
    do throws(SpillError) {
      file = try makeFile()
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

  private func makeFile() throws(SpillError) -> SpillFile {
    lock.lock()
    defer { lock.unlock() }
    written += 1
    if let directory { return try directory.makeFile(header: []) }
    let created = try SpillDirectory(parent: temporaryParent ?? SpillDirectory.defaultParent, register: register)
    directory = created
    return try created.makeFile(header: [])
  }

  /// The runs, for reading back (after every worker has stopped): fewer than
  /// `openRunLimit` plus one per worker.
  var finishedRuns: [SpillFile] { lock.withLock { runs } }

  /// Drops the runs and removes the (empty) directory, if one was made.
  func remove() {
    lock.withLock {
      runs.removeAll()
      directory?.remove()
    }
  }

  deinit { directory?.remove() }
}

/// Why the per-account fold's runs failed: their storage, or a merge pass
/// (a damaged run, a count or total that overflows when merged).
enum AccountRunFailure: Error {
  case spill(SpillError)
  case merge(PartialStateError)
}

/// A spill run read as a byte source (front to back, `pread`).
final class SpillFileSource: ByteSource {
  let file: SpillFile
  /// The name in messages: the file's, or the input it is a copy of.
  let name: String
  private var offset: Int64 = 0
  init(_ file: SpillFile, name: String? = nil) {
    self.file = file
    self.name = name ?? file.name
  }
  var storedBytesRead: Int64 { offset }
  var storedSize: Int64? { file.size }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let wanted = Int(min(Int64(buffer.count), file.size - offset))
    guard wanted > 0 else { return 0 }
    do throws(SpillError) {
      let read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
      offset += Int64(read)
      return read
    } catch {
      throw .readFailed(path: file.name, reason: error.description)
    }
  }
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
/// Time: the sources wait in a binary heap on their next account (ties by
/// source number), so choosing an account costs O(log sources), not a scan
/// of every source twice: a large export at a small limit makes hundreds of runs.
final class AccountRunMerger {
  private let readers: [any AccountBlockSource]
  /// Each reader's next account and its group count (meaningful while the
  /// reader is in `heap`).
  /// Unchecked exclusivity: only the merging thread touches a merger, and the
  /// heap reads these for every comparison.
  @exclusivity(unchecked) private var accounts: [[UInt8]]
  @exclusivity(unchecked) private var groupCounts: [Int]
  /// Each reader's next account's first sixteen bytes as integers
  /// (`GroupTable.sortKey`), compared before the whole ids.
  @exclusivity(unchecked) private var keys: [(UInt64, UInt64)]
  /// The readers not done yet, a min-heap on (next account, reader number).
  @exclusivity(unchecked) private var heap: [Int] = []
  /// The table each account's groups are merged into; read it in `body`.
  let table: GroupTable

  init(readers: [any AccountBlockSource], memberLimit: Int) throws(PartialStateError) {
    self.readers = readers
    accounts = Array(repeating: [], count: readers.count)
    groupCounts = Array(repeating: 0, count: readers.count)
    keys = Array(repeating: (0, 0), count: readers.count)
    table = GroupTable(memberLimit: memberLimit)
    for index in readers.indices {
      guard let head = try readers[index].nextAccount() else { continue }
      setHead(index, account: head.account, groups: head.groups)
    }
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
    guard let first = heap.first else { return nil }
    let account = accounts[first]
    target.setAccount(number: UInt32(truncatingIfNeeded: target.accounts.intern(account)))
    // Every reader whose next account is this one, in reader order (the heap
    // breaks ties by number), as the scan over all readers took them.
    while let index = heap.first, ByteOrder.compare(accounts[index], account) == 0 {
      popFirst()
      for _ in 0..<groupCounts[index] { try readers[index].mergeNextGroup(into: target) }
      guard let next = try readers[index].nextAccount() else { continue }
      if !ByteOrder.precedes(account, next.account) {
        throw .malformed(
          file: readers[index].name, line: readers[index].blockLine,
          detail: "accounts out of order: '\(String(decoding: next.account, as: UTF8.self))' after "
            + "'\(String(decoding: account, as: UTF8.self))'")
      }
      setHead(index, account: next.account, groups: next.groups)
    }
    return account
  }

  private func setHead(_ index: Int, account: [UInt8], groups: Int) {
    accounts[index] = account
    groupCounts[index] = groups
    keys[index] = GroupTable.sortKey(account)
    push(index)
  }

  /// Whether reader `a` comes before reader `b` in the heap.
  private func comesFirst(_ a: Int, _ b: Int) -> Bool {
    let (left, right) = (keys[a], keys[b])
    if left != right { return left < right }
    let order = ByteOrder.compare(accounts[a], accounts[b])
    return order < 0 || (order == 0 && a < b)
  }

  private func push(_ index: Int) {
    heap.append(index)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard comesFirst(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func popFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count && comesFirst(heap[left], heap[first]) { first = left }
      if right < heap.count && comesFirst(heap[right], heap[first]) { first = right }
      if first == parent { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
