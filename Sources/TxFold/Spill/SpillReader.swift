/// Reads one run back front to back — a whole `SpillFile`, or a range of one —
/// through one buffer: the one reader every job's codec reads its entries with.
///
/// A codec asks for the bytes its next entry needs (`request`), reads them in
/// place (`bytes`) and moves past them (`consume`): nothing is copied per
/// entry, and an entry longer than the buffer grows it. The bytes stay where
/// they are until the next `request`, so an entry handed out in place is
/// valid until its run is read on. Used by one thread at a time.
final class SpillReader {
  let file: SpillFile
  // Unchecked: one thread reads a run, and these are touched for every field of every entry.
  @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  /// The bytes read and not yet consumed are `storage[start..<end]`.
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var end = 0
  /// Where the next read starts in the file, and where the run ends.
  @exclusivity(unchecked) private var offset: Int64
  private let limit: Int64

  /// A reader of `range` of `file` (by default all of it) with a buffer of
  /// `bufferSize` bytes, or the run's size when that is smaller.
  init(file: SpillFile, range: Range<Int64>? = nil, bufferSize: Int) {
    self.file = file
    let range = range ?? 0..<file.size
    offset = range.lowerBound
    limit = range.upperBound
    capacity = Int(max(64, min(Int64(max(1, bufferSize)), range.upperBound - range.lowerBound)))
    storage = .allocate(capacity: capacity)
  }

  deinit { storage.deallocate() }

  /// The bytes read and not yet consumed.
  @inline(__always)
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + start, count: end - start) }

  /// Where the bytes not yet consumed start.
  @inline(__always)
  var pointer: UnsafeRawPointer { UnsafeRawPointer(storage + start) }

  /// How many bytes were read and not yet consumed.
  @inline(__always)
  var available: Int { end - start }

  /// Moves past `count` bytes of those available.
  @inline(__always)
  func consume(_ count: Int) {
    assert(count <= end - start, "consumed more than was read")
    start += count
  }

  /// Makes at least `count` bytes available; false when the run ends first
  /// (what is left is still available).
  @inline(__always)
  func request(_ count: Int) throws(SpillError) -> Bool {
    if end - start >= count { return true }
    return try refill(count)
  }

  /// The next entry of a run whose entries each begin with their whole length
  /// (a `UInt32`, at least `minimumLength`), consumed: valid until the reader
  /// reads on. `nil` where the run ends between two entries.
  @inline(__always)
  func nextLengthPrefixed(minimumLength: Int) throws(SpillError) -> UnsafeRawPointer? {
    guard try request(4) else {
      if available == 0 { return nil }
      throw .corrupt(path: file.name, detail: "the file ends inside an entry")
    }
    let length = Int(pointer.loadUnaligned(as: UInt32.self))
    guard length >= minimumLength else { throw .corrupt(path: file.name, detail: "an entry of \(length) bytes") }
    guard try request(length) else { throw .corrupt(path: file.name, detail: "the file ends inside an entry") }
    let entry = pointer
    consume(length)
    return entry
  }

  private func refill(_ count: Int) throws(SpillError) -> Bool {
    let kept = end - start
    // Never more room than the rest of the run holds: a damaged length may ask for anything.
    let reachable = Int64(kept) + (limit - offset)
    if min(Int64(count), reachable) > Int64(capacity) {
      let grown = Int(min(max(Int64(count), Int64(capacity) * 2), reachable))
      let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
      bigger.update(from: storage + start, count: kept)
      storage.deallocate()
      storage = bigger
      capacity = grown
    } else if start > 0 {
      // The regions may overlap: a raw copy moves them as `memmove` does.
      UnsafeMutableRawPointer(storage).copyMemory(from: storage + start, byteCount: kept)
    }
    start = 0
    end = kept
    while end < count && offset < limit {
      let wanted = Int(min(Int64(capacity - end), limit - offset))
      let read = try file.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: wanted), at: offset)
      if read == 0 { throw .corrupt(path: file.name, detail: "the file is shorter than written") }
      end += read
      offset += Int64(read)
    }
    return end >= count
  }
}
