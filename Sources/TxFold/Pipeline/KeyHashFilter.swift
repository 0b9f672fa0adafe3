/// Which key hashes may be among a set's (one bit per hash, set by its low
/// bits, about 32 bits per hash): an incremental run's previous state holds
/// every transaction so far, but only a key tonight's exports hold too can
/// lose or make one lose, so the others' entries are left out of the id
/// table (`IDCollector.passes`). A hash that is not in the set never passes
/// as absent; one that passes may still be another key's (a later compare by
/// bytes tells), which only costs an entry.
struct KeyHashFilter {
  private var bits: [UInt64]
  private let mask: UInt64

  init(_ hashes: [UInt64]) {
    var count = 1 << 16
    while count < hashes.count * 32 { count <<= 1 }
    bits = Array(repeating: 0, count: count / 64)
    mask = UInt64(count - 1)
    for hash in hashes {
      let bit = hash & mask
      bits[Int(bit >> 6)] |= 1 << (bit & 63)
    }
  }

  /// Whether `hash` may be one of the set's: `false` only when it is none of them.
  @inline(__always)
  func mayContain(_ hash: UInt64) -> Bool {
    let bit = hash & mask
    return bits.withUnsafeBufferPointer { $0[Int(bit >> 6)] & (1 << (bit & 63)) != 0 }
  }
}
