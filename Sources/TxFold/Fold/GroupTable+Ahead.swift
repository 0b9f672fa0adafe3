import CJSONIndex

/// Folding a record two records after its group is found.
///
/// On a dump in day order consecutive records share a group, whose memory
/// stays in the cache; in account order or shuffled, nearly every record
/// lands in a group last touched thousands of records ago, and its
/// accumulator (which holds its first currency's total) and kept members'
/// entries are cache misses, each waiting for the one before it (the
/// accumulator holds the entries' address). So a worker's record is folded in three steps, one record
/// apart: its group is found and its accumulator's lines are asked for; a
/// record later, the accumulator is in the cache and the storage of its
/// entries is asked for; a record later still, it is folded.
/// The misses then overlap with decoding the next records instead of
/// stalling the fold (DuckDB's hash aggregate prefetches the same way).
///
/// A record whose group is one of the last few found skips the queue: that
/// group is in the cache already. Folding records out of their order changes
/// nothing a table holds (counts and sums add up alike, the latest instant is
/// a maximum, and the kept members depend only on the set offered, as when
/// workers fold chunks), and every other way into the table folds the queued
/// records first. The queue points into the chunk's bytes as deferred member
/// text does, and `finishChunk()` empties it under the same rule.
extension GroupTable {
  /// Finds the record's group, starts loading it, and folds the record
  /// queued two records ago.
  ///
  /// - Returns: `false` when the folded record's currency total would overflow.
  @inlinable @inline(__always)
  func foldAhead(
    _ decoded: borrowing DecodedRecord, record: UnsafeBufferPointer<UInt8>, state: Int,
    currencyCode: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let next = found(decoded, record: record, state: state, currencyCode: currencyCode)
    // A record in one of the last few groups found finds it in the cache (as
    // most do in a dump sorted by day, where a day's few groups take turns):
    // folded at once, ahead of those queued, which the result does not depend on.
    let group = Int64(truncatingIfNeeded: next.group)
    if any(ahead.recentGroups .== SIMD4(repeating: group)) { return fold(next, deferringText: true) }
    ahead.recentGroups = SIMD4(group, ahead.recentGroups[0], ahead.recentGroups[1], ahead.recentGroups[2])
    var folded = true
    // The queue is two places, `next` taking the older one's: no record is moved.
    let waiting: Int
    switch ahead.count {
    case 2:
      if ahead.firstIsOlder {
        folded = fold(ahead.first, deferringText: true)
        ahead.first = next
        waiting = ahead.second.group
      } else {
        folded = fold(ahead.second, deferringText: true)
        ahead.second = next
        waiting = ahead.first.group
      }
      ahead.firstIsOlder.toggle()
    case 1:
      ahead.second = next
      ahead.firstIsOlder = true
      ahead.count = 2
      waiting = ahead.first.group
    default:
      ahead.first = next
      ahead.count = 1
      waiting = -1
    }
    prefetch(accumulatorOfGroupAt: next.group, storageOfGroupAt: waiting)
    return folded
  }

  /// Folds the queued records, oldest first.
  ///
  /// - Returns: `false` when a currency total would overflow.
  @inlinable
  func foldQueued() -> Bool {
    switch ahead.count {
    case 0:
      return true
    case 1:
      ahead.count = 0
      return fold(ahead.first, deferringText: true)
    default:
      ahead.count = 0
      let older = ahead.firstIsOlder ? ahead.first : ahead.second
      let newer = ahead.firstIsOlder ? ahead.second : ahead.first
      let folded = fold(older, deferringText: true)
      return fold(newer, deferringText: true) && folded
    }
  }

  /// Starts loading the lines of group `next`'s accumulator, and what
  /// folding into group `waiting` (when not -1) reads besides its
  /// accumulator, which should be in the cache already: the entry of the
  /// kept member a record must beat.
  ///
  /// The mutable buffer: a read-only one of a class's array retains it.
  @inlinable @inline(__always)
  func prefetch(accumulatorOfGroupAt next: Int, storageOfGroupAt waiting: Int) {
    groups.withUnsafeMutableBufferPointer { all in
      guard let base = all.baseAddress else { return }
      if next < all.count {
        let start = UnsafeRawPointer(base + next)
        // An accumulator is more than two lines long (its first total inline)
        // and starts anywhere in one.
        txfold_prefetch(start)
        txfold_prefetch(start + 64)
        if MemoryLayout<GroupAccumulator>.size > 128 { txfold_prefetch(start + 128) }
        txfold_prefetch(start + (MemoryLayout<GroupAccumulator>.size - 1))
      }
      if waiting >= 0 && waiting < all.count { GroupAccumulator.prefetchFoldedStorage(of: base + waiting) }
    }
  }
}

extension GroupTable {
  /// A record ready to fold: the values the fold reads, and its group and currency.
  @usableFromInline
  struct FoundRecord {
    @usableFromInline var instant: Timestamp
    @usableFromInline var amount: ExactDecimal
    @usableFromInline var id: ValueRef
    @usableFromInline var description: ValueRef
    /// The currency code's bytes, in the record unless the schema supplies it.
    @usableFromInline var currencyCode: UnsafeBufferPointer<UInt8>
    @usableFromInline var bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var currency: Int
    @usableFromInline var group: Int

    @inlinable @inline(__always)
    init(
      _ decoded: borrowing DecodedRecord, record: UnsafeBufferPointer<UInt8>, currencyCode: UnsafeBufferPointer<UInt8>,
      currency: Int, group: Int
    ) {
      instant = decoded.instant
      amount = decoded.amount
      id = decoded.id
      description = decoded.description
      self.currencyCode = currencyCode
      bytes = record
      self.currency = currency
      self.group = group
    }

    @inlinable init() {
      self.init(
        DecodedRecord(), record: UnsafeBufferPointer(start: nil, count: 0),
        currencyCode: UnsafeBufferPointer(start: nil, count: 0), currency: 0, group: 0)
    }
  }

  /// At most two found records waiting to be folded, in two places.
  @usableFromInline
  struct FoldQueue {
    @usableFromInline var first = FoundRecord()
    @usableFromInline var second = FoundRecord()
    /// How many are waiting: 0, 1 (in `first`) or 2.
    @usableFromInline var count = 0
    /// With two waiting, whether `first` came before `second`.
    @usableFromInline var firstIsOlder = true
    /// The last groups queued, newest first (-1: none), whose memory is on its way or in the cache.
    @usableFromInline var recentGroups = SIMD4<Int64>(repeating: -1)

    @inlinable init() {}
  }
}
