extension ByteStringInterner {
  /// One entry of the look-up cache: a string's length (-1 for an empty
  /// entry), its bytes as `shortKey` packs them, and its number.
  @usableFromInline
  struct CacheEntry {
    @usableFromInline var length: Int
    @usableFromInline var key: (UInt64, UInt64)
    @usableFromInline var number: Int

    @inlinable init(length: Int, key: (UInt64, UInt64), number: Int) {
      self.length = length
      self.key = key
      self.number = number
    }
  }

  /// The number for at most 16 bytes, from the cache or else looked up and cached.
  @inlinable @inline(__always)
  func cachedNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let count = bytes.count
    let key = Self.shortKey(bytes)
    let mixed = (key.0 ^ key.1 &* 31 ^ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15
    // Safe because the shift leaves cacheBits bits: an index below the cache's 1 << cacheBits entries.
    let entry = cache + Int(truncatingIfNeeded: mixed >> UInt64(64 - Self.cacheBits))
    if entry.pointee.length == count && entry.pointee.key == key { return entry.pointee.number }
    let number = lookUp(bytes)
    entry.pointee = CacheEntry(length: count, key: key, number: number)
    return number
  }

  /// Up to 16 bytes packed into two words, read a word or half a word at a
  /// time; with the length, the pair determines the bytes: lengths 8–16 are
  /// the first and the last eight bytes, 4–7 the first and the last four,
  /// 1–3 the first, middle and last byte.
  @inlinable @inline(__always)
  static func shortKey(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    let count = bytes.count
    guard count > 0, count <= 16, let base = bytes.baseAddress else { return (0, 0) }
    let raw = UnsafeRawPointer(base)
    if count >= 8 {
      // Safe because 8 <= count: both loads lie within the bytes.
      return (
        raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      )
    }
    if count >= 4 {
      // Safe because 4 <= count < 8: both loads lie within the bytes.
      return (
        UInt64(raw.loadUnaligned(as: UInt32.self))
          | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32, 0
      )
    }
    // Safe because 1 <= count < 4: positions 0, count / 2 and count - 1 are within the bytes.
    return (UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16, 0)
  }

  /// Whether `count` bytes at `lhs` and `rhs` are equal, compared a word at a
  /// time: states and currency codes are a few bytes, where `memcmp`'s call
  /// costs more than the comparison.
  @inlinable @inline(__always)
  static func equalBytes(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    if count >= 8 {
      var offset = 0
      // Safe because offset + 8 <= count: each load reads within both strings.
      while offset + 8 <= count {
        if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset += 8
      }
      // Safe because count >= 8: the last eight bytes, overlapping those already compared.
      return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
      // Safe because 4 <= count < 8: the first and the last four bytes cover them all.
      return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
        && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    var offset = 0
    while offset < count {
      if lhs[offset] != rhs[offset] { return false }
      offset += 1
    }
    return true
  }
}
