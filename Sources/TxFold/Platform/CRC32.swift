import CCRC32
import CZlib

/// zlib's CRC-32, as the gzip trailer and the nightly state file carry it.
///
/// Folded 64 bytes at a time with carry-less multiplication where the CPU
/// has it (`CCRC32`); the rest, and everything on a CPU without it, by
/// zlib's `crc32()`, which reads a byte or a word at a time — a night
/// checksums its state as it reads and as it writes it, hundreds of
/// megabytes each.
enum CRC32 {
  /// The checksum of `bytes` continuing `crc` (0 to start), as zlib's `crc32(crc, bytes, count)`.
  static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    let bytePointer = base.assumingMemoryBound(to: UInt8.self)
    var crc = crc
    var offset = txfold_crc32_fold(&crc, bytePointer, bytes.count)
    // zlib's length is 32-bit: the rest goes in pieces.
    while offset < bytes.count {
      let length = min(bytes.count - offset, Int(UInt32.max))
      crc = UInt32(truncatingIfNeeded: crc32(uLong(crc), bytePointer + offset, uInt(length)))
      offset += length
    }
    return crc
  }
}
