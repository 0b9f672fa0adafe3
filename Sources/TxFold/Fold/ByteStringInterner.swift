/// Gives each distinct byte string (a state, a currency code) a small number,
/// so the group table keys and sums on integers instead of strings.
///
/// Real dumps have a handful of states and currencies: a look-up of at most
/// 16 bytes first tries a small direct-mapped cache on the bytes as given
/// (one hash, one comparison); past it, it compares with the string the
/// previous look-up found, then with the few known strings, all kept back to
/// back in one byte array; past 16 of them a hash index takes over so hostile
/// input with many distinct values stays linear.
///
/// Used by one thread at a time (a worker's group table), so its per-record
/// state skips dynamic exclusivity checks (see `GroupTable`).
@_spi(Benchmarks) public final class ByteStringInterner {
  /// The strings, by number.
  @exclusivity(unchecked) public private(set) var strings: [[UInt8]] = []
  /// The strings back to back, for look-ups without touching `strings`' arrays.
  @exclusivity(unchecked) @usableFromInline var packed: [UInt8] = []
  /// Per number, where its string ends in `packed` (it starts where the previous one ends).
  @exclusivity(unchecked) @usableFromInline var ends: [Int] = []
  /// The number the last look-up found.
  @exclusivity(unchecked) @usableFromInline var recent = 0
  /// Recent look-ups of at most 16 bytes, by their bytes as given (before
  /// upper-casing): a direct-mapped cache of `cacheSize` entries on the
  /// bytes as `shortKey` packs them, so the few states or currencies of a
  /// dump are each one hash and one comparison (`ByteStringInterner+Unsafe.swift`).
  @usableFromInline let cache: UnsafeMutablePointer<CacheEntry>
  @usableFromInline static let cacheBits = 6
  /// An open-addressing index (linear probing, at most half full) of the
  /// numbers by their string's hash, used once there are many strings (such
  /// as the accounts of a bank's export): a look-up hashes the bytes where
  /// they are and compares with `packed`, allocating nothing.
  @exclusivity(unchecked) private var buckets: [Int32] = []
  /// Whether strings are upper-cased (ASCII) when interned and matched.
  public let upperCasing: Bool
  @usableFromInline static let linearLimit = 16

  /// Creates an empty interner; `upperCasing` folds ASCII case, as states need.
  public init(upperCasing: Bool) {
    self.upperCasing = upperCasing
    cache = .allocate(capacity: 1 << Self.cacheBits)
    cache.initialize(repeating: CacheEntry(length: -1, key: (0, 0), number: 0), count: 1 << Self.cacheBits)
  }

  deinit {
    cache.deallocate()
  }

  /// The number of distinct strings.
  @inlinable public var count: Int { ends.count }

  /// Forgets every string, keeping the arrays' and the index's room: a
  /// per-account table refilled after a spill meets about as many accounts
  /// again, and its index then need not grow (re-placing every id) from 64
  /// buckets each time.
  func removeAll() {
    strings.removeAll(keepingCapacity: true)
    packed.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    recent = 0
    buckets.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
    cache.update(repeating: CacheEntry(length: -1, key: (0, 0), number: 0), count: 1 << Self.cacheBits)
  }

