import Foundation

/// The hash of a dedupe key: 64 bits, from 8 bytes at a time.
enum DedupeKeyHash {
  /// In a debug build, `TXFOLD_WEAK_ID_HASH=1` makes every key hash alike,
  /// so tests can show that colliding ids are still told apart by their bytes.
  static let weak: Bool = {
    #if DEBUG
      return ProcessInfo.processInfo.environment["TXFOLD_WEAK_ID_HASH"] == "1"
    #else
      return false
    #endif
  }()

  /// The hash of `bytes`; another `seed` gives another function (a table's
  /// own, which crafted keys cannot aim at without knowing the seed).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    if weak { return 0x9E37_79B9_7F4A_7C15 }
    var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: bytes.count) ^ seed
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      state = mix(state ^ word)
      offset += 8
    }
    var tail: UInt64 = 0
    let left = bytes.count - offset
    if left > 0 && bytes.count >= 8 {
      // The last 8 bytes in one load, shifted down to the `left` not yet mixed: the same value as
      // gathering them a byte at a time.
      let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
      return finish(mix(state ^ (last >> UInt64(truncatingIfNeeded: 64 - 8 * left))))
    }
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return finish(mix(state ^ tail))
  }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    (value &* 0x9E37_79B9_7F4A_7C15).rotatedLeft(by: 31) &* 0xBF58_476D_1CE4_E5B9
  }

  @inline(__always)
  private static func finish(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x = x &* 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x = x &* 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}

extension UInt64 {
  @inline(__always)
  fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
