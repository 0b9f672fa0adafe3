import CJSONIndex

/// Floors on a group's kept members that the workers of one fold share, so
/// that a worker does not keep (and at its chunk's end copy the text of) a
/// record that the report cannot show.
///
/// Why: each worker keeps the N members of its own share of the records that
/// come first in report order, and a group's N-th among half its records is
/// older than among all of them, so more records beat it: out of day order
/// two workers keep about 1.7 times the records one fold keeps, each a cache
/// miss or more and a copy of its text (BENCHMARKS.md, "Why json gains less
/// from the second core than csv").
///
/// The rule: each worker publishes, per group, the seconds of its `rank`-th
/// most recent kept member (`rank` = ⌈N/2⌉), as its chunks end; a record whose
/// seconds are strictly below what `needed` = ⌈N/`rank`⌉ workers (itself
/// among them) have published is not offered to the group's members. It is
/// still counted, summed and taken for the group's latest instant.
///
/// Why that never changes a report (correct by construction):
/// - A value a worker published for a group is the seconds of its `rank`-th
///   most recent member then: it had folded `rank` records of that group at
///   least that recent. Its kept members only ever change by one that comes
///   earlier in report order replacing the last, so its `rank`-th most recent
///   instant never goes down, and it only ever publishes a larger value.
/// - Each record is folded by one worker, so `needed` workers' published
///   values above a record's seconds stand for `needed × rank ≥ N` distinct
///   records of its group whose instants are strictly later (more seconds are
///   a later instant whatever the nanoseconds). Report order is most recent
///   first, so each of them comes strictly before it: the record is not among
///   the group's first N, which are what the report shows.
/// - The first N of a set stay the same when records outside them are left
///   out (each of those still has the N first before it), so leaving out any
///   number of such records, in any order, on any worker, changes nothing.
/// - Ties: the test is strict on whole seconds, so a record on the same
///   instant as one the floor stands for is never left out; ties are judged
///   by the members as before (id, then the written form, ...). Which of
///   several versions of a transaction is folded at all ("the latest, on a
///   tie the later in the input") is `--dedupe`'s first pass, before any fold
///   this applies to; its tables can take members out again
///   (`GroupTable(retractableReporting:)`), so members held now prove nothing
///   there, and they never share floors. Nor do per-account tables.
/// - Threads: one word per worker per group, written by that worker alone,
///   read by the others with single-word relaxed loads (no lock, no wait); a
///   stale value is a lower floor, which leaves out fewer records. A group's
///   words are made under a lock once per worker that meets the group, never
///   per record, and reach the others through that lock.
///
/// A sorted ring (a limit up to `MemberHeap.ringLimit`) tells its `rank`-th
/// most recent member at once; larger limits and `--members all` share no
/// floors, nor does a single worker (its own last kept member is its floor).
@usableFromInline final class SharedMemberFloors: Sendable {
  /// Workers of the fold: the words per group.
  let workers: Int
  /// Which of a worker's most recent members it publishes.
  let rank: Int
  /// How many workers' floors must be above a record's seconds.
  let needed: Int
  private let registry: LockedValue<Registry>

  /// The groups' words, by group key, in blocks that never move.
  private struct Registry {
    var states = [[UInt8]: Int]()
    var cells = [UInt64: UnsafeMutablePointer<Int64>]()
    var blocks: [UnsafeMutablePointer<Int64>] = []
    var usedInLastBlock = cellsPerBlock
  }

  private static let cellsPerBlock = 256

  /// Floors for `workers` workers keeping `memberLimit` members per group,
  /// or `nil` when sharing them cannot leave anything out (one worker) or
  /// the members are not kept in a ring.
  init?(workers: Int, memberLimit: Int) {
    guard workers > 1, memberLimit > 0, memberLimit <= MemberHeap.ringLimit else { return nil }
    self.workers = workers
    rank = (memberLimit + 1) / 2
    needed = (memberLimit + rank - 1) / rank
    registry = LockedValue(Registry())
  }

  deinit {
    registry.withLock { registry in
      for block in registry.blocks { block.deallocate() }
      registry.blocks.removeAll()
    }
  }

