/// Group keys to group numbers: an open-addressing hash table (linear
/// probing, at most half full) on the packed `UInt64` key, with a
/// multiplicative hash — a look-up is a multiply, a shift and usually one
/// compare, where `Dictionary` would run SipHash over the key.
///
/// Keys come from the input, so the table grows with the number of groups;
/// Fibonacci hashing spreads the packed (state, indicator, day) keys, whose
/// low bits vary most, over the whole table.
@usableFromInline
struct GroupIndex {
  /// Per bucket, its key; meaningful where `values` is not -1.
  @usableFromInline var keys: [UInt64]
  /// Per bucket, the group number, or -1 for an empty bucket.
  @usableFromInline var values: [Int]
  @usableFromInline var count = 0
  /// 64 − log2(bucket count): the hash is the product's top bits.
  @usableFromInline var shift: UInt64

  @usableFromInline init() {
    keys = Array(repeating: 0, count: 64)
    values = Array(repeating: -1, count: 64)
    shift = 64 - 6
  }

  @inlinable @inline(__always)
  func bucket(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The group number for `key`, or -1.
  @inlinable
  func find(_ key: UInt64) -> Int {
    let mask = values.count - 1
    var at = bucket(key)
    while true {
      let value = values[at]
      if value < 0 { return -1 }
      if keys[at] == key { return value }
      at = (at + 1) & mask
    }
  }

  /// Adds a key known to be absent.
  @usableFromInline
  mutating func insert(_ key: UInt64, _ value: Int) {
    if (count + 1) * 2 > values.count { grow() }
    let mask = values.count - 1
    var at = bucket(key)
    while values[at] >= 0 { at = (at + 1) & mask }
    keys[at] = key
    values[at] = value
    count += 1
  }

  mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    keys = Array(repeating: 0, count: oldValues.count * 2)
    values = Array(repeating: -1, count: oldValues.count * 2)
    shift -= 1
    count = 0
    for at in oldValues.indices where oldValues[at] >= 0 { insert(oldKeys[at], oldValues[at]) }
  }
}