  /// The number for `bytes`, adding it when new.
  ///
  /// - Complexity: O(1) for bytes recently looked up, when at most 16;
  ///   O(length) for the string the previous look-up found, and
  ///   while there are at most 16 strings; amortised O(length) by hash beyond.
  @inlinable @inline(__always)
  public func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard bytes.count <= 16 else { return lookUp(bytes) }
    return cachedNumber(bytes)
  }

  /// `intern(_:)` past the cache.
  @usableFromInline
  func lookUp(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let known = ends.count
    let found = packed.withUnsafeBufferPointer { packed -> Int? in
      if recent < known && matches(number: recent, in: packed, bytes) { return recent }
      guard known <= Self.linearLimit else { return nil }
      for number in 0..<known where matches(number: number, in: packed, bytes) { return number }
      return nil
    }
    if let found {
      recent = found
      return found
    }
    let number = known > Self.linearLimit ? lookUpHashed(bytes) : add(bytes)
    recent = number
    return number
  }

  /// The number for a string already in canonical form.
  public func intern(_ string: [UInt8]) -> Int {
    string.withUnsafeBufferPointer { intern($0) }
  }

  @inlinable @inline(__always)
  func matches(number: Int, in packed: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = number == 0 ? 0 : ends[number - 1]
    guard ends[number] - start == bytes.count else { return false }
    guard let known = packed.baseAddress, let given = bytes.baseAddress else { return true }
    // Written as stored (a stored string has no lower-case letters, so this
    // also decides an upper-casing match), or, when upper-casing, letter by letter.
    if Self.equalBytes(known + start, given, count: bytes.count) { return true }
    if upperCasing {
      for index in 0..<bytes.count where packed[start + index] != Self.upper(bytes[index]) { return false }
      return true
    }
    return false
  }

  @inlinable @inline(__always)
  static func upper(_ byte: UInt8) -> UInt8 {
    byte &- .lowerA < 26 ? byte &- 32 : byte
  }

  @usableFromInline
  func add(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let stored = upperCasing ? bytes.map(Self.upper) : Array(bytes)
    strings.append(stored)
    packed.append(contentsOf: stored)
    ends.append(packed.count)
    let number = strings.count - 1
    if strings.count > Self.linearLimit {
      // Past the linear part for the first time (the buckets empty, or
      // emptied by `removeAll()` with their room kept), or over half full:
      // every string is placed anew.
      if strings.count == Self.linearLimit + 1 || strings.count * 2 > buckets.count {
        if strings.count * 2 > buckets.count { buckets = Array(repeating: -1, count: max(64, buckets.count * 2)) }
        for index in strings.indices { place(index) }
      } else {
        place(number)
      }
    }
    return number
  }

  /// Puts the string numbered `number` in `buckets`.
  private func place(_ number: Int) {
    let start = number == 0 ? 0 : ends[number - 1]
    // Stored strings are already upper-cased where the interner upper-cases.
    let hash = packed.withUnsafeBufferPointer { bucketHash(UnsafeBufferPointer(rebasing: $0[start..<ends[number]])) }
    buckets.withUnsafeMutableBufferPointer { buckets in
      let mask = buckets.count - 1
      var at = Int(truncatingIfNeeded: hash) & mask
      while buckets[at] >= 0 { at = (at + 1) & mask }
      buckets[at] = Int32(truncatingIfNeeded: number)
    }
  }

  @usableFromInline
  func lookUpHashed(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let mask = buckets.count - 1
    var at = Int(truncatingIfNeeded: bucketHash(bytes)) & mask
    let found = packed.withUnsafeBufferPointer { packed -> Int? in
      while true {
        let number = Int(buckets[at])
        if number < 0 { return nil }
        if matches(number: number, in: packed, bytes) { return number }
        at = (at + 1) & mask
      }
    }
    return found ?? add(bytes)
  }

  /// The hash `buckets` are placed by: FNV-1a over upper-cased bytes where
  /// the interner upper-cases (so that any case finds the stored string),
  /// else eight bytes at a time (account ids of a bank's export are looked
  /// up once a record).
  @inline(__always)
  func bucketHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    upperCasing ? Self.hash(bytes, upperCasing: true) : Self.wordHash(bytes)
  }

  /// A multiplicative hash of the bytes taken as little-endian words, with
  /// the length, mixed like `hash(_:upperCasing:)`.
  static func wordHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: bytes.count)
    guard let base = bytes.baseAddress else { return hash }
    var at = 0
    while bytes.count - at >= 8 {
      let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
      hash = (hash ^ UInt64(littleEndian: word)) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 32
      at += 8
    }
    while at < bytes.count {
      hash = (hash ^ UInt64(bytes[at])) &* 0x100_0000_01b3
      at += 1
    }
    return (hash ^ hash >> 29) &* 0xBF58_476D_1CE4_E5B9 ^ hash >> 32
  }

  /// FNV-1a of the bytes (upper-cased first when `upperCasing`), mixed so
  /// that the low bits a bucket takes depend on every byte: stable across
  /// runs, unlike `Hasher`, which keeps runs reproducible.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, upperCasing: Bool) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(upperCasing ? upper(byte) : byte)) &* 0x100_0000_01b3 }
    return (hash ^ hash >> 29) &* 0xBF58_476D_1CE4_E5B9 ^ hash >> 32
  }
}

extension ByteStringInterner {
  /// About how many bytes the interner holds: each string twice (its own
  /// array, with the allocation's header, and in `packed`), its end, and the
  /// index's buckets.
  var estimatedBytes: Int {
    packed.capacity * 2 + ends.capacity * 8 + strings.capacity * 8 + strings.count * 48 + buckets.capacity * 4
  }
}
