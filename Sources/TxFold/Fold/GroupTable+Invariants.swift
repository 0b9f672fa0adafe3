/// Executable invariants of the fold's pointer-heavy structures: the group
/// indexes (open addressing), the member heap (sorted ring or binary heap,
/// slots and text arena) and the table that ties them together.
///
/// Each `checkInvariants()` walks the whole structure and traps on the first
/// broken rule, naming it. Tests call them directly; a build with
/// `TXFOLD_INVARIANTS` defined (every debug build of the package, and the
/// fuzz harness) also runs `GroupTable.checkInvariantsIfEnabled()` after each
/// chunk is folded and after each merge, so that the whole suite and every
/// fuzz input exercise them. Release builds compile the calls away.
extension GroupTable {
  /// `checkInvariants()` in a `TXFOLD_INVARIANTS` build; nothing otherwise.
  @inline(__always)
  func checkInvariantsIfEnabled() {
    #if TXFOLD_INVARIANTS
      checkInvariants()
    #endif
  }

  /// Traps unless every group is found under its own key, the index holds
  /// nothing else, and every group's counts, totals and members agree.
  ///
  /// - Complexity: O(groups + kept members), plus the indexes' buckets.
  func checkInvariants() {
    if perAccount {
      accountIndex.checkInvariants()
      precondition(index.count == 0, "a per-account table keeps its groups in accountIndex only")
      precondition(
        accountIndex.count == groups.count, "accountIndex holds \(accountIndex.count) of \(groups.count) groups")
    } else {
      index.checkInvariants()
      precondition(index.count == groups.count, "index holds \(index.count) of \(groups.count) groups")
    }
    for (number, group) in groups.enumerated() {
      let key = Self.packKey(state: group.state, day: group.day, indicator: group.indicator)
      let found = perAccount ? accountIndex.find(key, account: group.account) : index.find(key)
      precondition(found == number, "group \(number) is found as \(found) under its own key")
      precondition(group.state < states.count, "group \(number) has state number \(group.state) of \(states.count)")
      precondition(!perAccount || Int(group.account) < accounts.count, "group \(number) has an unknown account")
      for total in group.totals {
        precondition(total.currency < currencies.count, "group \(number) has an unknown currency number")
      }
      group.checkInvariants()
    }
    precondition(lastGroup < groups.count, "the last group found is \(lastGroup) of \(groups.count)")
  }
}

extension GroupAccumulator {
  /// Traps unless the per-currency counts add up to `count`, each currency
  /// has one total, nothing was folded without a latest instant, and the
  /// members are at most the transactions and none later than the latest.
  func checkInvariants() {
    var counted = 0
    for (position, total) in totals.enumerated() {
      precondition(total.count > 0, "a currency total sums no transaction")
      precondition(
        !totals[..<position].contains { $0.currency == total.currency }, "currency \(total.currency) has two totals")
      counted += total.count
    }
    precondition(counted == count, "the currency totals count \(counted) transactions of \(count)")
    precondition((latest == nil) == (count == 0), "a group has a latest instant exactly when it counts something")
    precondition(members.count <= count, "a group keeps \(members.count) members of \(count) transactions")
    members.checkInvariants()
    if let latest {
      for entry in members.entries {
        precondition(entry.compareInstant(latest) <= 0, "a kept member is later than the group's latest instant")
      }
    }
  }
}

