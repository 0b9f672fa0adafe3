extension MemberHeap {
  /// Makes room for `length` bytes of text in `slot` and returns where it starts:
  /// the slot's own room when it is large enough, else new room at the arena's
  /// end at least twice as large (the old room is left unused). A first room
  /// has half as much again as asked, so members of similar length fit in it.
  @inlinable
  mutating func reserveText(slot: Int, length: Int) -> Int {
    if length <= slots[slot].textCapacity { return slots[slot].textStart }
    let capacity = Self.roomCapacity(length: length, previous: slots[slot].textCapacity)
    let start = extendText(by: capacity)
    slots[slot].textStart = start
    slots[slot].textCapacity = capacity
    return start
  }

  /// The room a slot gets for `length` bytes when its `previous` room is too small.
  @inlinable @inline(__always)
  static func roomCapacity(length: Int, previous: Int) -> Int {
    max(length + length / 2, 2 * previous, 32)
  }

  /// Makes room at the arena's end for every pending member whose slot's room
  /// is too small, with one extension for them all.
  @usableFromInline
  mutating func reservePendingText() {
    var start = text.count
    var bits = pendingSlots
    while bits != 0 {
      let slot = bits.trailingZeroBitCount
      bits &= bits &- 1
      guard let pending = slots[slot].pendingText else { continue }
      let bound = Self.textBound(id: pending.id, currency: pending.currency, description: pending.description)
      guard bound > slots[slot].textCapacity else { continue }
      let capacity = Self.roomCapacity(length: bound, previous: slots[slot].textCapacity)
      slots[slot].textStart = start
      slots[slot].textCapacity = capacity
      start += capacity
    }
    guard start > text.count else { return }
    _ = extendText(by: start - text.count)
  }

  /// At least the length of a record's member's text: decoding never
  /// lengthens a string, so the values as written bound it.
  @inlinable @inline(__always)
  static func textBound(id: ValueRef, currency: UnsafeBufferPointer<UInt8>, description: ValueRef) -> Int {
    (id.end - id.start) + currency.count + (description.kind != .absent ? description.end - description.start : 0)
  }

  /// Writes a member given as its text (id, currency, description) into `slot`.
  @usableFromInline
  mutating func write(
    slot: Int, instant: Timestamp, amount: ExactDecimal, idLength: Int, currencyLength: Int, hasDescription: Bool,
    text source: UnsafeBufferPointer<UInt8>
  ) {
    let start = reserveText(slot: slot, length: source.count)
    // Safe because reserveText gave the slot room for source.count bytes from start.
    if let target = text.baseAddress, let from = source.baseAddress {
      (target + start).update(from: from, count: source.count)
    }
    slots[slot].instant = instant
    slots[slot].amount = amount
    slots[slot].idLength = idLength
    slots[slot].currencyLength = currencyLength
    slots[slot].descriptionLength = hasDescription ? source.count - idLength - currencyLength : -1
    slots[slot].pendingText = nil
  }

  /// Writes a record's member into `slot`: the id and description decoded
  /// from `record` (the decoder checked that they decode), `currency` as given.
  @inlinable
  mutating func write(
    slot: Int, instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>
  ) {
    let hasDescription = description.kind != .absent
    let bound = Self.textBound(id: id, currency: currency, description: description)
    let start = reserveText(slot: slot, length: bound)
    // The block holds a slot, so its text region has an address.
    guard let base = text.baseAddress else { return }
    // Safe because reserveText gave the slot room for `bound` bytes from start,
    // and each value written below takes at most its length as written.
    var cursor = base + start
    let idLength = Self.copyDecoded(id, from: record, to: cursor)
    cursor += idLength
    if let from = currency.baseAddress { Self.copyBytes(from: from, to: cursor, count: currency.count) }
    // Upper-cased as the group's totals are (`ByteStringInterner(upperCasing: true)`): `eur` is kept as `EUR`.
    for offset in 0..<currency.count where cursor[offset] &- .lowerA < 26 { cursor[offset] &-= 32 }
    cursor += currency.count
    let descriptionLength = hasDescription ? Self.copyDecoded(description, from: record, to: cursor) : -1
    let slots = self.slots
    slots[slot].instant = instant
    slots[slot].amount = amount
    slots[slot].idLength = idLength
    slots[slot].currencyLength = currency.count
    slots[slot].descriptionLength = descriptionLength
    slots[slot].pendingText = nil
  }

  /// Copies a value's text to `target` (strings decoded, numbers as written)
  /// and returns its length, at most the value's length as written.
  @inlinable @inline(__always)
  static func copyDecoded(
    _ ref: ValueRef, from record: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>
  )
    -> Int
  {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind == .escapedString, let written = StringDecoder.decode(raw, to: target) { return written }
    // Safe because the caller gave room for the value as written.
    if let from = raw.baseAddress { copyBytes(from: from, to: target, count: raw.count) }
    return raw.count
  }

  /// Copies `count` bytes; short ones (ids, currency codes) with a few word
  /// moves instead of a call to `memmove`. The ranges must not overlap.
  @inlinable @inline(__always)
  static func copyBytes(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    switch count {
    case 8...16:
      // Safe because 8 <= count <= 16: the first and last eight bytes cover the range.
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
      // Safe because 4 <= count < 8: the first and last four bytes cover the range.
      let head = from.loadUnaligned(as: UInt32.self)
      let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    case 0..<4:
      for offset in 0..<count { target[offset] = source[offset] }
    default:
      target.update(from: source, count: count)
    }
  }

  /// Moves the hole at `hole` down the ring past every entry more recent than
  /// `entry`, comparing instants only, on the entries' memory directly, never
  /// below `bottom`, and writes `entry` there. Returns -1 when done, or the
  /// hole's position when an entry's instant ties with `entry`'s (not yet
  /// written): the caller goes on from there with whole members.
  @inlinable
  static func sinkByInstant(
    _ entry: Entry, _ ring: UnsafeMutableBufferPointer<Entry>, from start: Int, to bottom: Int
  ) -> Int {
    guard let base = ring.baseAddress else { return -1 }
    let count = ring.count
    precondition(start >= 0 && start < count && bottom >= 0 && bottom < count)
    var hole = start
    // Safe because hole starts in the ring (checked above) and moves only to
    // below, which is hole - 1 or, from 0, count - 1: every access is within it.
    while hole != bottom {
      // Wrapping arithmetic: 1 <= count, and hole - 1 is taken only when hole > 0.
      let below = hole == 0 ? count &- 1 : hole &- 1
      let belowEntry = base[below]
      let order = belowEntry.compareInstant(entry)
      if order < 0 { break }
      if order == 0 { return hole }
      base[hole] = belowEntry
      hole = below
    }
    base[hole] = entry
    return -1
  }

  /// Sifts entry `start` down the heap comparing instants only, on the
  /// entries' memory directly. Returns -1 when done, or the position at which
  /// two instants tie: the caller goes on from there with whole members (the
  /// heap is in order above it).
  @inlinable
  static func siftDownByInstant(_ heap: UnsafeMutableBufferPointer<Entry>, from start: Int) -> Int {
    guard let base = heap.baseAddress else { return -1 }
    let count = heap.count
    var parent = start
    let moving = base[parent]
    // Safe because every index read or written below is checked against count.
    while true {
      let left = 2 * parent + 1
      if left >= count { break }
      var top = left
      var topEntry = base[left]
      var order = topEntry.compareInstant(moving)
      let right = left + 1
      if right < count {
        let rightEntry = base[right]
        let byInstant = rightEntry.compareInstant(topEntry)
        if byInstant == 0 {
          base[parent] = moving
          return parent
        }
        if byInstant < 0 {
          top = right
          topEntry = rightEntry
          order = topEntry.compareInstant(moving)
        }
      }
      // The child sits above when it is older (later in report order).
      if order == 0 {
        base[parent] = moving
        return parent
      }
      if order > 0 { break }
      base[parent] = topEntry
      parent = top
    }
    base[parent] = moving
    return -1
  }
}
