/// Whole records of a state file, copied out of its reader's buffer (each a
/// `u32` length and the payload): what a thread that reads and decompresses
/// the file hands to the one that uses its records (`addPreviousEntries`,
/// `StateMerge`). Made on one thread and then read on one other only.
final class StateBlock: @unchecked Sendable {
  private var bytes: UnsafeMutableRawBufferPointer
  private var used = 0

  /// The next records of `reader`, about `size` bytes of them; `nil` after the last.
  init?(from reader: StateFileReader, size: Int = 1 << 18) throws(StateFileError) {
    // Every stored property is set from here on: a failure or `nil` below frees `bytes` in `deinit`.
    bytes = .allocate(byteCount: size + 4096, alignment: 8)
    while used < size, let payload = try reader.nextPayload() {
      if used + 4 + payload.count > bytes.count {
        bytes.grow(toAtLeast: used + 4 + payload.count, keeping: 0..<used, alignment: 8)
      }
      bytes.storeBytes(of: UInt32(truncatingIfNeeded: payload.count).littleEndian, toByteOffset: used, as: UInt32.self)
      UnsafeMutableRawBufferPointer(rebasing: bytes[(used + 4)...]).copyMemory(from: payload)
      used += 4 + payload.count
    }
    if used == 0 { return nil }
  }

  deinit { bytes.deallocate() }

  /// `reader`'s blocks, read on a thread of its own, a few ahead of the one that takes them.
  static func prefetcher(reading reader: StateFileReader) -> AccountPrefetcher<StateBlock> {
    let source = HandOff(reader)
    return AccountPrefetcher<StateBlock>(depth: 4, budget: .max, weight: { _ in 1 }) {
      () throws(PipelineError) -> StateBlock? in
      do throws(StateFileError) { return try StateBlock(from: source.value) } catch { throw .state(error) }
    }
  }

  /// The CRC-32 of the block's records as the state's body holds them, continuing `crc`.
  func checksum(continuing crc: UInt32) -> UInt32 {
    StateFile.crc(crc, UnsafeRawBufferPointer(rebasing: bytes[0..<used]))
  }

  /// The records, one after another (each a `u32` length and the payload): valid while the block is.
  var records: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<used]) }

  /// The payload of the record at `offset` (0 for the first) and the next record's offset; `nil`
  /// past the last. Valid while the block is.
  func record(at offset: Int) -> (payload: UnsafeRawBufferPointer, next: Int)? {
    Self.record(in: records, at: offset)
  }

  /// `record(at:)` in a block's `records`, read through the bytes alone (the merge keeps them
  /// rather than the block, so that a record costs no retain).
  @inline(__always)
  static func record(in records: UnsafeRawBufferPointer, at offset: Int) -> (
    payload: UnsafeRawBufferPointer, next: Int
  )? {
    guard offset + 4 <= records.count else { return nil }
    let length = Int(StateFile.u32(records, at: offset))
    return (UnsafeRawBufferPointer(rebasing: records[(offset + 4)..<(offset + 4 + length)]), offset + 4 + length)
  }

  /// Calls `body` with each record's payload, in order.
  func forEach(_ body: (UnsafeRawBufferPointer) throws(StateFileError) -> Void) throws(StateFileError) {
    var offset = 0
    while let (payload, next) = record(at: offset) {
      try body(payload)
      offset = next
    }
  }
}
