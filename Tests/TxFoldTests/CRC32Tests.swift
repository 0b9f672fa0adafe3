import CZlib
import Testing

@testable import TxFold

/// `CRC32` (carry-less multiplication where the CPU has it, zlib's `crc32()`
/// for the rest) against zlib's `crc32()` alone: the state file and its
/// readers elsewhere depend on the same checksum.
@Suite("CRC-32")
struct CRC32Tests {
  static func zlib(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      UInt32(truncatingIfNeeded: crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
    }
  }

  /// Deterministic bytes that are not all alike (a linear congruential generator).
  static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }

  @Test("every length from 0 to 600 bytes, at every alignment of a 16-byte block, equals zlib's")
  func equalsZlib() {
    let all = Self.bytes(700, seed: 7)
    for start in 0..<16 {
      for length in 0...600 {
        let slice = Array(all[start..<start + length])
        let ours = slice.withUnsafeBytes { CRC32.update(0, $0) }
        #expect(ours == Self.zlib(0, slice), "start \(start) length \(length)")
      }
    }
  }

  @Test("continuing a checksum over pieces gives the whole's, from any starting value")
  func continues() {
    let all = Self.bytes(1 << 16, seed: 11)
    let whole = Self.zlib(0, all)
    for cut in [0, 1, 15, 16, 63, 64, 65, 1_000, 40_000, all.count] {
      let first = all[..<cut].withUnsafeBytes { CRC32.update(0, $0) }
      let both = all[cut...].withUnsafeBytes { CRC32.update(first, $0) }
      #expect(both == whole, "cut \(cut)")
    }
    for start: UInt32 in [1, 0xFFFF_FFFF, 0x1234_5678] {
      let ours = all.withUnsafeBytes { CRC32.update(start, $0) }
      #expect(ours == Self.zlib(start, all))
    }
    #expect([UInt8]().withUnsafeBytes { CRC32.update(42, $0) } == 42)
  }

  @Test("the check value of the CRC-32 catalogue: \"123456789\" is 0xCBF43926")
  func checkValue() {
    let digits = Array("123456789".utf8)
    #expect(digits.withUnsafeBytes { CRC32.update(0, $0) } == 0xCBF4_3926)
    let repeated = Array(repeating: digits, count: 20).flatMap { $0 }
    #expect(repeated.withUnsafeBytes { CRC32.update(0, $0) } == Self.zlib(0, repeated))
  }
}