  /// The words of the group (`state`, `day`, `indicator`), one per worker,
  /// made when first asked for, each `Int64.min` (nothing published) at first.
  func words(state: [UInt8], day: CalendarDay, indicator: CreditDebitIndicator) -> UnsafeMutablePointer<Int64> {
    let workers = workers
    return registry.withLock { registry in
      let stateNumber: Int
      if let known = registry.states[state] {
        stateNumber = known
      } else {
        stateNumber = registry.states.count
        registry.states[state] = stateNumber
      }
      let key = GroupTable.packKey(state: stateNumber, day: day, indicator: indicator)
      if let words = registry.cells[key] { return words }
      if registry.usedInLastBlock == Self.cellsPerBlock {
        let block = UnsafeMutablePointer<Int64>.allocate(capacity: Self.cellsPerBlock * workers)
        block.initialize(repeating: .min, count: Self.cellsPerBlock * workers)
        registry.blocks.append(block)
        registry.usedInLastBlock = 0
      }
      let words = registry.blocks[registry.blocks.count - 1] + registry.usedInLastBlock * workers
      registry.usedInLastBlock += 1
      registry.cells[key] = words
      return words
    }
  }
}

/// What the fold of one record reads of the shared floors: its group's words
/// (`nil` when the table shares none) and how many must be above the record.
@usableFromInline
struct MemberFloor {
  @usableFromInline let words: UnsafeMutablePointer<Int64>?
  @usableFromInline let workers: Int
  @usableFromInline let needed: Int

  @inlinable init(words: UnsafeMutablePointer<Int64>?, workers: Int, needed: Int) {
    self.words = words
    self.workers = workers
    self.needed = needed
  }

  /// No floor: every record is offered.
  @inlinable static var none: MemberFloor { MemberFloor(words: nil, workers: 0, needed: 0) }

  /// Whether `needed` workers have published a floor above `seconds`: the
  /// group then has at least its member limit of records more recent than
  /// one at `seconds` (see `SharedMemberFloors`).
  @inlinable @inline(__always)
  func excludes(seconds: Int64) -> Bool {
    guard let words else { return false }
    var above = 0
    for worker in 0..<workers where txfold_load_relaxed(words + worker) > seconds {
      above += 1
      if above >= needed { return true }
    }
    return false
  }
}

extension GroupTable {
  /// Makes this table, the fold of worker `worker`, share `floors` with the
  /// other workers of its fold; before its first record. A per-account or
  /// retractable table shares none (see `SharedMemberFloors`).
  func shareFloors(_ floors: SharedMemberFloors, worker: Int) {
    precondition(groups.isEmpty && worker >= 0 && worker < floors.workers, "floors are shared from the start")
    guard !perAccount, reserve == nil, memberLimit <= MemberHeap.ringLimit else { return }
    sharedFloors = floors
    floorWorker = worker
    floorWorkers = floors.workers
    floorNeeded = floors.needed
    floorRank = floors.rank
  }

  /// Stops sharing floors once the workers are done (before the tables are merged).
  func stopSharingFloors() {
    guard sharedFloors != nil else { return }
    for group in groups.indices { groups[group].floorWords = nil }
    sharedFloors = nil
  }

  /// Gives a new group its words in the shared floors.
  @usableFromInline @inline(never)
  func attachFloor(toGroupAt group: Int) {
    guard let sharedFloors else { return }
    groups[group].floorWords = sharedFloors.words(
      state: states.strings[groups[group].state], day: groups[group].day, indicator: groups[group].indicator)
  }
}

extension MemberHeap {
  /// Ring only: raises `word` to the seconds of the `rank`-th most recent
  /// kept member, when there are that many (see `SharedMemberFloors`).
  @inlinable
  func publishFloor(to word: UnsafeMutablePointer<Int64>, rank: Int) {
    let count = entries.count
    guard isRing, rank > 0, count >= rank else { return }
    // The ring is sorted, its most recent entry just before `head`.
    var position = head + count - rank
    if position >= count { position -= count }
    let seconds = entries[position].seconds
    if seconds > txfold_load_relaxed(word) { txfold_store_relaxed(word, seconds) }
  }
}
