import Foundation

/// Why writing a per-account report stopped, told apart by type: the
/// accounts could not be merged, or `flush` failed (the public
/// `write(with:flush:)` rethrows either as it is).
package enum AccountReportWriteError<Output: Error>: Error {
  /// The runs could not be read back or merged (as `next()` throws it).
  case pipeline(PipelineError)
  /// `flush` failed.
  case output(Output)
}

extension AccountReportCursor {
  /// Writes every account not handed out yet with `writer` — after its
  /// `begin`, before its `finish` — as `write(_:flush:)` for each account
  /// from `next()` would, to the same bytes.
  ///
  /// `jsonl`, `json` and `csv` are written straight from the fold's tables: a
  /// thread of the cursor's own merges the accounts in batches into a few
  /// tables that it reuses, and the caller's thread writes each batch, so no
  /// `AccountReport` is built. The other formats go through `next()`.
  ///
  /// ```swift
  /// var writer = AccountReportWriter(format: .jsonl)!
  /// try writer.begin(flush: flush)
  /// try cursor.write(with: &writer, flush: flush)
  /// try writer.finish(stats: cursor.stats, flush: flush)
  /// ```
  ///
  /// - Throws: the `PipelineError` of the accounts' merge (as `next()` throws
  ///   it), or what `flush` threw, as it is.
  public func write(with writer: inout AccountReportWriter, flush: (inout [UInt8]) throws -> Void) throws {
    do throws(AccountReportWriteError<any Error>) {
      try write(typedWith: &writer, flush: flush)
    } catch {
      switch error {
      case .pipeline(let error): throw error
      case .output(let error): throw error
      }
    }
  }

  /// `write(with:flush:)`, with the merge's failure and `flush`'s told apart by type.
  package func write<E: Error>(
    typedWith writer: inout AccountReportWriter, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(AccountReportWriteError<E>) {
    guard writer.rendersTables && !writing && !startedBuilding else {
      while let account = try Result(catching: next).mapError(AccountReportWriteError<E>.pipeline).get() {
        do throws(E) {
          try writer.write(account, flush: flush)
        } catch {
          throw .output(error)
        }
      }
      return
    }
    writing = true
    let accounts = accounts
    if case .stream(let stream) = accounts.source {
      // The fold already runs on a thread of its own: the batches are written
      // as they come, without a merging thread's queue holding more tables.
      try write(from: stream, with: &writer, flush: flush)
      return
    }
    let pool = TablePool(count: Self.batchTables, memberLimit: settings.memberLimit)
    // The merging thread alone uses the source from here on (`batches.stop()` waits for it).
    let source = HandOff(accounts)
    // Room for a batch more than a table can wait in the queue, so that the
    // merging thread, its next batch queued, waits in `pool.acquire()`, where
    // it renders the current batch's last accounts (`TablePool.write`).
    let batches = AccountPrefetcher<AccountBatch>(depth: Self.batchTables, budget: .max, weight: { _ in 1 }) {
      () throws(PipelineError) -> AccountBatch? in
      guard let table = pool.acquire() else { return nil }
      let batch = try source.value.nextBatch(pooled: table, budget: Self.batchGroups, textBudget: Self.batchTextBytes)
      if batch?.pooled != true { pool.release(table) }
      return batch
    }
    defer {
      pool.close()
      batches.stop()
    }
    let members = members
    while let batch = try Result(catching: batches.next).mapError(AccountReportWriteError<E>.pipeline).get() {
      do throws(E) {
        if batch.pooled {
          try pool.write(batch, with: &writer, members: members, flush: flush)
          pool.release(batch.table)
        } else {
          for (account, groups) in batch.accounts {
            try writer.write(account: account, table: batch.table, groups: groups, members: members, flush: flush)
          }
        }
      } catch {
        throw .output(error)
      }
    }
    // The thread has returned `nil` and is done with the source.
    finishStats()
  }

  /// `write(with:flush:)` over a fold of sorted input: each chunk's finished accounts as they come.
  ///
  /// A thread of the cursor's own renders each batch's last accounts while
  /// this one renders from the front (`TablePool.write`, with a pool of no
  /// table: its `acquire()` only ever helps), as the merge of spilled runs'
  /// thread does: rendering is most of what the writing thread does, and a
  /// nightly run's second pass (which folds sorted input) waited on it alone.
  private func write<E: Error>(
    from stream: SortedAccountStream, with writer: inout AccountReportWriter, flush: (inout [UInt8]) throws(E) -> Void
  ) throws(AccountReportWriteError<E>) {
    let helper = TablePool(count: 0, memberLimit: settings.memberLimit)
    let helped = DispatchSemaphore(value: 0)
    Thread {
      _ = helper.acquire()
      helped.signal()
    }.start()
    defer {
      helper.close()
      helped.wait()
    }
    while var batch = try Result(catching: stream.next).mapError(AccountReportWriteError<E>.pipeline).get() {
      accounts.position += batch.accounts.count
      // An incremental run's `--changed-only` skips the accounts that did not change (`AccountGroupsSource.changed`).
      batch.accounts.removeAll { !accounts.hands($0.account) }
      accounts.handedOut += batch.accounts.count
      do throws(E) {
        try helper.write(batch, with: &writer, members: members, flush: flush)
      } catch {
        throw .output(error)
      }
      stream.recycle(batch.table)
    }
    finishStats()
  }

  /// Tables the batches are merged into: one being merged while the other
  /// is written. Not three: a bank's first accounts in byte order may be
  /// corporate ones of thousands of groups and members each, and every table
  /// that held one keeps its memory's worth in the allocator, so each more
  /// table raises the peak by the largest batch.
  static let batchTables = 2
  /// About how many groups a batch holds (a whole account always: a
  /// corporate one may hold more).
  static let batchGroups = 4_096
  /// At most about how many bytes of member text beyond the usual share a
  /// batch holds (`GroupTable.textExcessBytes`): with descriptions of
  /// thousands of bytes, 4,096 groups of twenty members are hundreds of
  /// megabytes, far past any `--memory-limit`; ordinary text counts nothing here.
  static let batchTextBytes = 4 << 20
}

/// Accounts to be written together, with their groups in `table`.
struct AccountBatch {
  let table: GroupTable
  var accounts: [(account: [UInt8], groups: ArraySlice<Int>)]
  /// Whether `table` came from the pool (merged from runs), to go back there
  /// once written; otherwise it is the fold's own table.
  let pooled: Bool
}

extension AccountGroupsSource {
  /// The next accounts to hand out (`hands(_:)`), whole, until they hold
  /// about `budget` groups: the fold's own table's, or merged from the runs
  /// into `pooled` (emptied first). `nil` after the last account.
  func nextBatch(pooled: GroupTable, budget: Int, textBudget: Int = .max) throws(PipelineError) -> AccountBatch? {
    // A batch of skipped accounts only is not the end: the next one may hold some.
    while var batch = try nextAccountBatch(pooled: pooled, budget: budget, textBudget: textBudget) {
      if changed != nil { batch.accounts.removeAll { !hands($0.account) } }
      handedOut += batch.accounts.count
      if !batch.accounts.isEmpty { return batch }
    }
    return nil
  }

