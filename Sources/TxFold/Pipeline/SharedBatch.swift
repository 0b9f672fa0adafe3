/// A merged batch whose accounts two threads render: the writing thread from
/// the front, the merging thread from the back (`TablePool`).
final class SharedBatch: @unchecked Sendable {
  // Unchecked: `front`, `back` and `helping` are read and written under the
  // pool's lock; `bytes`, `rendered` and `writer` belong to the thread that
  // set `helping`, and to the writing thread once `endSharing` returned.
  let batch: AccountBatch
  let members: Bool
  /// The writer's copy that renders from the back (the caller's format and
  /// options), and how many accounts were written before the batch.
  private var writer: AccountReportWriter
  private let accountsBefore: Int
  var front = 0
  var back: Int
  var helping = false
  /// The accounts rendered from the back, last first: where each one's bytes are in `bytes`.
  private(set) var rendered: [(start: Int, end: Int)] = []
  private(set) var bytes: [UInt8] = []

  /// Whether the account at `back - 1` is one for the helper: its bytes wait
  /// in memory until the writing thread reaches them, so it takes neither a
  /// large account (a corporate one may render to megabytes, which the
  /// writing thread streams out in 64 KiB pieces) nor more than a bounded
  /// share of the batch. Called under the pool's lock.
  var helpWanted: Bool {
    front < back && batch.accounts[back - 1].groups.count <= Self.largestHelpedAccount
      && bytes.count < Self.helperBytes
  }
  /// The most groups of an account rendered from the back.
  static let largestHelpedAccount = 256
  /// About the most bytes rendered from the back, per batch.
  static let helperBytes = 1 << 20

  /// A batch to share, whose accounts rendered from the back go into `bytes`
  /// (emptied first: an earlier batch's, handed back by `takeBytes()`, so that
  /// its room is not grown again from nothing for each batch).
  init(_ batch: AccountBatch, writer: AccountReportWriter, members: Bool, bytes: [UInt8] = []) {
    self.batch = batch
    self.members = members
    var copy = writer
    copy.buffer = []
    self.writer = copy
    accountsBefore = writer.document.accounts
    back = batch.accounts.count
    self.bytes = bytes
    self.bytes.removeAll(keepingCapacity: true)
  }

  /// The buffer the accounts were rendered into, for the next batch (`init`), once they are written.
  func takeBytes() -> [UInt8] {
    defer { bytes = [] }
    return bytes
  }

  /// Renders account `index` of the batch at the end of `bytes`.
  func renderFromBack(_ index: Int) {
    let start = bytes.count
    let (account, groups) = batch.accounts[index]
    writer.document.resume(afterAccounts: accountsBefore + index)
    // A full buffer (a large account) is moved on to `bytes` as it fills.
    writer.write(account: account, table: batch.table, groups: groups, members: members) {
      (full: inout [UInt8]) in self.bytes.append(contentsOf: full)
    }
    bytes.append(contentsOf: writer.buffer)
    writer.buffer.removeAll(keepingCapacity: true)
    rendered.append((start, bytes.count))
  }
}
