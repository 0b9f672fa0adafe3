/// Reusing the storage of removed groups in per-account tables.
///
/// A per-account fold makes and drops groups by the hundred thousand (a
/// bank's export has about one or two records per account, state, day and
/// indicator): each new group would allocate its members' block (and
/// totals beyond the first currency's, which lies in the group), and each
/// spill or merged batch free them all again, so allocation
/// rather than folding would set the pace. A table keeps the storage of
/// removed groups that held at most one member (`Storage.isSmall`) and hands
/// it to its next new groups.
/// Larger storage is freed, so a recycled group never holds more room than a
/// new one-member group would take, and `GroupTable.estimatedBytes` counts
/// the stored pieces until they are reused.
extension GroupAccumulator {
  /// A removed group's totals and members, emptied, with their room.
  @usableFromInline
  struct Storage {
    @usableFromInline var totals: GroupTotals
    @usableFromInline var members: MemberHeap

    @inlinable
    init(totals: GroupTotals, members: MemberHeap) {
      self.totals = totals
      self.members = members
    }
  }

  /// Whether this group's room is at most what one kept member and one
  /// currency take (and so worth keeping for a new group).
  @inlinable var hasSmallStorage: Bool {
    totals.hasInlineRoomOnly && members.hasOneMemberRoom
  }

  /// Moves the group's totals and members out, emptied with their room kept.
  @inlinable
  mutating func takeStorage() -> Storage {
    var storage = Storage(totals: GroupTotals(), members: MemberHeap(limit: members.limit))
    swap(&storage.totals, &totals)
    swap(&storage.members, &members)
    storage.totals.removeAllKeepingRoom()
    storage.members.removeAllKeepingRoom()
    return storage
  }

  /// Takes over recycled storage (emptied by `takeStorage()`) for this new,
  /// empty group, leaving `storage` empty: swapped, so no array is copied,
  /// retained or released.
  @inlinable
  mutating func adoptStorage(_ storage: inout Storage) {
    swap(&totals, &storage.totals)
    swap(&members, &storage.members)
  }
}

extension MemberHeap {
  /// The most text bytes a recycled heap keeps room for: an id, a currency
  /// and a description of usual length.
  @usableFromInline static let recycledTextRoom = 128

  /// Whether the heap's block holds room for one member, not more.
  @inlinable var hasOneMemberRoom: Bool {
    memberCapacity <= 1 && textCapacity <= Self.recycledTextRoom
  }

  /// Forgets every member, keeping the block's room.
  @inlinable
  mutating func removeAllKeepingRoom() {
    removeAllMembersKeepingRoom()
    head = 0
    spare = -1
    countedTextExcess = 0
    pendingSlots = 0
    textGrew = false
  }
}

extension Array {
  /// Removes every element of a short array, keeping its room: one
  /// `removeLast()` each, where `removeAll(keepingCapacity:)` goes through
  /// the general `replaceSubrange`, costly for arrays of one or two elements.
  @inlinable
  mutating func removeLastFew() {
    while !isEmpty { removeLast() }
  }
}
