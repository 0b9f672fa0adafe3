/// A buffer of whole id entries (`IDEntry`), one after another: a worker's
/// buffer for one partition, filled and handed over as it is (`IDCollector`),
/// or entries read back from a spill file. The partitions keep a list of them
/// and judge the entries where they lie, so no entry is copied between a
/// worker's buffer and the judging.
final class IDEntryChunk: @unchecked Sendable {
  /// The memory, of which the first `count` bytes hold entries.
  let storage: UnsafeMutableRawBufferPointer
  /// The bytes that hold entries.
  var count: Int

  /// An empty chunk of `capacity` bytes.
  init(capacity: Int) {
    storage = .allocate(byteCount: max(capacity, 1), alignment: 16)
    count = 0
  }

  /// A chunk holding a copy of `bytes` (whole entries), allocated to fit.
  convenience init(copying bytes: UnsafeRawBufferPointer) {
    self.init(capacity: bytes.count)
    if let source = bytes.baseAddress, let target = storage.baseAddress {
      target.copyMemory(from: source, byteCount: bytes.count)
    }
    count = bytes.count
  }

  deinit { storage.deallocate() }

  /// The bytes allocated: what a budget counts.
  var allocated: Int { storage.count }

  /// The entries.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }
}
