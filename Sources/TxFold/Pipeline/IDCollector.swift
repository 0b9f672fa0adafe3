import CJSONIndex

/// One worker's side of the first pass: its entries, each written where it
/// belongs at once — the buffer of its key's partition (`IDPartitions`) —
/// and a partition's buffer handed over when it is full or the pass ends.
/// Grouping one buffer by partition at each hand-over cost a pass over its
/// entries and a copy of each, a sixth of what the entries cost.
final class IDCollector {
  let partitions: IDPartitions
  /// Each partition's buffer (`regionSize` bytes; handed over whole as a chunk when
  /// full, and a new one taken), where each starts, and how many bytes of each
  /// are used, in memory this worker owns and writes in place: an array's
  /// append per piece cost a uniqueness and capacity check each.
  @exclusivity(unchecked) private var buffers: [IDEntryChunk]
  @exclusivity(unchecked) private var starts: UnsafeMutablePointer<UnsafeMutableRawPointer>
  @exclusivity(unchecked) private var used: UnsafeMutablePointer<Int>
  /// A key laid out whole when it is not whole in the record (an account before
  /// the id, or an id with escapes), after room for a header: an entry larger
  /// than a partition's buffer is handed over from here.
  @exclusivity(unchecked) private var scratch: UnsafeMutableRawBufferPointer
  private let regionSize: Int
  /// The first failure to hand entries over; the pass stops with it.
  private(set) var failure: SpillError?
  /// An incremental run's side: tonight's accepted records.
  let tonight: StateDelta?

  init(partitions: IDPartitions, workers: Int) {
    self.partitions = partitions
    tonight = partitions.nightly.map { StateDelta(state: $0) }
    // All partitions' buffers together take a quarter of the budget over all workers (at least
    // 1 KiB each, so that a tiny `--memory-limit` is not outgrown): what one buffer and its copy
    // grouped by partition took before.
    regionSize = max(1 << 10, partitions.budget / (4 * max(1, workers) * IDPartitions.partitionCount))
    let size = regionSize
    buffers = (0..<IDPartitions.partitionCount).map { _ in IDEntryChunk(capacity: size) }
    starts = .allocate(capacity: IDPartitions.partitionCount)
    for partition in 0..<IDPartitions.partitionCount {
      guard let start = buffers[partition].storage.baseAddress else { continue }
      (starts + partition).initialize(to: start)
    }
    used = .allocate(capacity: IDPartitions.partitionCount)
    used.initialize(repeating: 0, count: IDPartitions.partitionCount)
    scratch = .allocate(byteCount: 4096, alignment: 16)
  }

  deinit {
    starts.deallocate()
    used.deallocate()
    scratch.deallocate()
  }

  /// Adds the entry of an accepted record with an id (`IDEntry`; the key is
  /// the account with its length first, when given, then the decoded id).
  @inline(__always)
  func add(
    id: ValueRef, record: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?, instant: Timestamp,
    place: UInt64
  ) {
    // Unescaped ids are their bytes: no closure (whose context costs a retain per record).
    if id.kind != .escapedString {
      add(key: GroupTable.bytes(id, record), account: account, instant: instant, place: place)
    } else {
      GroupTable.withDecoded(id, record) { add(key: $0, account: account, instant: instant, place: place) }
    }
  }

  /// Adds the entry of a key already decoded (`account` first, with its length).
  @inline(__always)
  func add(
    key: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?, instant: Timestamp, place: UInt64
  ) {
    // A key that is the id alone is hashed and copied from the record; one with an account is laid out first.
    let whole = account == nil ? UnsafeRawBufferPointer(key) : layOut(key, account: account)
    let hash = IDEntry.keyHash(whole)
    let partition = IDPartitions.partition(hash)
    let size = IDEntry.headerSize + whole.count
    if used[partition] + size > regionSize {
      handOver(partition)
      if size > regionSize {
        handOverAlone(whole, hash: hash, instant: instant, place: place, partition: partition)
        return
      }
    }
    let at = starts[partition] + used[partition]
    IDEntry.write(at: at, key: whole, hash: hash, instant: instant, place: place)
    used[partition] += size
    // A partition's next entry comes about `partitionCount` records later, into lines no record has
    // touched: asked for now, they are in the cache by then, instead of each entry's stores waiting
    // on a line from memory (and every store after them, the fold's included, behind those).
    txfold_prefetch_for_writing(at + size)
    txfold_prefetch_for_writing(at + size + 64)
  }

