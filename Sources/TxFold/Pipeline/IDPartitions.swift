/// The first pass's entries, partitioned by key hash; shared by the workers,
/// each of which buffers its own (`IDCollector`) and hands them over here
/// when its buffer is full or the pass ends.
final class IDPartitions: Sendable {
  /// Partitions: each is judged on its own at the end (split again first
  /// when it is larger than a thread's share of the budget).
  static let partitionCount = 128
  /// An entry's fixed part (`IDEntry`).
  static let headerSize = IDEntry.headerSize

  private struct State {
    /// Entries handed over and still in memory, per partition (the workers' filled buffers
    /// themselves), and the bytes allocated for them.
    var held: [[IDEntryChunk]] = Array(repeating: [], count: IDPartitions.partitionCount)
    var heldBytes = 0
    /// Where entries go past `budget`: one file, a segment per partition at each spill.
    var file: SpillFile?
    /// Per partition: the byte ranges of `file` that hold its entries.
    var segments: [[(offset: Int64, count: Int)]] = Array(repeating: [], count: IDPartitions.partitionCount)
    /// An incremental run's: the hashes of tonight's keys, as they come, until
    /// `tonightKeyFilter()` (`nil` once past `maxKeyHashes`: no filter then).
    var keyHashes: [UInt64]? = []
    /// The bytes of the largest set loaded whole to be judged.
    var largestLoad = 0
  }

  private let state = LockedValue(State())
  /// Where the entries' files are made: `file`, and a file per split.
  private let store: SpillStore
  /// An incremental run's state, which takes tonight's accepted records.
  let nightly: NightlyState?
  let budget: Int

  init(
    budget: Int, temporaryParent: String?, nightly: NightlyState? = nil, register: @escaping (String) -> Void
  ) {
    self.budget = max(budget, 1 << 16)
    self.nightly = nightly
    store = SpillStore(temporaryParent: temporaryParent, register: register)
  }

  /// Whether anything went to disk.
  var spilled: Bool { state.withLock { $0.file != nil } }

  /// The bytes of the largest set of entries judged in memory at once: at
  /// most the judge's limit per set, whatever the dump.
  var largestLoad: Int { state.withLock { $0.largestLoad } }

