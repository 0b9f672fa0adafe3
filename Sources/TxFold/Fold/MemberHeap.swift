/// The N members of a group that come first in report order, kept in a binary
/// heap whose top is the one that would be dropped next.
///
/// Bounded memory: with `limit` N it never holds more than N members, and the
/// choice depends only on the set of members offered, never on their order, so
/// per-thread heaps merge to the same result as one heap over all the input.
///
/// Layout: the heap orders small entries (instant and slot number); each slot
/// holds a member's fixed-size values and the place of its text (id, currency,
/// description) in one byte arena per group. A member that replaces the last
/// kept one takes over its slot and its text's place, so a full group's steady
/// stream of newer members allocates nothing and moves 16-byte entries, never
/// strings. A slot whose text outgrows its place moves it to the arena's end,
/// doubling the room; each slot's room only grows, so the arena stays within a
/// small multiple of what the kept members need.
public struct MemberHeap: Sendable {
  /// The most members kept (`Int.max` for `--members all`).
  public let limit: Int
  /// The heap: `entries[0]` is the kept member that comes last in report order.
  @usableFromInline var entries: [Entry] = []
  /// Members' values by slot; one more than `entries` when a spare slot exists.
  @usableFromInline var slots: [Slot] = []
  /// The slot not in the heap (a candidate is written there before a tie is judged), or -1.
  @usableFromInline var spare: Int32 = -1
  /// The members' text, per slot at `Slot.textStart`: id, currency, description.
  @usableFromInline var text: [UInt8] = []

  /// A heap entry: the member's instant (which decides the order almost
  /// always) and its slot.
  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline var seconds: Int64
    @usableFromInline var nanosecond: UInt32
    @usableFromInline var slot: Int32

    @inlinable init(_ instant: Timestamp, slot: Int32) {
      seconds = instant.epochSeconds
      nanosecond = instant.nanosecond
      self.slot = slot
    }

    /// Three-way comparison of the instants.
    @inlinable @inline(__always)
    func compareInstant(_ other: Entry) -> Int {
      if seconds != other.seconds { return seconds < other.seconds ? -1 : 1 }
      if nanosecond != other.nanosecond { return nanosecond < other.nanosecond ? -1 : 1 }
      return 0
    }