  /// Whether `filter` passes the key `add(key:account:instant:place:)` would enter: laid out
  /// and hashed as that entry's would be, but not entered.
  func passes(_ filter: KeyHashFilter, key: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?) -> Bool {
    let whole = account == nil ? UnsafeRawBufferPointer(key) : layOut(key, account: account)
    return filter.mayContain(IDEntry.keyHash(whole))
  }

  /// The key of an entry with an account — the account's length and bytes, then `key` — laid out
  /// in `scratch` after room for a header.
  private func layOut(_ key: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?) -> UnsafeRawBufferPointer
  {
    let keyLength = (account.map { 4 + $0.count } ?? 0) + key.count
    if IDEntry.headerSize + keyLength > scratch.count {
      scratch.grow(toAtLeast: IDEntry.headerSize + keyLength, keeping: 0..<0, alignment: 16)
    }
    guard let base = scratch.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    var keyAt = base + IDEntry.headerSize
    if let account {
      keyAt.storeBytes(of: UInt32(truncatingIfNeeded: account.count).littleEndian, as: UInt32.self)
      keyAt += 4
      if let bytes = account.baseAddress { keyAt.copyMemory(from: bytes, byteCount: account.count) }
      keyAt += account.count
    }
    if let bytes = key.baseAddress { keyAt.copyMemory(from: bytes, byteCount: key.count) }
    return UnsafeRawBufferPointer(start: base + IDEntry.headerSize, count: keyLength)
  }

  /// Hands over an entry larger than a partition's buffer (a very long id or account) on its own.
  private func handOverAlone(
    _ key: UnsafeRawBufferPointer, hash: UInt64, instant: Timestamp, place: UInt64, partition: Int
  ) {
    let entry = UnsafeMutableRawBufferPointer.allocate(byteCount: IDEntry.headerSize + key.count, alignment: 16)
    defer { entry.deallocate() }
    guard let at = entry.baseAddress else { return }
    IDEntry.write(at: at, key: key, hash: hash, instant: instant, place: place)
    take(UnsafeRawBufferPointer(entry), partition: partition)
  }

  /// Hands one partition's buffer over to the shared partitions, as it is, and takes a new one.
  /// At the end of the pass (`last`), a buffer less than half full is handed over as a copy that
  /// fits instead (the budget counts what is allocated) and is kept.
  private func handOver(_ partition: Int, last: Bool = false) {
    let count = used[partition]
    guard count > 0 else { return }
    used[partition] = 0
    let full = buffers[partition]
    full.count = count
    if last && count < regionSize / 2 {
      take(IDEntryChunk(copying: full.bytes), partition: partition)
      return
    }
    let next = IDEntryChunk(capacity: regionSize)
    buffers[partition] = next
    if let start = next.storage.baseAddress { starts[partition] = start }
    take(full, partition: partition)
  }

  private func take(_ bytes: UnsafeRawBufferPointer, partition: Int) {
    take(IDEntryChunk(copying: bytes), partition: partition)
  }

  private func take(_ chunk: IDEntryChunk, partition: Int) {
    guard failure == nil else { return }
    do throws(SpillError) {
      try partitions.take(chunk, partition: partition)
    } catch {
      failure = error
    }
  }

  /// Hands everything buffered over: at the end of the pass.
  func handOver() {
    tonight?.handOver()
    for partition in 0..<IDPartitions.partitionCount { handOver(partition, last: true) }
  }
}
