/// `--dedupe` for every job: which records lose to a later version of their
/// transaction, found by a first pass over the inputs, so that the job's own
/// run (the second pass) skips them and sees each transaction once.
///
/// The first pass decodes and classifies every record as any run does (its
/// accounting is the run's: rejections are reported there, once) and, for
/// every accepted record with an id, writes a small entry — a hash of the key
/// (the id, or the account and the id per account), the instant, the
/// record's place in the input and the key's bytes — into one of
/// `partitionCount` partitions by hash. Past the memory budget the partitions
/// go to one unlinked temporary file. Each partition is then judged on its
/// own (split by more bits of the hash first when it is larger than a
/// thread's share of the budget): entries meet by hash in a table, those
/// that share a hash are sorted by key bytes, instant and place, and of each
/// key all but the winner (latest instant, then latest place) are losers.
/// Keys are compared by their bytes, so two ids whose hashes collide stay
/// two transactions.
///
/// When the job folded its report in the first pass too (`group`,
/// `summary`) and nothing lost, that report is the run's: no second pass.
///
/// The second pass reads the inputs again — a regular file by its path (it
/// must be unchanged), anything else (standard input, a pipe, a library
/// source) from the copy the first pass kept in the temporary directory — and
/// the classifier leaves out the losers by their place. Memory: the
/// partitions up to the budget, then 8 bytes per loser.
final class Deduplicated: Sendable {
  /// The losers' places (`placeKey`), ascending.
  let losers: [UInt64]
  /// The first pass's accounting: the run's counts, rejections included.
  let stats: RunStats
  /// The first pass's rejections sample, for the end-of-run diagnosis.
  let sample: [RecordRejection]
  /// Whether the id table went to disk.
  let spilled: Bool
  /// Whether the run reads the losers only (and not the winners): a job
  /// that summed every record in the first pass takes the losers out again
  /// (`SummaryAccumulator.subtract`) instead of summing the winners anew.
  let readsLosers: Bool

  init(losers: [UInt64], stats: RunStats, sample: [RecordRejection], spilled: Bool, readsLosers: Bool = false) {
    self.losers = losers
    self.stats = stats
    self.sample = sample
    self.spilled = spilled
    self.readsLosers = readsLosers
  }

  /// The same losers, for a pass that reads only them.
  func readingLosers() -> Deduplicated {
    Deduplicated(losers: losers, stats: stats, sample: sample, spilled: spilled, readsLosers: true)
  }

  /// A record's place in the run: its input, then where it starts in it
  /// (`RecordFraming.offset`, a byte offset in the input's decoded bytes; in
  /// a nightly run's previous state, input 0, the record's 1-based number).
  /// Later places are greater, which is the winner rule's tie-break, and a
  /// place is known without counting the records before it.
  @inline(__always)
  static func placeKey(fileIndex: Int, offset: Int64) -> UInt64 {
    UInt64(truncatingIfNeeded: fileIndex) << offsetBits | UInt64(truncatingIfNeeded: offset)
  }

  /// The bits of a place key that hold the offset: inputs of up to 16 TiB
  /// (decoded), and up to 2^20 of them in a run.
  static let offsetBits: UInt64 = 44

  /// The most inputs a run's places tell apart.
  static let maxInputs = 1 << (64 - offsetBits)

  /// Sets the counts a second pass reports from the first pass's, which read
  /// every record: the second pass's own cover only the winners. `selected`
  /// (the winners the selection kept) and `accounts` stay the second pass's.
  func settle(_ stats: inout RunStats) {
    let selected = stats.selected
    let accounts = stats.accounts
    stats = self.stats
    stats.selected = selected
    stats.accounts = accounts
  }

  /// Walks the losers alongside a chunk's records, which come in place order.
  struct Cursor {
    let losers: UnsafeBufferPointer<UInt64>
    var index = -1

    /// Whether the record at `key` lost to a later version of itself.
    @inline(__always)
    mutating func isLoser(_ key: UInt64) -> Bool {
      if index < 0 { index = lowerBound(key) }
      while index < losers.count && losers[index] < key { index += 1 }
      return index < losers.count && losers[index] == key
    }

    /// Calls `body` with each loser at or after `start` and before `end`, in order.
    mutating func forEachLoser(from start: UInt64, before end: UInt64, _ body: (UInt64) -> Void) {
      if index < 0 { index = lowerBound(start) }
      while index < losers.count && losers[index] < start { index += 1 }
      while index < losers.count && losers[index] < end {
        body(losers[index])
        index += 1
      }
    }

    private func lowerBound(_ key: UInt64) -> Int {
      var low = 0
      var high = losers.count
      while low < high {
        let middle = (low + high) / 2
        if losers[middle] < key { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  /// Calls `body` with a cursor over the losers.
  func withCursor<T>(_ body: (inout Cursor) -> T) -> T {
    losers.withUnsafeBufferPointer { buffer in
      var cursor = Cursor(losers: buffer)
      return body(&cursor)
    }
  }
}
