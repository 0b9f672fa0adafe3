/// XXH64 (seed 0) over a stream of bytes handed in blocks of any size: the
/// same bytes give the same hash however they are cut. Used once per read
/// block by the pipeline's reader thread, off the per-record path.
///
/// The algorithm is Yann Collet's XXH64: four 64-bit lanes take 32-byte
/// stripes; the tail (under 32 bytes) is kept between blocks.
struct InputHasher {
  static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  var lane1: UInt64 = prime1 &+ prime2
  var lane2: UInt64 = prime2
  var lane3: UInt64 = 0
  var lane4: UInt64 = 0 &- prime1
  /// Bytes hashed so far.
  var count: Int64 = 0
  /// The bytes of an incomplete stripe (the first `pendingCount` of 32).
  var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  var pendingCount = 0

  init() {}

  /// The hash of the bytes given so far, with their count.
  var fingerprint: InputFingerprint {
    var hash: UInt64
    if count >= 32 {
      hash = Self.rotate(lane1, 1) &+ Self.rotate(lane2, 7) &+ Self.rotate(lane3, 12) &+ Self.rotate(lane4, 18)
      hash = Self.mergeRound(hash, lane1)
      hash = Self.mergeRound(hash, lane2)
      hash = Self.mergeRound(hash, lane3)
      hash = Self.mergeRound(hash, lane4)
    } else {
      hash = Self.prime5
    }
    hash = hash &+ UInt64(truncatingIfNeeded: count)
    var tail = withUnsafeBytes(of: pending) { Array($0.prefix(pendingCount)) }
    var offset = 0
    while tail.count - offset >= 8 {
      var word: UInt64 = 0
      for index in 0..<8 { word |= UInt64(tail[offset + index]) << (8 * UInt64(index)) }
      hash ^= Self.round(0, UInt64(littleEndian: word))
      hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
      offset += 8
    }
    if tail.count - offset >= 4 {
      var word: UInt64 = 0
      for index in 0..<4 { word |= UInt64(tail[offset + index]) << (8 * UInt64(index)) }
      hash ^= word &* Self.prime1
      hash = Self.rotate(hash, 23) &* Self.prime2 &+ Self.prime3
      offset += 4
    }
    while offset < tail.count {
      hash ^= UInt64(tail[offset]) &* Self.prime5
      hash = Self.rotate(hash, 11) &* Self.prime1
      offset += 1
    }
    tail.removeAll()
    hash ^= hash >> 33
    hash = hash &* Self.prime2
    hash ^= hash >> 29
    hash = hash &* Self.prime3
    hash ^= hash >> 32
    return InputFingerprint(bytes: count, hash: hash)
  }

  @inline(__always)
  static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always)
  static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always)
  static func mergeRound(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    (accumulator ^ round(0, lane)) &* prime1 &+ prime4
  }
}
