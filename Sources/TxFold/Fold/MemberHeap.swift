/// The N members of a group that come first in report order, kept so that the
/// one that would be dropped next is found at once.
///
/// Bounded memory: with `limit` N it never holds more than N members, and the
/// choice depends only on the set of members offered, never on their order, so
/// per-thread heaps merge to the same result as one heap over all the input.
///
/// Order of the entries: for a limit up to `ringLimit` (the default 20
/// included) a sorted ring, most recent last, whose `head` is the entry dropped
/// next. Dumps are sorted by day, and within a day a record is seldom far
/// out of place, so a kept member usually belongs among the few most recent:
/// it takes the dropped entry's place and moves down past the entries more
/// recent than it, usually none or a few steps, where a heap's sift-down goes
/// past log2(N) levels comparing two children at each (BENCHMARKS.md, "Figures
/// behind the design"). Report order then needs no sort. Out of order, a
/// replacement moves past N/2 entries on average, so larger limits (and
/// `--members all`) keep a binary heap whose top is the entry dropped next.
///
/// Layout: the entries are small (instant and slot number); each slot
/// holds a member's fixed-size values and the place of its text (id, currency,
/// description) in one byte arena per group; entries, slots and arena share
/// one allocation. A member that replaces the last
/// kept one takes over its slot and its text's place, so a full group's steady
/// stream of newer members allocates nothing and moves 16-byte entries, never
/// strings. A slot whose text outgrows its place moves it to the arena's end,
/// doubling the room; each slot's room only grows, so the arena stays within a
/// small multiple of what the kept members need.
///
/// Deferred text (ring only): while a worker folds a chunk, a kept member's
/// strings may stay in its record (`PendingText`) until `writePendingText()`
/// copies them, before the chunk's bytes go away. A group's day lies mostly
/// within one chunk of a dump sorted by day, so most kept members are dropped
/// before then and their strings are never decoded or copied.
@_spi(Benchmarks) public struct MemberHeap {
  /// The most members kept (`Int.max` for `--members all`).
  public let limit: Int
  /// The block that holds the kept members' entries, their slots and their
  /// text (`MemberHeap+Storage.swift`), `nil` until the first member.
  ///
  /// The entries are a sorted ring when `isRing` (oldest at `head`, then more
  /// recent ones, wrapping around), else a binary heap; either way
  /// `entries[lastIndex]` is the kept member that comes last in report order.
  /// The slots hold members' values by slot number, one more than the
  /// entries when a spare slot exists; the text holds them per slot at
  /// `Slot.textStart`: id, currency, description.
  @usableFromInline var storage: MemberStorage?
  /// Whether `entries` is a sorted ring rather than a heap (decided by the limit).
  @usableFromInline let isRing: Bool
  /// Ring only: the position of the entry that comes last in report order (0
  /// until the ring is full, as entries are added at the end).
  @usableFromInline var head = 0
  /// The slot not in the heap (a candidate is written there before a tie is judged), or -1.
  @usableFromInline var spare: Int32 = -1
  /// What the owning per-account table last counted for this heap's text
  /// beyond its members' assumed share (`GroupTable.countTextExcess(of:)`);
  /// beside `spare`, in what was padding.
  @usableFromInline var countedTextExcess: UInt32 = 0
  /// The slots whose text may still be pending (in a record), one bit each:
  /// every slot with pending text has its bit set (a bit may outlive its
  /// text). Only a ring of at most `ringLimit` members defers text, with at
  /// most `ringLimit + 1` slots, so the bits fit. Writing the pending text visits these slots
  /// alone: on a shuffled dump nearly every group has some pending at the end
  /// of a chunk, and reading all of its slots to find them waited on memory
  /// for each.
  @usableFromInline var pendingSlots: UInt64 = 0
  /// Whether the text arena grew since the owning per-account table last
  /// counted it (`GroupTable.noteTextGrowth(of:)`); in what was padding.
  @usableFromInline var textGrew = false

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
  struct Slot {
    @usableFromInline var instant: Timestamp
    @usableFromInline var amount: ExactDecimal
    /// The slot's room in `text`: `textStart..<textStart + textCapacity`.
    @usableFromInline var textStart: Int
    @usableFromInline var textCapacity: Int
    @usableFromInline var idLength: Int
    @usableFromInline var currencyLength: Int
    /// -1 when the member has no description.
    @usableFromInline var descriptionLength: Int
    /// The member's strings while still in its record; the text fields above
    /// are then stale.
    @usableFromInline var pendingText: PendingText?

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
      pendingText = nil
    }
  }

  /// A kept member's strings as references into the record it came from.
  ///
  /// Unchecked `Sendable`: the pointers are only set while one worker folds a
  /// chunk, and `writePendingText()` clears them before that chunk's bytes go
  /// away, so they never cross threads or outlive their bytes.
  @usableFromInline
  struct PendingText {
    @usableFromInline var record: UnsafeBufferPointer<UInt8>
    @usableFromInline var id: ValueRef
    @usableFromInline var description: ValueRef
    @usableFromInline var currency: UnsafeBufferPointer<UInt8>

    @inlinable
    init(
      record: UnsafeBufferPointer<UInt8>, id: ValueRef, description: ValueRef, currency: UnsafeBufferPointer<UInt8>
    ) {
      self.record = record
      self.id = id
      self.description = description
      self.currency = currency
    }
  }

  /// The largest limit kept in a sorted ring: a member out of order moves past
  /// half the entries on average, which beyond this costs more than a heap.
  @usableFromInline static let ringLimit = 32

  /// Creates an empty heap that keeps at most `limit` members.
  public init(limit: Int) {
    self.init(limit: limit, ring: limit <= Self.ringLimit)
  }

  /// Chooses the order of the entries; tests use both with one limit. A ring
  /// costs O(limit) for a member that arrives out of order.
  init(limit: Int, ring: Bool) {
    self.limit = limit
    isRing = ring
  }

  /// Members kept now.
  @inlinable public var count: Int { entries.count }
  /// Whether a newer member now has to replace one.
  @inlinable public var isFull: Bool { entries.count >= limit }

  /// Whether some slot's text may still be pending (in a record).
  @inlinable var hasPendingText: Bool { pendingSlots != 0 }

  /// Where the kept member that comes last in report order is (when there is one).
  @inlinable var lastIndex: Int { isRing ? head : 0 }

  /// The kept member that comes last in report order (the next to be dropped).
  public var last: KeptMember? {
    entries.isEmpty ? nil : member(inSlot: Int(entries[lastIndex].slot))
  }

  /// Offers a record's member, its strings as references into `record`
  /// (decoded only if kept): kept when the heap has room or it comes before
  /// the last kept one. `currency` is the code's bytes, decoded.
  ///
  /// - Complexity: for a kept member, O(k) in a ring where k members are more
  ///   recent than it (O(1) in order), O(log N) in a heap; O(1) for one judged
  ///   older on its instant; no allocation once a full group's slots have room.
  @inlinable
  package mutating func offer(
    instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>
  ) {
    offer(
      instant: instant, amount: amount, id: id, currency: currency, description: description, record: record,
      deferringText: false)
  }

  /// `offer(instant:amount:id:currency:description:record:)`; with
  /// `deferringText` (in a ring only), a kept member's strings stay in
  /// `record` and `currency` until `writePendingText()`, which the caller must
  /// call while their bytes are still there and unchanged.
  ///
  /// Always inlined into the fold: it runs for every accepted record, and
  /// passing its thirteen arguments through a call would cost more than most
  /// of what it does.
  @inlinable @inline(__always)
  mutating func offer(
    instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>, deferringText: Bool, floor: MemberFloor = .none
  ) {
    guard limit > 0 else { return }
    // A ring of a larger limit is made only by tests; its slots would not fit `pendingSlots`.
    let deferring = deferringText && isRing && limit <= Self.ringLimit
    if entries.count < limit {
      // Only a member that would be kept reads the shared floor (another core's writes).
      if floor.excludes(seconds: instant.epochSeconds) { return }
      let slot = newSlot(
        textRoom: Self.roomCapacity(
          length: Self.textBound(id: id, currency: currency, description: description), previous: 0))
      store(
        slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
        record: record, deferring: deferring)
      place(slot)
      return
    }
    let lastIndex = self.lastIndex
    let order = entries[lastIndex].compareInstant(instant)
    // The last kept member is newer: this one comes after it and is not kept.
    if order > 0 { return }
    if floor.excludes(seconds: instant.epochSeconds) { return }
    uniqueStorage()
    if order < 0 {
      // The usual case: the new member replaces the last one in its slot.
      let slot = Int(entries[lastIndex].slot)
      store(
        slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
        record: record, deferring: deferring)
      replaceLast(with: Entry(instant, slot: Int32(slot)))
      return
    }
    // The same instant: the whole member decides, so every text must be at hand.
    writePendingText()
    let slot = spareSlot(textRoom: 0)
    write(
      slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
      record: record)
    place(slot)
  }

  /// Keeps a record's member in `slot`: its strings written now, or with
  /// `deferring` left in the record until `writePendingText()`.
  @inlinable @inline(__always)
  mutating func store(
    slot: Int, instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>, deferring: Bool
  ) {
    guard deferring else {
      write(
        slot: slot, instant: instant, amount: amount, id: id, currency: currency, description: description,
        record: record)
      return
    }
    slots[slot].instant = instant
    slots[slot].amount = amount
    slots[slot].pendingText = PendingText(record: record, id: id, description: description, currency: currency)
    pendingSlots |= 1 << UInt64(truncatingIfNeeded: slot)
  }

  /// Copies every pending member's strings from its record into the arena.
  ///
  /// - Complexity: O(slots) when some text is pending, else O(1).
  @inlinable
  mutating func writePendingText() {
    if hasPendingText { writeAllPendingText() }
  }

  @usableFromInline
  mutating func writeAllPendingText() {
    uniqueStorage()
    reservePendingText()
    var bits = pendingSlots
    pendingSlots = 0
    while bits != 0 {
      let slot = bits.trailingZeroBitCount
      bits &= bits &- 1
      guard let pending = slots[slot].pendingText else { continue }
      write(
        slot: slot, instant: slots[slot].instant, amount: slots[slot].amount, id: pending.id,
        currency: pending.currency, description: pending.description, record: pending.record)
    }
  }

  /// Offers a member: kept when the heap has room or it comes before the last kept one.
  public mutating func offer(_ member: KeptMember) {
    member.text.withUnsafeBufferPointer { bytes in
      offer(
        instant: member.instant, amount: member.amount, text: bytes, idLength: Int(member.idLength),
        currencyLength: Int(member.currencyLength), hasDescription: member.hasDescription)
    }
  }

  /// Offers every member `other` keeps, read from its arena where they lie
  /// (their text written): what merging two tables' groups does, with no
  /// `KeptMember` (an array) made for each.
  mutating func offerMembers(of other: MemberHeap) {
    // `other`'s block stays while it is read: a heap sharing it with this one gets a copy of its own first.
    let bytes = UnsafeBufferPointer(other.text)
    for entry in other.entries {
      let values = other.slots[Int(entry.slot)]
      assert(values.pendingText == nil, "a member's text is still pending")
      offer(
        instant: values.instant, amount: values.amount, text: bytes.slice(values.textStart, values.textLength),
        idLength: values.idLength, currencyLength: values.currencyLength, hasDescription: values.hasDescription)
    }
  }

  /// Offers a member given as its values and its text (id, currency, then
  /// the description), as a spill run holds it: no `KeptMember` is made.
  mutating func offer(
    instant: Timestamp, amount: ExactDecimal, text: UnsafeBufferPointer<UInt8>, idLength: Int, currencyLength: Int,
    hasDescription: Bool
  ) {
    guard limit > 0 else { return }
    writePendingText()
    uniqueStorage()
    let room = Self.roomCapacity(length: text.count, previous: 0)
    let candidate = isFull ? spareSlot(textRoom: room) : newSlot(textRoom: room)
    write(
      slot: candidate, instant: instant, amount: amount, idLength: idLength, currencyLength: currencyLength,
      hasDescription: hasDescription, text: text)
    place(candidate)
  }

  /// The kept members in report order.
  ///
  /// - Complexity: O(N) for a ring, O(N log N) for a heap.
  public func sorted() -> [KeptMember] {
    reportOrder().map { member(inSlot: $0) }
  }

  /// The kept members in report order, as a report shows them: read from the
  /// arena directly, without a `KeptMember` (an array) for each.
  ///
  /// - Complexity: O(N) for a ring, O(N log N) for a heap.
  public func groupMembers() -> [GroupMember] {
    let order = reportOrder()
    let bytes = UnsafeBufferPointer(text)
    return order.map { slot in
      let values = slots[slot]
      let currencyStart = values.textStart + values.idLength
      let descriptionStart = currencyStart + values.currencyLength
      return GroupMember(
        id: String(decoding: bytes.slice(values.textStart, values.idLength), as: UTF8.self),
        description: values.hasDescription
          ? String(decoding: bytes.slice(descriptionStart, values.descriptionLength), as: UTF8.self) : nil,
        amount: values.amount,
        currency: String(decoding: bytes.slice(currencyStart, values.currencyLength), as: UTF8.self),
        instant: values.instant)
    }
  }

  /// The kept members' slots in report order.
  func reportOrder() -> [Int] {
    assert(!hasPendingText, "a member's text is still pending")
    return entriesInReportOrder().map { Int($0.slot) }
  }

  /// The kept members' entries in report order.
  func entriesInReportOrder() -> [Entry] {
    guard isRing else {
      // By the entries' instants, which decide almost always, and the whole members only on a tie.
      return entries.sorted { left, right in
        let byInstant = left.compareInstant(right)
        if byInstant != 0 { return byInstant > 0 }
        return compareSlots(Int(left.slot), Int(right.slot)) < 0
      }
    }
    // The ring from its most recent entry (just before `head`) back to `head`.
    let count = entries.count
    return (0..<count).map { step in
      let position = head + count - 1 - step
      return entries[position < count ? position : position - count]
    }
  }

  /// The kept members' slots in report order, less one member equal in
  /// report order (equal in every field a report prints: which of equals
  /// leaves is alike) to each member `other` keeps, where one is left: a
  /// group's members once its losers' leave.
  ///
  /// - Complexity: O(N log N + M log N) for N members here and M in `other`, when few instants tie.
  func reportOrder(leavingOutMembersOf other: MemberHeap) -> [Int] {
    assert(!hasPendingText && !other.hasPendingText, "a member's text is still pending")
    let order = entriesInReportOrder()
    var left = [Bool](repeating: true, count: order.count)
    for entry in other.entries {
      // The first member no more recent than the leaving one (the order is most recent first).
      var low = 0
      var high = order.count
      while low < high {
        let middle = (low + high) / 2
        if order[middle].compareInstant(entry) > 0 { low = middle + 1 } else { high = middle }
      }
      var position = low
      while position < order.count && order[position].compareInstant(entry) == 0 {
        if left[position] && isSame(Int(order[position].slot), as: Int(entry.slot), of: other) {
          left[position] = false
          break
        }
        position += 1
      }
    }
    return order.indices.compactMap { left[$0] ? Int(order[$0].slot) : nil }
  }

  /// Calls `body` with each kept member's slot in report order and the text
  /// its lengths point into: what a writer renders straight from the table,
  /// with no array per group when the members are a ring (up to 32).
  ///
  /// On the heap at `heap`, read where it lies; `body` must not change it.
  /// Not a method: a call on `pointer.pointee` copies the heap first (a
  /// retain and a release per group rendered), since the compiler cannot
  /// tell that `body` leaves that memory alone; the regions are taken in
  /// place before `body` runs.
  static func forEachInReportOrder(
    of heap: UnsafePointer<MemberHeap>, _ body: (Slot, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    assert(!heap.pointee.hasPendingText, "a member's text is still pending")
    let text = UnsafeBufferPointer(heap.pointee.text)
    let slots = heap.pointee.slots
    guard heap.pointee.isRing else {
      for slot in heap.pointee.reportOrder() { body(slots[slot], text) }
      return
    }
    let entries = heap.pointee.entries
    let head = heap.pointee.head
    let count = entries.count
    for step in 0..<count {
      let position = head + count - 1 - step
      body(slots[Int(entries[position < count ? position : position - count].slot)], text)
    }
  }

  /// Calls `body` with each kept member, in no particular order.
  public func forEachMember(_ body: (KeptMember) -> Void) {
    for entry in entries { body(member(inSlot: Int(entry.slot))) }
  }

  /// The member in a slot, as a value.
  func member(inSlot slot: Int) -> KeptMember {
    let values = slots[slot]
    assert(values.pendingText == nil, "a member's text is still pending")
    let start = values.textStart
    return KeptMember(
      instant: values.instant, amount: values.amount, text: Array(text[start..<start + values.textLength]),
      idLength: Int32(values.idLength), currencyLength: Int32(values.currencyLength),
      hasDescription: values.hasDescription)
  }

  /// A heap of `limit` holding the first `limit` of `slots` (members of this
  /// one, in report order, each once, their text written): what taking
  /// members out or trimming a retractable table's groups keeps. Made
  /// directly, its text in a copy of this arena: entries oldest first are a
  /// ring from `head` 0 and a heap alike, so no member is offered or moved,
  /// and no `KeptMember` (an array) is made for each.
  func keeping(_ slots: some Collection<Int>, limit: Int) -> MemberHeap {
    var kept = MemberHeap(limit: limit)
    guard limit > 0 else { return kept }
    let chosen = slots.prefix(limit)
    guard !chosen.isEmpty else { return kept }
    let storage = Self.makeStorage(memberCapacity: chosen.count, textCapacity: text.count)
    kept.storage = storage
    Self.header(of: storage).pointee.entryCount = chosen.count
    Self.header(of: storage).pointee.slotCount = chosen.count
    Self.header(of: storage).pointee.textCount = text.count
    let (entries, keptSlots) = (kept.entries, kept.slots)
    for (number, slot) in chosen.reversed().enumerated() {
      let values = self.slots[slot]
      assert(values.pendingText == nil, "a member's text is still pending")
      entries.initializeElement(at: number, to: Entry(values.instant, slot: Int32(number)))
      keptSlots.initializeElement(at: number, to: values)
    }
    // Safe because the new block has room for this arena's bytes.
    if let from = text.baseAddress { kept.text.baseAddress?.initialize(from: from, count: text.count) }
    return kept
  }

  /// Whether the member in `slot` and the one in `otherSlot` of `other` are
  /// equal in report order (`KeptMember.compareReportOrder`): equal in every
  /// field a report prints.
  func isSame(_ slot: Int, as otherSlot: Int, of other: MemberHeap) -> Bool {
    let left = slots[slot]
    let right = other.slots[otherSlot]
    assert(left.pendingText == nil && right.pendingText == nil, "a member's text is still pending")
    guard left.instant.compareInstant(right.instant) == 0 else { return false }
    return Self.compareAfterInstant(left, in: UnsafeBufferPointer(text), right, in: UnsafeBufferPointer(other.text))
      == 0
  }

  /// Report order of two members whose instants tie, each slot's text in
  /// its own arena (see `KeptMember.compareAfterInstant`).
  @inlinable
  static func compareAfterInstant(
    _ left: Slot, in leftText: UnsafeBufferPointer<UInt8>, _ right: Slot, in rightText: UnsafeBufferPointer<UInt8>
  ) -> Int {
    KeptMember.compareAfterInstant(
      left.instant, left.amount, id: leftText.slice(left.textStart, left.idLength),
      rest: leftText.slice(left.textStart + left.idLength, left.textLength - left.idLength),
      hasDescription: left.hasDescription,
      right.instant, right.amount, id: rightText.slice(right.textStart, right.idLength),
      rest: rightText.slice(right.textStart + right.idLength, right.textLength - right.idLength),
      hasDescription: right.hasDescription)
  }

  /// A new slot for a heap with room (its text room is given when written;
  /// `textRoom` is what a heap's first block takes for it).
  @inlinable
  mutating func newSlot(textRoom: Int) -> Int {
    if spare >= 0 {
      let slot = Int(spare)
      spare = -1
      uniqueStorage()
      return slot
    }
    return appendSlot(textRoom: textRoom)
  }

  /// The spare slot of a full heap, made when first needed.
  @inlinable
  mutating func spareSlot(textRoom: Int) -> Int {
    if spare < 0 { spare = Int32(appendSlot(textRoom: textRoom)) }
    return Int(spare)
  }

  /// Puts a written slot among the kept members: added when there is room,
  /// else in place of the last kept member when it comes before it (that one's
  /// slot becomes the spare), else left as the spare.
  @inlinable
  mutating func place(_ slot: Int) {
    let entry = Entry(slots[slot].instant, slot: Int32(slot))
    if entries.count < limit {
      // The block's room grew with the slots (doubling, from one): a slot was made for this entry.
      appendEntry(entry)
      // A ring fills from position 0 (`head` stays 0): the new entry moves down
      // from the end past those more recent than it.
      if isRing { sink(entry, from: entries.count - 1, to: 0) } else { siftUp(entries.count - 1) }
      return
    }
    let last = Int(entries[lastIndex].slot)
    guard compareSlots(slot, last) < 0 else {
      spare = Int32(slot)
      return
    }
    spare = Int32(last)
    slots[last].pendingText = nil
    replaceLast(with: entry)
  }

  /// Drops the kept member that comes last in report order and keeps `entry`,
  /// which comes before it.
  @inlinable
  mutating func replaceLast(with entry: Entry) {
    guard isRing else {
      entries[0] = entry
      siftDown(0)
      return
    }
    // The dropped entry's position is a hole at the ring's recent end once
    // `head` moves on to the next oldest; the new entry sinks from there.
    let hole = head
    head = head + 1 == entries.count ? 0 : head + 1
    sink(entry, from: hole, to: head)
  }

  /// Ring only: writes `entry` at `hole` (the ring's most recent position)
  /// or further down, moving each entry more recent than it one position up
  /// toward the hole, never below `bottom` (the position of the oldest entry);
  /// by instants on the entries' memory, and from the first tie on with whole
  /// members.
  @inlinable
  mutating func sink(_ entry: Entry, from hole: Int, to bottom: Int) {
    let stop = Self.sinkByInstant(entry, entries, from: hole, to: bottom)
    if stop >= 0 { sinkComparingMembers(entry, from: stop, to: bottom) }
  }

  @inlinable
  mutating func sinkComparingMembers(_ entry: Entry, from start: Int, to bottom: Int) {
    writePendingText()
    let count = entries.count
    var hole = start
    while hole != bottom {
      let below = hole == 0 ? count - 1 : hole - 1
      // The entry below stays when it comes after `entry` in report order (or is the same).
      let byInstant = entries[below].compareInstant(entry)
      if byInstant < 0 { break }
      if byInstant == 0 && compareSlots(Int(entries[below].slot), Int(entry.slot)) >= 0 { break }
      entries[hole] = entries[below]
      hole = below
    }
    entries[hole] = entry
  }

  /// Report order of two slots (see `KeptMember.compareReportOrder`); their
  /// text must not be pending.
  @inlinable
  func compareSlots(_ a: Int, _ b: Int) -> Int {
    let left = slots[a]
    let right = slots[b]
    assert(left.pendingText == nil && right.pendingText == nil, "a member's text is still pending")
    let byInstant = left.instant.compareInstant(right.instant)
    if byInstant != 0 { return -byInstant }
    let bytes = UnsafeBufferPointer(text)
    return Self.compareAfterInstant(left, in: bytes, right, in: bytes)
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
    let tie = Self.siftDownByInstant(entries, from: start)
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