    @inlinable @inline(__always)
    func compareInstant(_ instant: Timestamp) -> Int {
      if seconds != instant.epochSeconds { return seconds < instant.epochSeconds ? -1 : 1 }
      if nanosecond != instant.nanosecond { return nanosecond < instant.nanosecond ? -1 : 1 }
      return 0
    }
  }

  /// A kept member's values and where its text is.
  @usableFromInline
  struct Slot: Sendable {
    @usableFromInline var instant: Timestamp
    @usableFromInline var amount: ExactDecimal
    /// The slot's room in `text`: `textStart..<textStart + textCapacity`.
    @usableFromInline var textStart: Int
    @usableFromInline var textCapacity: Int
    @usableFromInline var idLength: Int
    @usableFromInline var currencyLength: Int
    /// -1 when the member has no description.
    @usableFromInline var descriptionLength: Int

    @inlinable var hasDescription: Bool { descriptionLength >= 0 }
    @inlinable var textLength: Int { idLength + currencyLength + max(0, descriptionLength) }

    @inlinable init(instant: Timestamp, amount: ExactDecimal) {
      self.instant = instant
      self.amount = amount
      textStart = 0
      textCapacity = 0
      idLength = 0
      currencyLength = 0
      descriptionLength = -1
    }
  }

  public init(limit: Int) {
    self.limit = limit
  }

  @inlinable public var count: Int { entries.count }
  @inlinable public var isFull: Bool { entries.count >= limit }

  /// The kept member that comes last in report order (the next to be dropped).
  public var last: KeptMember? {
    entries.first.map { member(inSlot: Int($0.slot)) }
  }

  /// Whether a member with this instant would be kept, judged on the instant
  /// alone: `true` or `false` when that decides it, `nil` on a tie that needs
  /// the whole member.
  @inlinable
  public func wouldKeep(instant: Timestamp) -> Bool? {
    guard limit > 0 else { return false }
    guard isFull, let last = entries.first else { return true }
    let order = -last.compareInstant(instant)
    if order == 0 { return nil }
    return order > 0
  }

  /// Offers a record's member, its strings as references into `record`
  /// (decoded only if kept): kept when the heap has room or it comes before
  /// the last kept one. `currency` is the code's bytes, decoded.
  ///
  /// - Complexity: O(log N) for a kept member, O(1) for one judged older on
  ///   its instant; no allocation once a full group's slots have room.
  @inlinable
  public mutating func offer(
    instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>
  ) {
    guard limit > 0 else { return }
    if entries.count < limit {
      let slot = newSlot()
      write(
        slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
        record: record)
      place(slot)
      return
    }
    let order = entries[0].compareInstant(instant)
    // The last kept member is newer: this one comes after it and is not kept.
    if order > 0 { return }
    if order < 0 {
      // The usual case: the new member replaces the last one in its slot.
      let slot = Int(entries[0].slot)
      write(
        slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
        record: record)
      entries[0] = Entry(instant, slot: Int32(slot))
      siftDown(0)
      return
    }
    // The same instant: the whole member decides.
    let slot = spareSlot()
    write(
      slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
      record: record)
    place(slot)
  }

  /// Offers a member: kept when the heap has room or it comes before the last kept one.
  public mutating func offer(_ member: KeptMember) {
    guard limit > 0 else { return }
    let candidate = isFull ? spareSlot() : newSlot()
    member.text.withUnsafeBufferPointer { bytes in
      write(
        slot: candidate, instant: member.instant, amount: member.amount, idLength: Int(member.idLength),
        currencyLength: Int(member.currencyLength), hasDescription: member.hasDescription, text: bytes)
    }
    place(candidate)
  }

  /// The kept members in report order.
  public func sorted() -> [KeptMember] {
    let order = entries.map { Int($0.slot) }.sorted { compareSlots($0, $1) < 0 }
    return order.map { member(inSlot: $0) }
  }

  /// Calls `body` with each kept member, in no particular order.
  public func forEachMember(_ body: (KeptMember) -> Void) {
    for entry in entries { body(member(inSlot: Int(entry.slot))) }
  }

  /// The member in a slot, as a value.
  func member(inSlot slot: Int) -> KeptMember {
    let values = slots[slot]
    let start = values.textStart
    return KeptMember(
      instant: values.instant, amount: values.amount, text: Array(text[start..<start + values.textLength]),
      idLength: Int32(values.idLength), currencyLength: Int32(values.currencyLength),
      hasDescription: values.hasDescription)
  }

  /// A new slot for a heap with room (its text room is given when written).
  @inlinable
  mutating func newSlot() -> Int {
    if spare >= 0 {
      let slot = Int(spare)
      spare = -1
      return slot
    }
    if slots.isEmpty { slots.reserveCapacity(min(limit, 32) + 1) }
    slots.append(Slot(instant: .epoch, amount: .zero))
    return slots.count - 1
  }

  /// The spare slot of a full heap, made when first needed.
  @inlinable
  mutating func spareSlot() -> Int {
    if spare < 0 {
      slots.append(Slot(instant: .epoch, amount: .zero))
      spare = Int32(slots.count - 1)
    }
    return Int(spare)
  }

  /// Puts a written slot in the heap: added when there is room, else in place
  /// of the last kept member when it comes before it (that one's slot becomes
  /// the spare), else left as the spare.
  @inlinable
  mutating func place(_ slot: Int) {
    let entry = Entry(slots[slot].instant, slot: Int32(slot))
    if entries.count < limit {
      entries.append(entry)
      siftUp(entries.count - 1)
      return
    }
    let top = Int(entries[0].slot)
    guard compareSlots(slot, top) < 0 else {
      spare = Int32(slot)
      return
    }
    spare = Int32(top)
    entries[0] = entry
    siftDown(0)
  }

  /// Report order of two slots (see `KeptMember.compareReportOrder`).
  @inlinable
  func compareSlots(_ a: Int, _ b: Int) -> Int {
    let left = slots[a]
    let right = slots[b]
    let byInstant = left.instant.compareInstant(right.instant)
    if byInstant != 0 { return -byInstant }
    return text.withUnsafeBufferPointer { bytes in
      KeptMember.compareAfterInstant(
        left.instant, left.amount, id: bytes.slice(left.textStart, left.idLength),
        rest: bytes.slice(left.textStart + left.idLength, left.textLength - left.idLength),
        hasDescription: left.hasDescription,
        right.instant, right.amount, id: bytes.slice(right.textStart, right.idLength),
        rest: bytes.slice(right.textStart + right.idLength, right.textLength - right.idLength),
        hasDescription: right.hasDescription)
    }
  }

  /// True when entry `a` should sit above entry `b`: `a` comes later in report order.
  @inlinable @inline(__always)
  func isAbove(_ a: Int, _ b: Int) -> Bool {
    // Instants decide almost always; compare them without looking at the slots.
    let byInstant = entries[a].compareInstant(entries[b])
    if byInstant != 0 { return byInstant < 0 }
    return compareSlots(Int(entries[a].slot), Int(entries[b].slot)) > 0
  }

  @inlinable
  mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard isAbove(child, parent) else { return }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  /// Restores the heap below `start`: by instants on the entries' memory, and
  /// from the first tie on with whole members.
  @inlinable
  mutating func siftDown(_ start: Int) {
    let tie = entries.withUnsafeMutableBufferPointer { Self.siftDownByInstant($0, from: start) }
    if tie >= 0 { siftDownComparingMembers(tie) }
  }

  @inlinable
  mutating func siftDownComparingMembers(_ start: Int) {
    var parent = start
    let count = entries.count
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var top = parent
      if left < count && isAbove(left, top) { top = left }
      if right < count && isAbove(right, top) { top = right }
      if top == parent { return }
      entries.swapAt(parent, top)
      parent = top
    }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// `count` bytes from `start` (both within the buffer).
  @inlinable @inline(__always)
  func slice(_ start: Int, _ count: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: self[start..<start + count])
  }
}

extension Timestamp {
  /// 1970-01-01, a placeholder for slots not yet written.
  @usableFromInline static let epoch = Timestamp(
    year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, fractionDigits: 0, style: .dateOnly,
    offsetNegative: false, nanosecond: 0, offsetMinutes: 0, epochSeconds: 0)
}
