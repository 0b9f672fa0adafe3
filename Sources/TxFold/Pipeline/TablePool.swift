import Foundation

/// A few per-account tables handed between the merging thread and the
/// writing one, so that each is emptied and refilled by the thread that
/// allocated its groups rather than freed by the other.
final class TablePool: @unchecked Sendable {
  // Unchecked: `free` and `closed` are read and written under `condition`;
  // a table belongs to one thread at a time, the one that acquired it.
  private let condition = NSCondition()
  private var free: [GroupTable]
  private var closed = false
  /// The batch the writing thread is writing, whose accounts a waiting
  /// `acquire()` renders from the back.
  private var shared: SharedBatch?
  /// The last shared batch's buffer, for the next one: the writing thread's alone (`write`).
  private var spareBytes: [UInt8] = []

  init(count: Int, memberLimit: Int) {
    free = (0..<count).map { _ in GroupTable(memberLimit: memberLimit, perAccount: true) }
  }

  /// A free table, waiting for one; `nil` once closed. While it waits, it
  /// renders the shared batch's accounts from the back, one at a time.
  func acquire() -> GroupTable? {
    condition.lock()
    defer { condition.unlock() }
    while free.isEmpty && !closed {
      guard let batch = shared, batch.helpWanted else {
        condition.wait()
        continue
      }
      batch.back -= 1
      let index = batch.back
      batch.helping = true
      condition.unlock()
      // Outside the lock: `bytes` and the helper's writer are this thread's
      // until `helping` is false again (`endSharing` waits for that).
      batch.renderFromBack(index)
      condition.lock()
      batch.helping = false
      condition.broadcast()
    }
    return closed ? nil : free.removeLast()
  }

  /// Writes a merged batch with the merging thread's help: the calling thread
  /// renders its accounts from the front while the merging thread, whenever
  /// it waits for a free table, renders accounts from the back into a buffer
  /// of its own (`TablePool.acquire()`); their bytes then follow in order.
  /// Rendering is the larger part of a batch's work: on this thread alone it
  /// would leave the merging thread idle while it waits for the table.
  /// `sharing` is the batch's `SharedBatch` when already shared (tests).
  func write<E: Error>(
    _ batch: AccountBatch, with writer: inout AccountReportWriter, members: Bool, sharing: SharedBatch? = nil,
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let shared = sharing ?? SharedBatch(batch, writer: writer, members: members, bytes: takeSpareBytes())
    if sharing == nil { share(shared) }
    var failure: E?
    while let index = claimFront(of: shared) {
      let (account, groups) = batch.accounts[index]
      do throws(E) {
        try writer.write(account: account, table: batch.table, groups: groups, members: members, flush: flush)
      } catch {
        failure = error
        break
      }
    }
    // Whatever the merging thread is rendering of this batch, it finishes first.
    endSharing(shared)
    if let failure { throw failure }
    for piece in shared.rendered.reversed() {
      writer.buffer.append(contentsOf: shared.bytes[piece.start..<piece.end])
      writer.document.accountWritten()
      try BufferFlushing.flushIfFull(&writer.buffer, flush)
    }
    // Grown to about `SharedBatch.helperBytes` through every power of two for each batch, the
    // buffer's copies were a hundredth of a `jsonl` night's instructions.
    spareBytes = shared.takeBytes()
  }

  /// The spare buffer, moved out.
  private func takeSpareBytes() -> [UInt8] {
    defer { spareBytes = [] }
    return spareBytes
  }

  /// Offers `batch`'s accounts to a waiting `acquire()`.
  func share(_ batch: SharedBatch) {
    condition.lock()
    shared = batch
    condition.broadcast()
    condition.unlock()
  }

  /// The next account from the front of `batch` for the writing thread, or
  /// `nil` once the two ends met.
  func claimFront(of batch: SharedBatch) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    guard batch.front < batch.back else { return nil }
    batch.front += 1
    return batch.front - 1
  }

  /// Stops sharing `batch`, once the account being rendered from its back (if
  /// any) is done; its `rendered` accounts are then complete.
  func endSharing(_ batch: SharedBatch) {
    condition.lock()
    batch.back = batch.front
    while batch.helping { condition.wait() }
    shared = nil
    condition.unlock()
  }

  func release(_ table: GroupTable) {
    condition.lock()
    free.append(table)
    condition.signal()
    condition.unlock()
  }

  /// Wakes a waiting `acquire`, and every later one returns `nil`.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
