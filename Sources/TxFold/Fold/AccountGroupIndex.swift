/// (account, group key) pairs to group numbers, for per-account tables: the
/// same open-addressing table as `GroupIndex` (linear probing, at most half
/// full, multiplicative hash) with the account number as a second key word.
///
/// A bucket is 16 bytes (key, account, group number), so the index costs
/// 16–64 bytes per group, which matters with millions of accounts.
@usableFromInline
struct AccountGroupIndex {
  /// Per bucket, its group key; meaningful where `values` is not -1.
  @usableFromInline var keys: [UInt64]
  /// Per bucket, its account number.
  @usableFromInline var accounts: [UInt32]
  /// Per bucket, the group number, or -1 for an empty bucket.
  @usableFromInline var values: [Int32]
  @usableFromInline var count = 0
  /// 64 − log2(bucket count): the hash is the product's top bits.
  @usableFromInline var shift: UInt64

  @usableFromInline init() {
    keys = Array(repeating: 0, count: 64)
    accounts = Array(repeating: 0, count: 64)
    values = Array(repeating: -1, count: 64)
    shift = 64 - 6
  }

  /// The bytes the index holds.
  var bytes: Int { values.count * 16 }

  /// Empties the index, keeping its buckets: a table refilled batch after
  /// batch then grows its index once, not once per batch.
  mutating func removeAll() {
    values.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
    count = 0
  }

  @inlinable @inline(__always)
  func bucket(_ key: UInt64, _ account: UInt32) -> Int {
    let mixed = (key ^ UInt64(account) &* 0xC2B2_AE3D_27D4_EB4F) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> shift)
  }

  /// The group number for the pair, or -1.
  @inlinable
  func find(_ key: UInt64, account: UInt32) -> Int {
    let mask = values.count - 1
    var at = bucket(key, account)
    while true {
      let value = values[at]
      if value < 0 { return -1 }
      if keys[at] == key && accounts[at] == account { return Int(value) }
      at = (at + 1) & mask
    }
  }

  /// Adds a pair known to be absent.
  @usableFromInline
  mutating func insert(_ key: UInt64, account: UInt32, _ value: Int) {
    if (count + 1) * 2 > values.count { grow() }
    let mask = values.count - 1
    var at = bucket(key, account)
    while values[at] >= 0 { at = (at + 1) & mask }
    keys[at] = key
    accounts[at] = account
    values[at] = Int32(truncatingIfNeeded: value)
    count += 1
  }

  mutating func grow() {
    let oldKeys = keys
    let oldAccounts = accounts
    let oldValues = values
    keys = Array(repeating: 0, count: oldValues.count * 2)
    accounts = Array(repeating: 0, count: oldValues.count * 2)
    values = Array(repeating: -1, count: oldValues.count * 2)
    shift -= 1
    count = 0
    for at in oldValues.indices where oldValues[at] >= 0 {
      insert(oldKeys[at], account: oldAccounts[at], Int(oldValues[at]))
    }
  }
}
