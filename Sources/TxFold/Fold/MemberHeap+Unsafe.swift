extension MemberHeap {
  /// Makes room for `length` bytes of text in `slot` and returns where it starts:
  /// the slot's own room when it is large enough, else new room at the arena's
  /// end at least twice as large (the old room is left unused). A first room
  /// has half as much again as asked, so members of similar length fit in it.
  @inlinable
  mutating func reserveText(slot: Int, length: Int) -> Int {
    if length <= slots[slot].textCapacity { return slots[slot].textStart }
    let capacity = max(length + length / 2, 2 * slots[slot].textCapacity, 32)
    let start = text.count
    text.append(contentsOf: repeatElement(0, count: capacity))
    slots[slot].textStart = start
    slots[slot].textCapacity = capacity
    return start
  }

  /// Writes a member given as its text (id, currency, description) into `slot`.
  @usableFromInline
  mutating func write(
    slot: Int, instant: Timestamp, amount: ExactDecimal, idLength: Int, currencyLength: Int, hasDescription: Bool,
    text source: UnsafeBufferPointer<UInt8>
  ) {
    let start = reserveText(slot: slot, length: source.count)
    text.withUnsafeMutableBufferPointer { arena in
      // Safe because reserveText gave the slot room for source.count bytes from start.
      guard let target = arena.baseAddress, let from = source.baseAddress else { return }
      (target + start).update(from: from, count: source.count)
    }
    slots[slot].instant = instant
    slots[slot].amount = amount
    slots[slot].idLength = idLength
    slots[slot].currencyLength = currencyLength
    slots[slot].descriptionLength = hasDescription ? source.count - idLength - currencyLength : -1
  }

  /// Writes a record's member into `slot`: the id and description decoded
  /// from `record` (the decoder checked that they decode), `currency` as given.
  @inlinable
  mutating func write(
    slot: Int, instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: UnsafeBufferPointer<UInt8>,
    description: ValueRef, record: UnsafeBufferPointer<UInt8>
  ) {
    let hasDescription = description.kind != .absent
    // Decoding never lengthens a string, so the values as written bound the text.
    let bound =
      (id.end - id.start) + currency.count + (hasDescription ? description.end - description.start : 0)
    let start = reserveText(slot: slot, length: bound)
    let lengths = text.withUnsafeMutableBufferPointer { arena -> (id: Int, description: Int) in
      guard let base = arena.baseAddress else { return (0, -1) }
      // Safe because reserveText gave the slot room for `bound` bytes from start,
      // and each value written below takes at most its length as written.
      var cursor = base + start
      let idLength = Self.copyDecoded(id, from: record, to: cursor)
      cursor += idLength
      if let from = currency.baseAddress { cursor.update(from: from, count: currency.count) }
      cursor += currency.count
      let descriptionLength = hasDescription ? Self.copyDecoded(description, from: record, to: cursor) : -1
      return (idLength, descriptionLength)
    }
    slots[slot].instant = instant
    slots[slot].amount = amount
    slots[slot].idLength = lengths.id
    slots[slot].currencyLength = currency.count
    slots[slot].descriptionLength = lengths.description
  }

  /// Copies a value's text to `target` (strings decoded, numbers as written)
  /// and returns its length, at most the value's length as written.
  @inlinable @inline(__always)
  static func copyDecoded(_ ref: ValueRef, from record: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind == .escapedString, let written = StringDecoder.decode(raw, to: target) { return written }
    // Safe because the caller gave room for the value as written.
    if let from = raw.baseAddress { target.update(from: from, count: raw.count) }
    return raw.count
  }
}
