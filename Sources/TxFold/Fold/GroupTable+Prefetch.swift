import CJSONIndex

/// Prefetching a per-account table's groups before they are visited.
///
/// A spill writes the groups account by account, but they lie in the table
/// in the order records first met them, and each one's members are one
/// more allocation of their own (and its totals beyond the first currency
/// a second): about two cache misses a group,
/// one after the other, so a spill waits on memory far more than it computes.
/// Asking for the lines a few groups ahead lets those misses overlap
/// (DuckDB's hash tables prefetch the same way).
extension GroupTable {
  /// How many groups of an account are prefetched at most (an account with
  /// more has its later ones in flight anyway while the first are written).
  static let prefetchedGroupsPerAccount = 16

  /// Starts loading the accumulators of `indices` (their first lines).
  func prefetchAccumulators(_ indices: ArraySlice<Int>) {
    groups.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return }
      for index in indices.prefix(Self.prefetchedGroupsPerAccount) where index < all.count {
        txfold_prefetch(base + index)
      }
    }
  }

  /// Starts loading the storage of group `index`'s totals and members
  /// (nothing past the last group).
  func prefetchStorage(ofGroupAt index: Int) {
    groups.withUnsafeBufferPointer { all in
      guard index < all.count, let base = all.baseAddress else { return }
      GroupAccumulator.prefetchStorage(of: base + index)
    }
  }

  /// Starts loading the storage of the totals and members of `indices`,
  /// whose accumulators should already be in the cache.
  func prefetchStorage(_ indices: ArraySlice<Int>) {
    groups.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return }
      for index in indices.prefix(Self.prefetchedGroupsPerAccount) where index < all.count {
        GroupAccumulator.prefetchStorage(of: base + index)
      }
    }
  }
}

extension GroupAccumulator {
  /// Where the totals' array reference and the members' block reference
  /// lie in the accumulator, found once (none, so no prefetching, should
  /// either ever be more than one word).
  static let arrayOffsets: [Int] =
    MemoryLayout<[UInt8]>.size != MemoryLayout<UInt>.size
      || MemoryLayout<MemberStorage?>.size != MemoryLayout<UInt>.size
    ? []
    : [
      MemoryLayout<GroupAccumulator>.offset(of: \.totals.rest),
      MemoryLayout<GroupAccumulator>.offset(of: \.members.storage),
    ].compactMap { $0 }

  /// Starts loading the group's totals array and members' block (the
  /// totals beyond the first currency's are the empty array's shared
  /// storage in most groups, already in the cache).
  ///
  /// Each is one reference to its storage (header, then elements): the
  /// reference is read as plain bits, because reading it as a reference would
  /// retain it, which touches the storage and waits for the very miss this
  /// is meant to start early. Only the address is used, as a hint (0, no
  /// block, is a hint that never faults).
  @inline(__always)
  static func prefetchStorage(of group: UnsafePointer<GroupAccumulator>) {
    let raw = UnsafeRawPointer(group)
    for offset in arrayOffsets {
      txfold_prefetch(UnsafeRawPointer(bitPattern: raw.load(fromByteOffset: offset, as: UInt.self)))
    }
  }
}

extension GroupAccumulator {
  /// Where the members' block reference and the ring's head lie in the
  /// accumulator, and where a block's entries start in it (none, so no
  /// prefetching, should a reference ever be more than one word).
  @usableFromInline static let foldedOffsets: (storage: Int, head: Int, entries: Int)? = {
    guard MemoryLayout<MemberStorage?>.size == MemoryLayout<UInt>.size,
      let storage = MemoryLayout<GroupAccumulator>.offset(of: \.members.storage),
      let head = MemoryLayout<GroupAccumulator>.offset(of: \.members.head)
    else { return nil }
    let block = MemberHeap.makeStorage(memberCapacity: 1, textCapacity: 0)
    let entries = block.withUnsafeMutablePointerToElements { words in
      UnsafeRawPointer(words) - UnsafeRawPointer(Unmanaged.passUnretained(block).toOpaque())
    }
    return (storage, head, entries)
  }()

  /// Starts loading what a record's fold reads beyond the accumulator (the
  /// fold queue's second step, `GroupTable+Ahead.swift`): the entry at the
  /// ring's head (the last kept member of a full ring; a heap's top is entry
  /// 0, in the same first lines), where `prefetchStorage(of:)` takes the
  /// totals' and the members' blocks' first lines for a spill. The first currency's total is in
  /// the accumulator; a group of more currencies is rare enough to wait for
  /// the others. References are read as plain bits for the reason given there.
  @inlinable @inline(__always)
  static func prefetchFoldedStorage(of group: UnsafePointer<GroupAccumulator>) {
    guard let offsets = foldedOffsets else { return }
    let raw = UnsafeRawPointer(group)
    let storage = raw.load(fromByteOffset: offsets.storage, as: UInt.self)
    let head = raw.load(fromByteOffset: offsets.head, as: UInt.self)
    txfold_prefetch(UnsafeRawPointer(bitPattern: storage))
    let entry = UInt(offsets.entries) &+ (head & 0xFFFF) &* UInt(MemoryLayout<MemberHeap.Entry>.stride)
    txfold_prefetch(UnsafeRawPointer(bitPattern: storage &+ entry))
  }
}
