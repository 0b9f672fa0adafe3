import Foundation

/// The ordered end of a fold of input sorted by account
/// (`GroupOptions.sortedByAccount`), on the reader's thread.
///
/// Each chunk was folded by a worker into a table of its own, whose
/// accounts are numbered in byte-wise order (`ChunkFolder.checkOrder`). The
/// stage takes those tables in input order (`apply`),
/// checks that each chunk's first account is not smaller than the chunk
/// before's last, and keeps one table back — the latest, whose last account
/// may go on in the next chunk. A chunk that starts with that account has
/// those groups merged into the kept table; once a chunk starts with
/// another account, the kept table is complete and goes to the cursor
/// whole (`SortedAccountStream`), and the new chunk is kept instead.
///
/// Handing on whole tables keeps the stage simple: no group is copied
/// except an account's that spans a chunk boundary, and a table goes to
/// exactly one thread at a time (the cursor's writer sorts groups in place).
/// The price is that the accounts before a long account in its first chunk
/// wait until that account ends: at most one chunk's accounts.
final class SortedAccountStage {
  let stream: SortedAccountStream
  /// The table kept back, whose last account is still open; `nil` before the first accounts.
  private var kept: GroupTable?
  /// Whether the kept table's first account was merged into the table before it.
  private var keptSkipsFirst = false
  /// The kept table's last account with groups: its number there and its id.
  private var open: (number: UInt32, account: [UInt8])?
  /// The greatest account so far (also one without groups, all of whose records the selection left out).
  private var greatest: [UInt8]?

  init(stream: SortedAccountStream) {
    self.stream = stream
  }

  /// Applies the next chunk's result in input order: its accounting, then
  /// its table (`take`). A chunk whose first account comes before the
  /// greatest so far, or whose accounts go back within it, stops the run
  /// there: its rejections before that record are reported, as a strict stop would.
  ///
  /// - Throws: `accountsOutOfOrder`; `sumOverflow` when the chunk's fold overflowed
  ///   (the tables are not kept to the end, so an overflow is named at once); `take`'s errors.
  func apply(_ result: ChunkResult<SortedChunk?>, to accounting: inout ResultAccounting) throws(PipelineError) {
    guard let chunk = result.output, let table = chunk.table.take() else { return try accounting.apply(result) }
    let file = accounting.fileName(result.fileIndex)
    if let violation = violation(chunk.order, table: table) {
      let lineBase = try accounting.apply(result, stoppingBefore: violation.line)
      throw .accountsOutOfOrder(
        AccountOrderError(
          file: file, line: violation.line + lineBase,
          previous: String(decoding: violation.previous, as: UTF8.self),
          account: String(decoding: violation.account, as: UTF8.self)))
    }
    try accounting.apply(result)
    if result.overflow { throw Self.overflow(table, file: file) }
    try take(table, file: file)
  }

  /// The first record of `table`'s chunk whose account is smaller than the
  /// greatest so far: its line within the chunk (`order`'s first account's
  /// line, or its violation's), with both accounts.
  private func violation(_ order: AccountOrderCheck, table: GroupTable) -> (
    line: Int, previous: [UInt8], account: [UInt8]
  )? {
    if let greatest, let first = table.accounts.strings.first, ByteOrder.precedes(first, greatest) {
      return (order.firstAccountLine, greatest, first)
    }
    return order.violation
  }

  /// Takes the next chunk's table, in input order (its order already checked).
  ///
  /// - Throws: `sumOverflow` when an account's total overflows as chunks are
  ///   merged; whatever stopped the stream when the cursor is gone.
  func take(_ table: GroupTable, file: String) throws(PipelineError) {
    guard let last = table.accounts.strings.last else { return }
    greatest = last
    let accounts = table.groupsByAccountNumber()
    guard let first = accounts.first else { return }
    var skipsFirst = false
    if let kept, let open {
      if table.accounts.strings[Int(first.account)] == open.account {
        guard kept.merge(table, groups: first.groups, intoAccount: open.number) else {
          throw Self.overflow(kept, file: file)
        }
        if accounts.count == 1 {
          stream.recycle(table)
          return
        }
        skipsFirst = true
      }
      try emit(kept, skippingFirst: keptSkipsFirst)
    }
    kept = table
    keptSkipsFirst = skipsFirst
    // The last account of this chunk may go on in the next one.
    if let lastGroups = accounts.last {
      open = (lastGroups.account, table.accounts.strings[Int(lastGroups.account)])
    }
  }

  /// Hands on the kept table, after the last chunk.
  func finish() throws(PipelineError) {
    if let kept { try emit(kept, skippingFirst: keptSkipsFirst) }
    kept = nil
    open = nil
  }

  private func emit(_ table: GroupTable, skippingFirst: Bool) throws(PipelineError) {
    let names = table.accounts.strings
    let accounts = table.groupsByAccountNumber().dropFirst(skippingFirst ? 1 : 0).map {
      (account: names[Int($0.account)], groups: $0.groups)
    }
    guard !accounts.isEmpty else { return }
    try stream.push(AccountBatch(table: table, accounts: accounts, pooled: false))
  }

  static func overflow(_ table: GroupTable, file: String) -> PipelineError {
    .sumOverflow(
      state: table.overflow?.state ?? "?", date: table.overflow?.date ?? "?",
      currency: table.overflow?.currency ?? "?", file: file)
  }
}