  /// The partition of an entry whose key has `hash`: its top bits.
  @inline(__always)
  static func partition(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 57) }

  /// Takes a copy of entries of one partition.
  func take(_ entries: UnsafeRawBufferPointer, partition: Int) throws(SpillError) {
    try take(IDEntryChunk(copying: entries), partition: partition)
  }

  /// Takes a worker's buffer of entries of one partition, as it is: the partition keeps a list of
  /// them (appending their bytes to one array per partition cost a copy, and another each time
  /// the array doubled).
  func take(_ chunk: IDEntryChunk, partition: Int) throws(SpillError) {
    let entries = chunk.bytes
    try state.withLock { (state) throws(SpillError) in
      if nightly != nil, state.keyHashes != nil {
        var offset = 0
        var hashes: [UInt64] = []
        while offset < entries.count {
          hashes.append(IDEntry.hash(entries, at: offset))
          offset += IDEntry.size(entries, at: offset)
        }
        if (state.keyHashes?.count ?? 0) + hashes.count > maxKeyHashes {
          state.keyHashes = nil
        } else {
          state.keyHashes?.append(contentsOf: hashes)
        }
      }
      // The budget counts what the buffers allocate, not what they hold.
      state.held[partition].append(chunk)
      state.heldBytes += chunk.allocated
      guard state.heldBytes > budget else { return }
      // Over the budget: everything held goes to the file, a segment per partition.
      if state.file == nil { state.file = try store.makeFile() }
      guard let target = state.file else { return }
      for index in state.held.indices where !state.held[index].isEmpty {
        let offset = target.size
        var count = 0
        for chunk in state.held[index] {
          try target.append(raw: chunk.bytes)
          count += chunk.count
        }
        try target.flush()
        state.segments[index].append((offset, count))
        state.held[index] = []
      }
      state.heldBytes = 0
    }
  }

  /// At most how many of tonight's key hashes are kept for `tonightKeyFilter()`:
  /// 8 bytes each, and the filter 4 more, within an eighth of the budget.
  var maxKeyHashes: Int { max(1 << 12, budget / (8 * 12)) }

  /// The filter of the keys taken so far (tonight's), after which no more are
  /// noted; `nil` when there were too many to keep (every key then passes).
  func tonightKeyFilter() -> KeyHashFilter? {
    state.withLock { state in
      defer { state.keyHashes = nil }
      return state.keyHashes.map { KeyHashFilter($0) }
    }
  }

  /// Entries to judge together: byte ranges of spill files, and bytes in memory.
  struct EntrySet {
    var ranges: [(file: SpillFile, offset: Int64, count: Int)] = []
    var held: [IDEntryChunk] = []
    var heldCount: Int { held.reduce(0) { $0 + $1.count } }
    var byteCount: Int { ranges.reduce(heldCount) { $0 + $1.count } }
  }

  /// Takes a partition's entries, spilled and held (its memory is the set's now).
  func take(partition: Int) -> EntrySet {
    state.withLock { state in
      var set = EntrySet()
      if let file = state.file { set.ranges = state.segments[partition].map { (file, $0.offset, $0.count) } }
      set.held = state.held[partition]
      state.held[partition] = []
      return set
    }
  }

  /// Appends the losers among `set`'s entries to `losers`. A set larger than
  /// `sortLimit` bytes is first split by further bits of the hash into
  /// `splitFanout` sets on a file of its own, so that what is judged at once
  /// never depends on the dump's size; the depth is bounded by the hash's
  /// bits (nine splits), whatever the input. A large set that no split
  /// separates (one key sent very often, or keys whose hashes all collide)
  /// is judged an entry at a time instead (`appendLosersStreaming`).
  func appendLosers(of set: EntrySet, level: Int = 1, sortLimit: Int, to losers: inout [UInt64]) throws(SpillError) {
    guard set.byteCount > sortLimit else {
      state.withLock { $0.largestLoad = max($0.largestLoad, set.byteCount) }
      Self.appendLosers(in: try load(set), to: &losers)
      return
    }
    let shift = 57 - Self.splitBits * level
    if shift >= 0 {
      let parts = try split(set, shift: shift)
      guard parts.count == 1 else {
        for part in parts { try appendLosers(of: part, level: level + 1, sortLimit: sortLimit, to: &losers) }
        return
      }
    }
    try Self.appendLosersStreaming(of: set, to: &losers)
  }

  /// The losers among a set's entries, read a block at a time: each key's
  /// latest version so far is kept (a dictionary by the key's bytes), and of
  /// two versions the earlier loses at once. Memory: the set's distinct keys,
  /// never its entries — a dump that sends one id two million times holds one
  /// key here. Slower than the table of `appendLosers(in:to:)` (a dictionary
  /// look-up per entry), which is why only sets no split separates come here.
  static func appendLosersStreaming(of set: EntrySet, to losers: inout [UInt64]) throws(SpillError) {
    var latest: [[UInt8]: IDEntry.Rank] = [:]
    // The key looked up, in one array reused for every entry: an entry allocates only for a new key.
    var key: [UInt8] = []
    try forEachEntry(of: set) { entry in
      let length = IDEntry.keyLength(entry, at: 0)
      key.removeAll(keepingCapacity: true)
      key.append(contentsOf: UnsafeRawBufferPointer(rebasing: entry[headerSize..<(headerSize + length)]))
      let version = IDEntry.Rank(entry, at: 0)
      guard let held = latest[key] else {
        latest[key] = version
        return
      }
      if held < version {
        losers.append(held.place)
        latest[key] = version
      } else {
        losers.append(version.place)
      }
    }
  }

  /// Calls `body` with each whole entry of `set`: its files' ranges read a
  /// block at a time, then the bytes it holds.
  private static func forEachEntry(
    of set: EntrySet, _ body: (UnsafeRawBufferPointer) throws(SpillError) -> Void
  ) throws(SpillError) {
    for range in set.ranges {
      let reader = SpillReader(
        file: range.file, range: range.offset..<(range.offset + Int64(range.count)), bufferSize: 1 << 20)
      while try reader.request(Self.headerSize) {
        let size = IDEntry.size(UnsafeRawBufferPointer(reader.bytes), at: 0)
        guard try reader.request(size) else { break }
        try body(UnsafeRawBufferPointer(start: reader.pointer, count: size))
        reader.consume(size)
      }
      // Segments hold whole entries.
      guard reader.available == 0 else {
        throw .corrupt(path: range.file.name, detail: "the id table's file holds a cut entry")
      }
    }
    for chunk in set.held {
      let held = chunk.bytes
      var offset = 0
      while offset < held.count {
        let size = IDEntry.size(held, at: offset)
        try body(UnsafeRawBufferPointer(rebasing: held[offset..<(offset + size)]))
        offset += size
      }
    }
  }

  /// How many bits of the hash each split uses, and so into how many sets it splits.
  static let splitBits = 6
  static var splitFanout: Int { 1 << splitBits }

  /// Splits `set` by the hash's bits at `shift`: its entries are read a run
  /// at a time and written by those bits to a new unlinked file, a segment per
  /// filled buffer; the buffers' last bytes stay in memory. Returns the sets
  /// that are not empty.
  private func split(_ set: EntrySet, shift: Int) throws(SpillError) -> [EntrySet] {
    let file = try store.makeFile()
    let bufferLimit = 64 * 1024
    var buffers = Array(repeating: [UInt8](), count: Self.splitFanout)
    var parts = Array(repeating: EntrySet(), count: Self.splitFanout)
    /// Appends one whole entry to its part's buffer, writing the buffer out when it is full.
    func scatter(_ entry: UnsafeRawBufferPointer) throws(SpillError) {
      let hash = IDEntry.hash(entry, at: 0)
      let part = Int(truncatingIfNeeded: (hash >> UInt64(shift)) & UInt64(Self.splitFanout - 1))
      buffers[part].append(contentsOf: entry.assumingMemoryBound(to: UInt8.self))
      guard buffers[part].count >= bufferLimit else { return }
      let start = file.size
      try file.append(bytes: &buffers[part])
      try file.flush()
      parts[part].ranges.append((file, start, Int(file.size - start)))
    }
    try Self.forEachEntry(of: set, scatter)
    for part in parts.indices where !buffers[part].isEmpty {
      parts[part].held = [buffers[part].withUnsafeBytes { IDEntryChunk(copying: $0) }]
    }
    return parts.filter { $0.byteCount > 0 }
  }

  /// A set's entries in memory: its files' ranges read into one buffer, then the buffers it holds.
  private func load(_ set: EntrySet) throws(SpillError) -> [IDEntryChunk] {
    // A set held whole in memory is its own buffers: copying them cost a tenth of the judging.
    if set.ranges.isEmpty { return set.held }
    let read = IDEntryChunk(capacity: set.byteCount - set.heldCount)
    var start = 0
    for range in set.ranges {
      try range.file.read(
        exactly: UnsafeMutableRawBufferPointer(rebasing: read.storage[start..<(start + range.count)]), at: range.offset)
      start += range.count
    }
    read.count = start
    return [read] + set.held
  }

  /// Removes the temporary directory (the files are already unlinked).
  func remove() {
    state.withLock { $0.file = nil }
    store.remove()
  }

  /// A random seed, once per process, for where entries land in `appendLosers(in:to:)`'s table.
  static let tableSeed = UInt64.random(in: .min ... .max)

  /// The losers among entries (whole entries, one after another): every entry that shares its key with a later
  /// one (later instant, then later place), appended to `losers` in no order.
  ///
  /// Entries meet in an open-addressing table by their 64-bit hash (twice as
  /// many slots as entries, a set's share of the budget, so it stays in
  /// cache): one look-up per entry, no sort. A slot holds the latest version
  /// so far of its hash's key; an entry of the same hash and the same key
  /// bytes judges the two at once (the earlier loses, the later stays). Only
  /// when two keys share a hash are that hash's entries set aside and sorted
  /// by key bytes, instant and place — which a crafted or weak hash costs,
  /// never a wrong merge.
  static func appendLosers(in bytes: [UInt8], to losers: inout [UInt64]) {
    bytes.withUnsafeBytes { appendLosers(in: [IDEntryChunk(copying: $0)], to: &losers) }
  }

  /// `appendLosers(in:to:)` over the entries of `chunks`, each chunk whole entries; the
  /// entries are found by their addresses, so the chunks are judged where they lie.
  static func appendLosers(in chunks: [IDEntryChunk], to losers: inout [UInt64]) {
    var count = 0
    for chunk in chunks {
      let raw = chunk.bytes
      var offset = 0
      while offset + headerSize <= raw.count {
        count += 1
        offset += IDEntry.size(raw, at: offset)
      }
    }
    guard count > 1 else { return }
    let entries = UnsafeMutableBufferPointer<UnsafeRawPointer>.allocate(capacity: count)
    defer { entries.deallocate() }
    var index = 0
    for chunk in chunks {
      let raw = chunk.bytes
      guard let base = raw.baseAddress else { continue }
      var offset = 0
      while offset + headerSize <= raw.count {
        entries.initializeElement(at: index, to: base + offset)
        index += 1
        offset += IDEntry.size(raw, at: offset)
      }
    }
    let slotBits = Int.bitWidth - (2 * count - 1).leadingZeroBitCount
    let slotCount = 1 << slotBits
    let mask = slotCount - 1
    // The slot comes from the hash mixed with this process's random seed: ids crafted so that
    // their hashes crowd a few slots (the hash is no secret) cannot make the probing quadratic.
    // Which slot an entry takes never shows in the losers found.
    let seed = tableSeed
    func firstSlot(_ hash: UInt64) -> Int {
      Int(truncatingIfNeeded: ((hash ^ seed) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
    }
    func sameKey(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
      let length = IDEntry.keyLength(at: a)
      guard IDEntry.keyLength(at: b) == length else { return false }
      return length == 0 || SystemCalls.compareBytes(a + headerSize, b + headerSize, count: length) == 0
    }
    // A slot holds an entry's index + 1 (0: empty); the hash is read from the entry. A set is at
    // most a thread's share of the budget, so its entries are far fewer than 2^32.
    var slots = [UInt32](repeating: 0, count: slotCount)
    // Entries of a hash that two keys share: (hash, index), the slot's own included once.
    var shared: [(hash: UInt64, index: Int)] = []
    var collided = [Bool](repeating: false, count: count)
    do {
      slots.withUnsafeMutableBufferPointer { slots in
        for index in 0..<count {
          let at = entries[index]
          let hash = IDEntry.hash(at: at)
          var slot = firstSlot(hash)
          while true {
            let held = Int(slots[slot]) - 1
            if held < 0 {
              slots[slot] = UInt32(truncatingIfNeeded: index + 1)
              break
            }
            let heldAt = entries[held]
            if IDEntry.hash(at: heldAt) == hash {
              if collided[held] {
                shared.append((hash, index))
              } else if sameKey(heldAt, at) {
                // Two versions of one key: the earlier loses now; the later stays to meet the next.
                let version = IDEntry.Rank(at: at)
                let latest = IDEntry.Rank(at: heldAt)
                if latest < version {
                  losers.append(latest.place)
                  slots[slot] = UInt32(truncatingIfNeeded: index + 1)
                } else {
                  losers.append(version.place)
                }
              } else {
                // Another key with this hash: from now on the hash's entries are sorted by their bytes
                // (the versions that lost already lost to a version still held here).
                collided[held] = true
                shared.append((hash, held))
                shared.append((hash, index))
              }
              break
            }
            slot = (slot + 1) & mask
          }
        }
      }
    }
    guard !shared.isEmpty else { return }
    shared.sort { $0.hash < $1.hash }
    var start = 0
    while start < shared.count {
      var end = start + 1
      while end < shared.count && shared[end].hash == shared[start].hash { end += 1 }
      appendLosers(among: shared[start..<end].map { entries[$0.index] }, to: &losers)
      start = end
    }
  }

  /// The losers among entries of one hash (at `entries`): sorted by key bytes,
  /// then instant and place, a key's versions are neighbours and all but the last lose.
  private static func appendLosers(among entries: [UnsafeRawPointer], to losers: inout [UInt64]) {
    struct Version {
      var rank: IDEntry.Rank
      var key: UnsafeRawPointer
      var keyLength: Int
    }
    let versions = entries.map { entry in
      Version(rank: IDEntry.Rank(at: entry), key: entry + headerSize, keyLength: IDEntry.keyLength(at: entry))
    }
    func keyOrder(_ a: Version, _ b: Version) -> Int32 {
      let common = min(a.keyLength, b.keyLength)
      if common > 0 {
        let order = SystemCalls.compareBytes(a.key, b.key, count: common)
        if order != 0 { return order }
      }
      return a.keyLength == b.keyLength ? 0 : (a.keyLength < b.keyLength ? -1 : 1)
    }
    let sorted = versions.sorted { a, b in
      let order = keyOrder(a, b)
      return order != 0 ? order < 0 : a.rank < b.rank
    }
    for index in sorted.indices.dropLast() where keyOrder(sorted[index], sorted[index + 1]) == 0 {
      losers.append(sorted[index].rank.place)
    }
  }
}
