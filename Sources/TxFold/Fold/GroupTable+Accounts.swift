/// Per-account tables: what the fold needs to stay within a memory limit and
/// to hand its groups out account by account.
extension GroupTable {
  /// Bytes a group costs besides its kept members and its place in the
  /// group array (see Documentation/Architecture.md, "Per-account folding"):
  /// its totals (one or two currencies, an allocation's header included) and
  /// its share of the index. The first currency's total lies in the
  /// accumulator (`GroupTotals`), whose stride the group array's room counts,
  /// so what it adds there is not counted twice: a group's estimate is what
  /// it was when the totals were one array.
  static let groupOverheadBytes = 96 + 48 - (MemoryLayout<GroupTotals>.size - MemoryLayout<[Int]>.size)
  /// Bytes a kept member costs at most: its ring entry and slot, room for an
  /// id, a currency and a short description, and the slack of arrays that
  /// grow by doubling.
  static let memberBytes = 2 * (24 + MemoryLayout<MemberHeap.Slot>.stride + memberTextBytes)
  /// The text room per kept member that `memberBytes` counts (twice, for
  /// slack): an id, a currency and a short description. Text beyond it is
  /// counted group by group (`countTextExcess(of:)`).
  static let memberTextBytes = 48

  /// About how many bytes the table holds (per-account tables), counting
  /// every group's kept members at the most they can be: an estimate that
  /// errs high, so that a memory limit holds.
  ///
  /// - Complexity: O(1).
  public var estimatedBytes: Int {
    groups.capacity * MemoryLayout<GroupAccumulator>.stride + groups.count * Self.groupOverheadBytes
      + accountIndex.bytes + accounts.estimatedBytes + keptMemberBound * Self.memberBytes
      + recycled.capacity * MemoryLayout<GroupAccumulator.Storage>.stride
      + recycled.count * (Self.groupOverheadBytes + Self.memberBytes) + textExcessBytes
  }

  /// `countTextExcess(of:)` when the group's text arena grew since it was
  /// last counted: an inline flag, so a fold that kept no new text reads
  /// nothing more of the group.
  @inlinable @inline(__always)
  func noteTextGrowth(of group: Int) {
    guard groups[group].members.textGrew else { return }
    groups[group].members.textGrew = false
    countTextExcess(of: group)
  }

  /// Brings `textExcessBytes` up to date with group `group`'s text room: the
  /// room beyond twice `memberTextBytes` per kept member, so a table of
  /// members with descriptions of thousands of bytes spills before its text
  /// outgrows the limit: the estimate per member assumes short text, which
  /// such descriptions exceed many times over.
  ///
  /// - Complexity: O(1).
  @usableFromInline
  func countTextExcess(of group: Int) {
    let assumed = groups[group].members.entries.count * 2 * Self.memberTextBytes
    let excess = UInt32(clamping: max(0, groups[group].members.textCapacity - assumed))
    textExcessBytes += Int(excess) - Int(groups[group].members.countedTextExcess)
    groups[group].members.countedTextExcess = excess
  }

  /// Empties the table (after its groups were written out), keeping its
  /// states and currencies, whose numbers stay valid.
  ///
  /// With `keepingCapacity` the group array and the account index keep
  /// their room (which `estimatedBytes` counts), for a table refilled again
  /// and again (the merge's batches, a fold's table after a spill); a table
  /// that gets no more groups gives it back.
  /// With `recycling`, the storage of groups with at most one member is kept
  /// for the next groups (counted by `estimatedBytes` until then); without,
  /// what was kept is freed too (a table that gets no more groups).
  func removeAllGroups(keepingCapacity: Bool = false, recycling: Bool = true) {
    if recycling && perAccount {
      // Each group's storage is looked at (`hasSmallStorage`): asked for eight groups ahead.
      let ahead = 8
      for position in 0..<ahead { prefetchStorage(ofGroupAt: position) }
      for position in groups.indices {
        prefetchStorage(ofGroupAt: position + ahead)
        if groups[position].hasSmallStorage { recycled.append(groups[position].takeStorage()) }
      }
    } else {
      recycled = []
    }
    groups.removeAll(keepingCapacity: keepingCapacity)
    index = GroupIndex()
    if keepingCapacity {
      accountIndex.removeAll()
    } else {
      accountIndex = AccountGroupIndex()
    }
    if keepingCapacity {
      accounts.removeAll()
    } else {
      accounts = ByteStringInterner(upperCasing: false)
    }
    currentAccount = 0
    lastKey = .max
    lastGroup = -1
    keptMemberBound = 0
    textExcessBytes = 0
    groupsWithPendingText.removeAll()
  }

