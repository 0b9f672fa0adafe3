/// One worker's side of the first pass: its entries, in the order they come,
/// in one buffer of its own; they are sorted into partitions only when the
/// buffer is handed over, so a record costs one append and no array of arrays.
final class IDCollector {
  let partitions: IDPartitions
  /// Entries, one after another (`IDEntry`), in memory this worker owns and
  /// writes in place: an array's append per piece cost a uniqueness and
  /// capacity check each, a tenth of the first pass.
  @exclusivity(unchecked) private var entries: UnsafeMutableRawBufferPointer
  @exclusivity(unchecked) private var used = 0
  /// Entries regrouped by partition when they are handed over (as large as `entries`, allocated once
  /// and never cleared: a zeroed array made anew whenever a hand-over was larger than the last was a
  /// quarter of a run's page faults), and where each began.
  private var grouped: UnsafeMutableRawBufferPointer
  private var starts: [(offset: Int, partition: Int)] = []
  private let flushAt: Int
  /// The first failure to hand entries over; the pass stops with it.
  private(set) var failure: SpillError?
  /// An incremental run's side: tonight's accepted records.
  let tonight: StateDelta?

  init(partitions: IDPartitions, workers: Int) {
    self.partitions = partitions
    tonight = partitions.nightly.map { StateDelta(state: $0) }
    // A worker holds its entries and, while handing them over, a grouped copy: twice this.
    flushAt = max(1 << 14, partitions.budget / max(1, 8 * workers))
    entries = .allocate(byteCount: flushAt + 4096, alignment: 16)
    grouped = .allocate(byteCount: flushAt + 4096, alignment: 16)
  }

  deinit {
    entries.deallocate()
    grouped.deallocate()
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
    let keyLength = writeKey(key, account: account)
    guard let base = entries.baseAddress else { return }
    IDEntry.writeHeader(at: base + used, keyLength: keyLength, instant: instant, place: place)
    used += IDEntry.headerSize + keyLength
    if used >= flushAt { handOver() }
  }

  /// Whether `filter` passes the key `add(key:account:instant:place:)` would enter: laid out
  /// where that entry would go, and hashed as its header would hash it, but not entered.
  func passes(_ filter: KeyHashFilter, key: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?) -> Bool {
    let keyLength = writeKey(key, account: account)
    guard let base = entries.baseAddress else { return true }
    return filter.mayContain(
      IDEntry.keyHash(UnsafeRawBufferPointer(start: base + used + IDEntry.headerSize, count: keyLength)))
  }

  /// Writes an entry's key (the account with its length, when given, then `key`) after room for
  /// its header at the end of the buffer (`used`, not moved); the key's length.
  @inline(__always)
  private func writeKey(_ key: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?) -> Int {
    let keyLength = (account.map { 4 + $0.count } ?? 0) + key.count
    let size = IDEntry.headerSize + keyLength
    if used + size > entries.count { grow(to: used + size) }
    guard let base = entries.baseAddress else { return keyLength }
    var keyAt = base + used + IDEntry.headerSize
    if let account {
      keyAt.storeBytes(of: UInt32(truncatingIfNeeded: account.count).littleEndian, as: UInt32.self)
      keyAt += 4
      if let bytes = account.baseAddress { keyAt.copyMemory(from: bytes, byteCount: account.count) }
      keyAt += account.count
    }
    if let bytes = key.baseAddress { keyAt.copyMemory(from: bytes, byteCount: key.count) }
    return keyLength
  }

  /// Room for an entry larger than what is left (a long id or account).
  private func grow(to size: Int) {
    entries.grow(toAtLeast: size, keeping: 0..<used, alignment: 16)
    if grouped.count < entries.count { grouped.grow(toAtLeast: entries.count, keeping: 0..<0, alignment: 16) }
  }

  /// Hands what is buffered to the shared partitions, grouped by partition
  /// (a counting sort: sizes per partition, then each entry copied to its place).
  func handOver() {
    tonight?.handOver()
    guard used > 0, failure == nil else { return }
    let raw = UnsafeRawBufferPointer(rebasing: entries[0..<used])
    // Each entry's start and partition, and the bytes per partition.
    var sizes = [Int](repeating: 0, count: IDPartitions.partitionCount)
    starts.removeAll(keepingCapacity: true)
    var offset = 0
    while offset < raw.count {
      let size = IDEntry.size(raw, at: offset)
      let partition = IDPartitions.partition(IDEntry.hash(raw, at: offset))
      starts.append((offset, partition))
      sizes[partition] += size
      offset += size
    }
    var next = [Int](repeating: 0, count: sizes.count)
    var ends = sizes
    var total = 0
    for index in sizes.indices {
      next[index] = total
      total += sizes[index]
      ends[index] = total
    }
    // `total` is `used`, which `grouped` holds: it grows with `entries`.
    if let from = raw.baseAddress, let to = grouped.baseAddress {
      for (index, entry) in starts.enumerated() {
        let size = (index + 1 < starts.count ? starts[index + 1].offset : raw.count) - entry.offset
        (to + next[entry.partition]).copyMemory(from: from + entry.offset, byteCount: size)
        next[entry.partition] += size
      }
    }
    do throws(SpillError) {
      try partitions.take(UnsafeRawBufferPointer(rebasing: grouped[0..<total]), ends: ends, entries: starts.count)
    } catch {
      failure = error
    }
    used = 0
  }
}
