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
    let common = min(lhs.count, rhs.count)
    let order = lhs.withUnsafeBufferPointer { left in
      rhs.withUnsafeBufferPointer { right -> Int32 in
        guard common > 0, let left = left.baseAddress, let right = right.baseAddress else { return 0 }
        return SystemCalls.compareBytes(left, right, count: common)
      }
    }
    if order != 0 { return Int(order) }
    return lhs.count - rhs.count
  }
}