extension MemberHeap {
  /// Traps unless the entries are at most `limit` and name distinct slots
  /// whose instants they carry, the spare is the one slot left over, every
  /// slot's text lies in its own room of the arena, and the entries are in
  /// order: a ring from `head` (the member dropped next) toward the most
  /// recent, each no later than the next; a heap with every parent no later
  /// than its children. Where instants tie and no text is pending, the whole
  /// members decide, as when they were placed.
  func checkInvariants() {
    precondition(entries.count <= limit, "\(entries.count) members kept with a limit of \(limit)")
    var used = [Bool](repeating: false, count: slots.count)
    for entry in entries {
      let slot = Int(entry.slot)
      precondition(slot >= 0 && slot < slots.count, "an entry names slot \(slot) of \(slots.count)")
      precondition(!used[slot], "two entries name slot \(slot)")
      used[slot] = true
      precondition(
        entry.compareInstant(slots[slot].instant) == 0, "an entry's instant is not its slot's")
    }
    if spare >= 0 {
      precondition(Int(spare) < slots.count && !used[Int(spare)], "the spare slot is kept as a member")
    }
    precondition(
      slots.count == entries.count + (spare >= 0 ? 1 : 0), "\(slots.count) slots for \(entries.count) members")
    precondition(slots.count <= memberCapacity, "\(slots.count) slots in a block with room for \(memberCapacity)")
    precondition(memberCapacity <= (limit == Int.max ? Int.max : limit + 1), "a block has room past the limit")
    precondition(text.count <= textCapacity, "the arena is longer than its block's room")
    // Text rooms: inside the arena, each slot's text within its room, no two rooms overlapping.
    var rooms: [(start: Int, end: Int)] = []
    for (number, slot) in slots.enumerated() {
      precondition(
        slot.pendingText == nil || (number < 64 && pendingSlots & (1 << UInt64(number)) != 0),
        "slot \(number) has pending text nobody will write")
      guard slot.textCapacity > 0 else { continue }
      precondition(
        slot.textStart >= 0 && slot.textStart + slot.textCapacity <= text.count,
        "slot \(number)'s room is outside the arena")
      if slot.pendingText == nil, used[number] {
        precondition(slot.textLength <= slot.textCapacity, "slot \(number)'s text outgrows its room")
      }
      rooms.append((slot.textStart, slot.textStart + slot.textCapacity))
    }
    rooms.sort { $0.start < $1.start }
    for (earlier, later) in zip(rooms, rooms.dropFirst()) {
      precondition(earlier.end <= later.start, "two slots' text rooms overlap")
    }
    let wholeMembers = !hasPendingText
    if isRing {
      precondition(head == 0 || (head < entries.count && entries.count == limit), "the ring's head is \(head)")
      let count = entries.count
      for step in 0..<max(0, count - 1) {
        let older = entries[(head + step) % count]
        let newer = entries[(head + step + 1) % count]
        let order = older.compareInstant(newer)
        precondition(order <= 0, "the ring is out of order at step \(step) from its head")
        if order == 0 && wholeMembers {
          precondition(
            compareSlots(Int(older.slot), Int(newer.slot)) >= 0, "tied ring entries are out of report order")
        }
      }
    } else {
      for child in entries.indices.dropFirst() {
        let parent = (child - 1) / 2
        let order = entries[parent].compareInstant(entries[child])
        precondition(order <= 0, "the heap is out of order at \(child)")
        if order == 0 && wholeMembers {
          precondition(!isAbove(child, parent), "tied heap entries are out of report order at \(child)")
        }
      }
    }
  }
}

extension GroupIndex {
  /// Traps unless the bucket count is a power of two matching `shift`, the
  /// table is at most half full, `count` is its filled buckets, and every
  /// key is unique and reachable from its home bucket without an empty one
  /// on the way (what `find` relies on).
  func checkInvariants() {
    checkOpenAddressing(
      buckets: values.count, shift: shift, count: count, isFilled: { values[$0] >= 0 }, home: { bucket(keys[$0]) },
      sameKey: { keys[$0] == keys[$1] })
  }
}

extension AccountGroupIndex {
  /// `GroupIndex.checkInvariants()` for (key, account) pairs.
  func checkInvariants() {
    checkOpenAddressing(
      buckets: values.count, shift: shift, count: count, isFilled: { values[$0] >= 0 },
      home: { bucket(keys[$0], accounts[$0]) }, sameKey: { keys[$0] == keys[$1] && accounts[$0] == accounts[$1] })
  }
}

/// The rules both indexes keep: linear probing in a power-of-two table at
/// most half full, where every filled bucket is reached from its home bucket
/// through filled buckets only and no key is there twice.
private func checkOpenAddressing(
  buckets: Int, shift: UInt64, count: Int, isFilled: (Int) -> Bool, home: (Int) -> Int, sameKey: (Int, Int) -> Bool
) {
  precondition(buckets > 0 && buckets & (buckets - 1) == 0, "\(buckets) buckets is not a power of two")
  precondition(UInt64(64 - buckets.trailingZeroBitCount) == shift, "shift \(shift) does not match \(buckets) buckets")
  precondition(count * 2 <= buckets, "\(count) keys in \(buckets) buckets: more than half full")
  var filled = 0
  for at in 0..<buckets where isFilled(at) {
    filled += 1
    var probe = home(at)
    while probe != at {
      precondition(isFilled(probe), "bucket \(at) is cut off from its home by an empty bucket")
      precondition(!sameKey(probe, at), "a key is in buckets \(probe) and \(at)")
      probe = (probe + 1) & (buckets - 1)
    }
  }
  precondition(filled == count, "count is \(count), \(filled) buckets are filled")
}
