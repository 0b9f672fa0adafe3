extension InputHasher {
  /// Hashes `bytes`, which follow every byte given before.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    count += Int64(bytes.count)
    var offset = 0
    if pendingCount > 0 {
      // Complete the stripe left over from the previous block.
      let take = min(32 - pendingCount, bytes.count)
      withUnsafeMutableBytes(of: &pending) { stripe in
        // Safe because pendingCount + take <= 32, the size of `pending`.
        stripe.baseAddress.unsafelyUnwrapped.advanced(by: pendingCount).copyMemory(from: base, byteCount: take)
      }
      pendingCount += take
      offset = take
      guard pendingCount == 32 else { return }
      let stripe = pending
      lane1 = Self.round(lane1, UInt64(littleEndian: stripe.0))
      lane2 = Self.round(lane2, UInt64(littleEndian: stripe.1))
      lane3 = Self.round(lane3, UInt64(littleEndian: stripe.2))
      lane4 = Self.round(lane4, UInt64(littleEndian: stripe.3))
      pendingCount = 0
    }
    var first = lane1
    var second = lane2
    var third = lane3
    var fourth = lane4
    while bytes.count - offset >= 32 {
      // Safe because offset + 32 <= bytes.count.
      first = Self.round(first, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      second = Self.round(
        second, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
      third = Self.round(
        third, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
      fourth = Self.round(
        fourth, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
      offset += 32
    }
    lane1 = first
    lane2 = second
    lane3 = third
    lane4 = fourth
    let rest = bytes.count - offset
    if rest > 0 {
      withUnsafeMutableBytes(of: &pending) { stripe in
        // Safe because rest < 32, the size of `pending`.
        stripe.baseAddress.unsafelyUnwrapped.copyMemory(from: base.advanced(by: offset), byteCount: rest)
      }
      pendingCount = rest
    }
  }
}