  /// The next accounts, whole, skipped or not, as `nextBatch` describes them.
  private func nextAccountBatch(pooled: GroupTable, budget: Int, textBudget: Int) throws(PipelineError) -> AccountBatch?
  {
    var batch: AccountBatch
    switch source {
    case .memory(let table, let order):
      batch = AccountBatch(table: table, accounts: [], pooled: false)
      var groups = 0
      while position < order.count && groups < budget {
        let (account, accountGroups) = order[position]
        batch.accounts.append((table.accounts.strings[Int(account)], accountGroups))
        groups += accountGroups.count
        position += 1
      }
    case .runs(let merger, let store):
      pooled.removeAllGroups(keepingCapacity: true)
      var ranges: [(account: [UInt8], groups: Range<Int>)] = []
      while pooled.groups.count < budget && pooled.textExcessBytes < textBudget {
        let first = pooled.groups.count
        let account: [UInt8]?
        do throws(PartialStateError) {
          account = try merger.nextAccount(into: pooled)
        } catch {
          throw .accountMerge(error)
        }
        guard let account else {
          store.remove()
          break
        }
        ranges.append((account, first..<pooled.groups.count))
        for group in first..<pooled.groups.count { pooled.noteTextGrowth(of: group) }
        position += 1
      }
      // One array of numbers for the batch; each account a slice of it.
      let numbers = Array(0..<pooled.groups.count)
      batch = AccountBatch(
        table: pooled, accounts: ranges.map { ($0.account, numbers[$0.groups]) }, pooled: true)
    case .stream(let stream):
      // A finished chunk's accounts, whole: the stream's batches are already about a chunk's size.
      guard let following = try stream.next() else { return nil }
      batch = following
      position += following.accounts.count
    }
    return batch.accounts.isEmpty ? nil : batch
  }
}
