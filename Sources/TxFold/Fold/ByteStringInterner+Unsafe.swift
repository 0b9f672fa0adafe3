extension ByteStringInterner {
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