  /// The accounts in byte-wise order of their ids, each with the numbers of
  /// its groups (per-account tables).
  ///
  /// - Complexity: O(a log a + g) for a accounts and g groups.
  func groupsByAccount() -> [(account: UInt32, groups: ArraySlice<Int>)] {
    let accountCount = accounts.count
    let (starts, byAccount) = groupNumbersByAccount()
    let names = accounts.strings
    // Sorted on each id's first sixteen bytes as two big-endian integers,
    // which order as the bytes do; only equal keys (ids that long, or ids
    // that differ only by trailing zero bytes) compare the whole ids.
    var keyed: [(high: UInt64, low: UInt64, account: Int)] = []
    keyed.reserveCapacity(accountCount)
    for account in 0..<accountCount where starts[account + 1] > starts[account] {
      let (high, low) = Self.sortKey(names[account])
      keyed.append((high, low, account))
    }
    keyed.sort { lhs, rhs in
      if lhs.high != rhs.high { return lhs.high < rhs.high }
      if lhs.low != rhs.low { return lhs.low < rhs.low }
      return ByteOrder.precedes(names[lhs.account], names[rhs.account])
    }
    return keyed.map { (UInt32($0.account), byAccount[starts[$0.account]..<starts[$0.account + 1]]) }
  }

  /// The accounts in the order of their numbers, each with the numbers of its
  /// groups, skipping accounts without groups: byte-wise order when the
  /// table was folded from input sorted by account (numbers are given in the
  /// order accounts first come).
  ///
  /// - Complexity: O(a + g) for a accounts and g groups.
  func groupsByAccountNumber() -> [(account: UInt32, groups: ArraySlice<Int>)] {
    let accountCount = accounts.count
    let (starts, byAccount) = groupNumbersByAccount()
    var result: [(account: UInt32, groups: ArraySlice<Int>)] = []
    result.reserveCapacity(accountCount)
    for account in 0..<accountCount where starts[account + 1] > starts[account] {
      result.append((UInt32(account), byAccount[starts[account]..<starts[account + 1]]))
    }
    return result
  }

  /// Adds the groups `indices` of `other` (a per-account table) into this
  /// one's account numbered `account`: an account that a chunk of sorted
  /// input continued from the chunk before.
  ///
  /// - Returns: `false` when a currency total would overflow 128 bits.
  /// - Complexity: O(states + currencies of `other` + the groups' kept members).
  func merge<S: Sequence<Int>>(_ other: GroupTable, groups indices: S, intoAccount account: UInt32) -> Bool {
    let stateMap = other.states.strings.map { states.intern($0) }
    let currencyMap = other.currencies.strings.map { currencies.intern($0) }
    setAccount(number: account)
    for index in indices {
      let source = other.groups[index]
      let target = groupIndex(state: stateMap[source.state], day: source.day, indicator: source.indicator)
      let keptBefore = min(groups[target].count, memberLimit)
      if let overflowing = groups[target].absorb(source, currencyMap: currencyMap) {
        return noteOverflow(group: target, currency: overflowing)
      }
      // `estimatedBytes` counts the members the group may now keep (the stream's budget weighs tables by it).
      keptMemberBound += min(groups[target].count, memberLimit) - keptBefore
      noteTextGrowth(of: target)
    }
    return true
  }

  /// An id's first sixteen bytes, zero-padded, as two big-endian integers.
  static func sortKey(_ bytes: [UInt8]) -> (UInt64, UInt64) {
    // The first sixteen bytes copied over zeros, read as two big-endian words.
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { target in
      bytes.withUnsafeBytes { source in
        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(16)))
      }
    }
    return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
  }

  /// A counting sort of the groups by account number: account `a`'s groups
  /// are `byAccount[starts[a]..<starts[a + 1]]`, in table order.
  ///
  /// - Complexity: O(a + g) for a accounts and g groups.
  private func groupNumbersByAccount() -> (starts: [Int], byAccount: [Int]) {
    let accountCount = accounts.count
    var starts = Array(repeating: 0, count: accountCount + 1)
    // The accounts read in place: iterating the groups copied each accumulator (retaining its references).
    for index in groups.indices { starts[Int(groups[index].account) + 1] += 1 }
    for account in 0..<accountCount { starts[account + 1] += starts[account] }
    var filled = starts
    var byAccount = Array(repeating: 0, count: groups.count)
    for index in groups.indices {
      let account = Int(groups[index].account)
      byAccount[filled[account]] = index
      filled[account] += 1
    }
    return (starts, byAccount)
  }
}
