/// Tonight's state (`StateMerge`) as length-prefixed records (`u32` length,
/// payload, as in the state file's body): the second pass's one input, framed
/// by `LengthPrefixedFramer` and decoded by `StateRecord.decode`.
///
/// `@exclusivity(unchecked)` on what is read per record: one thread reads a
/// source (the second pass's reader), and the runtime's dynamic check cost
/// about as much as copying a record.
final class StateSource: ByteSource {
  private let merge: StateMerge
  let name: String
  /// The record being copied out: its four-byte length, then its payload (in the merge's
  /// buffers, valid until the merge is asked for the next), and how much of both is copied.
  @exclusivity(unchecked) private var payload = UnsafeRawBufferPointer(start: nil, count: 0)
  @exclusivity(unchecked) private var copied = 0
  @exclusivity(unchecked) private var holding = false
  @exclusivity(unchecked) private var ended = false
  @exclusivity(unchecked) private(set) var storedBytesRead: Int64 = 0
  /// Why the merge failed, when it did: the run reports it rather than the read error (`ChunkRun`).
  private(set) var failure: PipelineError?
  /// Where the bytes handed out also go, while `teeing`: tonight's state file, whose body they are.
  /// The first failure ends it (the state is then merged anew by `write`).
  private let tee: StateMerge.Tee?
  private var teeing: Bool

  init(_ merge: StateMerge, name: String, tee: StateMerge.Tee? = nil) {
    self.merge = merge
    self.name = name
    self.tee = tee
    teeing = tee != nil
  }

  var storedSize: Int64? { nil }

  /// Copies records straight from the merge into `buffer`, a record cut where the buffer ends.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var written = 0
    var started = 0
    defer { feedTee(UnsafeRawBufferPointer(rebasing: buffer[0..<written]), records: started) }
    while written < buffer.count {
      if !holding {
        if ended { break }
        do throws(PipelineError) {
          guard let next = try merge.next() else {
            ended = true
            break
          }
          started += 1
          payload = next
        } catch {
          failure = error
          throw .readFailed(path: name, reason: "\(error)")
        }
        copied = 0
        holding = true
      }
      // The length, little-endian, a byte at a time: it too may be cut where the buffer ends.
      while copied < 4 && written < buffer.count {
        buffer[written] = UInt8(truncatingIfNeeded: payload.count >> (8 * copied))
        copied += 1
        written += 1
      }
      if copied < 4 { break }
      let offset = copied - 4
      let count = min(payload.count - offset, buffer.count - written)
      if count > 0, let source = payload.baseAddress {
        (base + written).copyMemory(from: source + offset, byteCount: count)
      }
      copied += count
      written += count
      if offset + count == payload.count { holding = false }
    }
    storedBytesRead += Int64(written)
    return written
  }

  /// Writes what a read handed out to the tee, and ends the state after the last record.
  private func feedTee(_ bytes: UnsafeRawBufferPointer, records: Int) {
    guard teeing, let tee else { return }
    do throws(OutputError) {
      if !bytes.isEmpty { try tee.append(body: bytes, records: records) }
      if ended {
        teeing = false
        try tee.finish(duplicates: merge.duplicates)
      }
    } catch {
      teeing = false
    }
  }
}
