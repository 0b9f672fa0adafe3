/// One entry of the id table, as it lies in a worker's buffer, a partition
/// and a spill file: a fixed header — the key's length (u32), its hash
/// (u64), the instant's epoch seconds (i64) and nanosecond (u32), the
/// record's place (u64) — then the key's bytes (per account: the account's
/// length (u32) and bytes, then the id). Little-endian, unaligned.
enum IDEntry {
  static let headerSize = 32

  /// Writes a whole entry at `at`: the header, then `key`'s bytes, whose hash is `hash`.
  @inline(__always)
  static func write(
    at: UnsafeMutableRawPointer, key: UnsafeRawBufferPointer, hash: UInt64, instant: Timestamp, place: UInt64
  ) {
    at.storeBytes(of: UInt32(truncatingIfNeeded: key.count).littleEndian, as: UInt32.self)
    at.storeBytes(of: hash.littleEndian, toByteOffset: 4, as: UInt64.self)
    at.storeBytes(of: instant.epochSeconds.littleEndian, toByteOffset: 12, as: Int64.self)
    at.storeBytes(of: UInt32(truncatingIfNeeded: instant.nanosecond).littleEndian, toByteOffset: 20, as: UInt32.self)
    at.storeBytes(of: place.littleEndian, toByteOffset: 24, as: UInt64.self)
    guard let bytes = key.baseAddress else { return }
    let to = at + headerSize
    let count = key.count
    guard count >= 8 else {
      to.copyMemory(from: bytes, byteCount: count)
      return
    }
    // A word at a time, the last word overlapping the one before: a call to `memcpy` for a key of a
    // few dozen bytes cost as much again as the copy.
    var offset = 0
    while offset + 8 < count {
      to.storeBytes(
        of: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    to.storeBytes(
      of: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
  }

  /// The hash an entry holds of its key: seeded once per process, so that
  /// ids cannot be crafted ahead of a run to share one (they would all land
  /// in one set that no split separates, judged slowly; never wrongly).
  @inline(__always)
  static func keyHash(_ key: UnsafeRawBufferPointer) -> UInt64 { DedupeKeyHash.hash(key, seed: hashSeed) }

  static let hashSeed = UInt64.random(in: .min ... .max)

  /// Where an entry stands among its key's versions — the winner rule: the
  /// later instant, on a tie the later place (input, then offset). The
  /// greatest of a key's versions wins; every other loses.
  struct Rank: Comparable {
    var seconds: Int64
    var nanosecond: UInt32
    var place: UInt64

    init(_ raw: UnsafeRawBufferPointer, at offset: Int) {
      seconds = IDEntry.seconds(raw, at: offset)
      nanosecond = IDEntry.nanosecond(raw, at: offset)
      place = IDEntry.place(raw, at: offset)
    }

    init(at entry: UnsafeRawPointer) {
      seconds = Int64(littleEndian: entry.loadUnaligned(fromByteOffset: 12, as: Int64.self))
      nanosecond = UInt32(littleEndian: entry.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
      place = UInt64(littleEndian: entry.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    static func < (lhs: Rank, rhs: Rank) -> Bool {
      (lhs.seconds, lhs.nanosecond, lhs.place) < (rhs.seconds, rhs.nanosecond, rhs.place)
    }
  }

  /// The key's length of the entry at `offset`.
  @inline(__always)
  static func keyLength(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Int {
    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
  }

  /// The key's length of the entry at `entry`.
  @inline(__always)
  static func keyLength(at entry: UnsafeRawPointer) -> Int {
    Int(UInt32(littleEndian: entry.loadUnaligned(as: UInt32.self)))
  }

  /// The hash of the entry at `entry`.
  @inline(__always)
  static func hash(at entry: UnsafeRawPointer) -> UInt64 {
    UInt64(littleEndian: entry.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
  }

  /// The whole size of the entry at `offset`: header and key.
  @inline(__always)
  static func size(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Int {
    headerSize + keyLength(raw, at: offset)
  }

  @inline(__always)
  static func hash(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt64.self))
  }

  static func seconds(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
    Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 12, as: Int64.self))
  }

  static func nanosecond(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 20, as: UInt32.self))
  }

  static func place(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
  }
}