/// The finished accounts of a fold of sorted input, from the fold's thread to
/// the cursor's: a few batches at most (the fold waits when the cursor is
/// behind, which bounds memory), then the run's stats or the error that
/// stopped it.
final class SortedAccountStream: Sendable {
  private struct State {
    /// The batches waiting; each belongs to the fold's thread until pushed, then to the cursor's.
    var batches: [(batch: AccountBatch, bytes: Int)] = []
    var queuedBytes = 0
    var ending: Result<RunStats, PipelineError>?
    var stopped = false
    var stats: RunStats?
  }
  private let state = LockedValue(State())
  /// Tables written out, for the workers' next chunks (`recycle`).
  private let spareTables = LockedValue<[GroupTable]>([])
  private let depth: Int
  private let budget: Int
  private let finished = DispatchGroup()

  /// The stream of a fold run by `fold` on a thread of its own, which pushes
  /// the batches and returns the stats. At most `depth` batches wait, and
  /// (beyond the first) at most `budget` bytes of them, as their tables
  /// estimate it: a corporate account's table weighs tens of megabytes.
  init(
    depth: Int, budget: Int, fold: @escaping @Sendable (SortedAccountStream) throws(PipelineError) -> RunStats
  ) {
    self.depth = depth
    self.budget = budget
    finished.enter()
    let thread = Thread { [self] in
      let result: Result<RunStats, PipelineError>
      do throws(PipelineError) {
        result = .success(try fold(self))
      } catch {
        result = .failure(error)
      }
      state.withLockWaking { $0.ending = result }
      finished.leave()
    }
    thread.start()
  }

  /// Hands a batch to the cursor, waiting while `depth` are waiting already.
  ///
  /// - Throws: once the cursor stopped the stream, to end the fold.
  func push(_ batch: AccountBatch) throws(PipelineError) {
    let bytes = batch.table.estimatedBytes
    let (depth, budget) = (depth, budget)
    try state.withLock(when: {
      $0.batches.isEmpty || ($0.batches.count < depth && $0.queuedBytes + bytes <= budget) || $0.stopped
    }) { (state) throws(PipelineError) in
      if state.stopped { throw .invalidOptions("The per-account cursor was stopped.") }
      state.batches.append((batch, bytes))
      state.queuedBytes += bytes
    }
  }

  /// The next batch, waiting for it; `nil` after the last, with `stats` set.
  func next() throws(PipelineError) -> AccountBatch? {
    try state.withLock(when: { !$0.batches.isEmpty || $0.ending != nil }) {
      (state) throws(PipelineError) -> AccountBatch? in
      if !state.batches.isEmpty {
        let (batch, bytes) = state.batches.removeFirst()
        state.queuedBytes -= bytes
        return batch
      }
      switch state.ending {
      case .failure(let error): throw error
      case .success(let final): state.stats = final
      case nil: break
      }
      return nil
    }
  }

  /// Gives back a table the cursor has written (or the stage merged away),
  /// for a worker's next chunk (`spareTable()`): a night folds every account
  /// again in tables of a chunk each, and a new table for each chunk grew
  /// its group array, account index and interners from nothing. At most
  /// one per chunk that can wait, so the spares weigh no more than the
  /// batches the stream may hold.
  func recycle(_ table: GroupTable) {
    guard table.overflow == nil else { return }
    let most = depth + 2
    spareTables.withLock { spares in
      if spares.count < most { spares.append(table) }
    }
  }

  /// A table given back by `recycle`, emptied by the calling worker, or `nil`.
  ///
  /// Its groups' storage is freed, not kept for the next groups
  /// (`GroupTable.removeAllGroups`'s `recycling`): storage kept from groups
  /// of many earlier chunks lies all over the heap, and folding and
  /// rendering the next chunk's groups from it waits on memory, where new
  /// groups' storage is allocated in order. The groups are freed by the worker that
  /// will allocate the next ones, not by the writing thread.
  func spareTable() -> GroupTable? {
    guard let table = spareTables.withLock({ $0.popLast() }) else { return nil }
    table.removeAllGroups(keepingCapacity: true, recycling: false)
    return table
  }

  /// The run's stats, once `next()` has returned `nil`.
  var stats: RunStats? { state.withLock { $0.stats } }

  /// Ends the fold early (the cursor is dropped) and waits for its thread, so
  /// that no rejection is reported after this returns.
  func stop() {
    state.withLockWaking { state in
      state.stopped = true
      state.batches.removeAll()
      state.queuedBytes = 0
    }
    finished.wait()
  }
}

/// A chunk of input sorted by account, as its worker hands it on: the
/// chunk's own table and what the order check found while folding it.
struct SortedChunk: Sendable {
  let table: ChunkTable
  let order: AccountOrderCheck
}

/// The order check a worker makes while folding a chunk of input sorted by
/// account: each record's account is the one before or a new, greater one.
/// Accounts are numbered as they first come, so a number below the greatest
/// so far is an account seen before another. The stage checks the chunk's
/// first account against the chunk before (`SortedAccountStage.apply`).
struct AccountOrderCheck: Sendable {
  /// The number of the greatest account so far (-1 before the first).
  private var checked = -1
  /// The line (within the chunk, as rejections' lines are) of the first
  /// record with an account.
  private(set) var firstAccountLine = 0
  /// The first record whose account is smaller than the one before it, with both accounts.
  private(set) var violation: (line: Int, previous: [UInt8], account: [UInt8])?

  /// Checks the account numbered `number` in `table`, of the record at `line`.
  @inline(__always)
  mutating func see(_ number: UInt32, of table: GroupTable, line: Int) {
    let number = Int(number)
    guard number != checked, violation == nil else { return }
    if checked < 0 {
      firstAccountLine = line
      checked = number
      return
    }
    let names = table.accounts.strings
    if number < checked || !ByteOrder.precedes(names[checked], names[number]) {
      violation = (line, names[checked], names[number])
      return
    }
    checked = number
  }
}
