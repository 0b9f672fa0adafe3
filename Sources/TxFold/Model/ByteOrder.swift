/// Byte-wise order of byte strings (account ids, state and currency names),
/// with `memcmp`: the generic `lexicographicallyPrecedes` walks two
/// iterators a byte at a time, and the per-account end compares ids
/// millions of times (sorting a run's accounts, picking the least head of
/// the runs).
enum ByteOrder {
  /// Whether `lhs` comes before `rhs` byte-wise (a prefix comes first).
  static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    compare(lhs, rhs) < 0
  }

  /// Negative, zero or positive as `lhs` comes before, equals or comes after `rhs`.
  static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in compare(left, right) } }
  }

  /// `compare(_:_:)` on bytes where they lie (a run's entry, a state's payload).
  static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
    let common = min(lhs.count, rhs.count)
    if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
      let order = SystemCalls.compareBytes(left, right, count: common)
      if order != 0 { return Int(order) }
    }
    return lhs.count - rhs.count
  }
}
