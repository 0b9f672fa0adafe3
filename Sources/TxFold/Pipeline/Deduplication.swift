import Foundation

/// `--dedupe` for every job: which records lose to a later version of their
/// transaction, found by a first pass over the inputs, so that the job's own
/// run (the second pass) skips them and sees each transaction once.
///
/// The first pass decodes and classifies every record as any run does (its
/// accounting is the run's: rejections are reported there, once) and, for
/// every accepted record with an id, writes a small entry — a hash of the key
/// (the id, or the account and the id per account), the instant, the
/// record's place in the input and the key's bytes — into one of
/// `partitionCount` partitions by hash. Past the memory budget the partitions
/// go to one unlinked temporary file. Each partition is then judged on its
/// own (split by more bits of the hash first when it is larger than a
/// thread's share of the budget): entries meet by hash in a table, those
/// that share a hash are sorted by key bytes, instant and place, and of each
/// key all but the winner (latest instant, then latest place) are losers.
/// Keys are compared by their bytes, so two ids whose hashes collide stay
/// two transactions.
///
/// When the job folded its report in the first pass too (`group`,
/// `summary`) and nothing lost, that report is the run's: no second pass.
///
/// The second pass reads the inputs again — a regular file by its path (it
/// must be unchanged), anything else (standard input, a pipe, a library
/// source) from the copy the first pass kept in the temporary directory — and
/// the classifier leaves out the losers by their place. Memory: the
/// partitions up to the budget, then 8 bytes per loser.
final class Deduplicated: Sendable {
  /// The losers' places (`placeKey`), ascending.
  let losers: [UInt64]
  /// The first pass's accounting: the run's counts, rejections included.
  let stats: RunStats
  /// The first pass's rejections sample, for the end-of-run diagnosis.
  let sample: [RecordRejection]
  /// Whether the id table went to disk.
  let spilled: Bool
  /// Whether the run reads the losers only (and not the winners): a job
  /// that summed every record in the first pass takes the losers out again
  /// (`SummaryAccumulator.subtract`) instead of summing the winners anew.
  let readsLosers: Bool

  init(losers: [UInt64], stats: RunStats, sample: [RecordRejection], spilled: Bool, readsLosers: Bool = false) {
    self.losers = losers
    self.stats = stats
    self.sample = sample
    self.spilled = spilled
    self.readsLosers = readsLosers
  }

  /// The same losers, for a pass that reads only them.
  func readingLosers() -> Deduplicated {
    Deduplicated(losers: losers, stats: stats, sample: sample, spilled: spilled, readsLosers: true)
  }

  /// A record's place in the run: its input, then its 1-based position in
  /// it. Later places are greater, which is the winner rule's tie-break.
  @inline(__always)
  static func placeKey(fileIndex: Int, position: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: fileIndex) << 40 | UInt64(truncatingIfNeeded: position)
  }

  /// Positions above this do not fit a place key (a trillion records in one input).
  static let maxPosition = (1 << 40) - 1

  /// Sets the counts a second pass reports from the first pass's, which read
  /// every record: the second pass's own cover only the winners. `selected`
  /// (the winners the selection kept) and `accounts` stay the second pass's.
  func settle(_ stats: inout RunStats) {
    let selected = stats.selected
    let accounts = stats.accounts
    stats = self.stats
    stats.selected = selected
    stats.accounts = accounts
  }

  /// Walks the losers alongside a chunk's records, which come in place order.
  struct Cursor {
    let losers: UnsafeBufferPointer<UInt64>
    var index = -1

    /// Whether the record at `key` lost to a later version of itself.
    @inline(__always)
    mutating func isLoser(_ key: UInt64) -> Bool {
      if index < 0 { index = lowerBound(key) }
      while index < losers.count && losers[index] < key { index += 1 }
      return index < losers.count && losers[index] == key
    }

    private func lowerBound(_ key: UInt64) -> Int {
      var low = 0
      var high = losers.count
      while low < high {
        let middle = (low + high) / 2
        if losers[middle] < key { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  /// Calls `body` with a cursor over the losers.
  func withCursor<T>(_ body: (inout Cursor) -> T) -> T {
    losers.withUnsafeBufferPointer { buffer in
      var cursor = Cursor(losers: buffer)
      return body(&cursor)
    }
  }
}

/// The hash of a dedupe key: 64 bits, from 8 bytes at a time.
enum DedupeKeyHash {
  /// In a debug build, `TXFOLD_WEAK_ID_HASH=1` makes every key hash alike,
  /// so tests can show that colliding ids are still told apart by their bytes.
  static let weak: Bool = {
    #if DEBUG
      return ProcessInfo.processInfo.environment["TXFOLD_WEAK_ID_HASH"] == "1"
    #else
      return false
    #endif
  }()

  /// The hash of `bytes`; another `seed` gives another function (a table's
  /// own, which crafted keys cannot aim at without knowing the seed).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    if weak { return 0x9E37_79B9_7F4A_7C15 }
    var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: bytes.count) ^ seed
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      state = mix(state ^ word)
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return finish(mix(state ^ tail))
  }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    (value &* 0x9E37_79B9_7F4A_7C15).rotatedLeft(by: 31) &* 0xBF58_476D_1CE4_E5B9
  }

  @inline(__always)
  private static func finish(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x = x &* 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x = x &* 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}

extension UInt64 {
  @inline(__always)
  fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}

/// One entry of the id table, as it lies in a worker's buffer, a partition
/// and a spill file: a fixed header — the key's length (u32), its hash
/// (u64), the instant's epoch seconds (i64) and nanosecond (u32), the
/// record's place (u64) — then the key's bytes (per account: the account's
/// length (u32) and bytes, then the id). Little-endian, unaligned.
enum IDEntry {
  static let headerSize = 32

  /// Writes the header of an entry whose key (`keyLength` bytes) is already
  /// at `at + headerSize`, hashing that key.
  @inline(__always)
  static func writeHeader(at: UnsafeMutableRawPointer, keyLength: Int, instant: Timestamp, place: UInt64) {
    let hash = keyHash(UnsafeRawBufferPointer(start: at + headerSize, count: keyLength))
    at.storeBytes(of: UInt32(truncatingIfNeeded: keyLength).littleEndian, as: UInt32.self)
    at.storeBytes(of: hash.littleEndian, toByteOffset: 4, as: UInt64.self)
    at.storeBytes(of: instant.epochSeconds.littleEndian, toByteOffset: 12, as: Int64.self)
    at.storeBytes(of: UInt32(truncatingIfNeeded: instant.nanosecond).littleEndian, toByteOffset: 20, as: UInt32.self)
    at.storeBytes(of: place.littleEndian, toByteOffset: 24, as: UInt64.self)
  }

  /// The hash an entry holds of its key: seeded once per process, so that
  /// ids cannot be crafted ahead of a run to share one (they would all land
  /// in one set that no split separates, judged slowly; never wrongly).
  @inline(__always)
  static func keyHash(_ key: UnsafeRawBufferPointer) -> UInt64 { DedupeKeyHash.hash(key, seed: hashSeed) }

  static let hashSeed = UInt64.random(in: .min ... .max)

  /// Where an entry stands among its key's versions — the winner rule: the
  /// later instant, on a tie the later place (input, then position). The
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

    static func < (lhs: Rank, rhs: Rank) -> Bool {
      (lhs.seconds, lhs.nanosecond, lhs.place) < (rhs.seconds, rhs.nanosecond, rhs.place)
    }
  }

  /// The key's length of the entry at `offset`.
  @inline(__always)
  static func keyLength(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Int {
    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
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
    /// Entries handed over and still in memory, per partition, and the bytes allocated for them.
    var held: [[UInt8]] = Array(repeating: [], count: IDPartitions.partitionCount)
    var heldBytes = 0
    /// Where entries go past `budget`: one file, a segment per partition at each spill.
    var file: SpillFile?
    /// Per partition: the byte ranges of `file` that hold its entries.
    var segments: [[(offset: Int64, count: Int)]] = Array(repeating: [], count: IDPartitions.partitionCount)
    /// Entries written, all partitions together.
    var entryCount = 0
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

  /// Takes a worker's entries, grouped by partition: partition `p`'s are
  /// `grouped[ends[p - 1]..<ends[p]]`.
  func take(_ grouped: UnsafeRawBufferPointer, ends: [Int], entries: Int) throws(SpillError) {
    try state.withLock { (state) throws(SpillError) in
      state.entryCount += entries
      if nightly != nil, state.keyHashes != nil {
        if (state.keyHashes?.count ?? 0) + entries > maxKeyHashes {
          state.keyHashes = nil
        } else {
          var offset = 0
          while offset < grouped.count {
            state.keyHashes?.append(IDEntry.hash(grouped, at: offset))
            offset += IDEntry.size(grouped, at: offset)
          }
        }
      }
      var start = 0
      for index in ends.indices {
        if ends[index] > start {
          // The budget counts what the partitions allocate (an array grows by doubling), not what they hold.
          let before = state.held[index].capacity
          state.held[index].append(
            contentsOf: UnsafeRawBufferPointer(rebasing: grouped[start..<ends[index]]).bindMemory(to: UInt8.self))
          state.heldBytes += state.held[index].capacity - before
        }
        start = ends[index]
      }
      guard state.heldBytes > budget else { return }
      // Over the budget: everything held goes to the file, a segment per partition.
      if state.file == nil { state.file = try store.makeFile() }
      guard let target = state.file else { return }
      for index in state.held.indices where !state.held[index].isEmpty {
        let offset = target.size
        let count = state.held[index].count
        try target.append(bytes: &state.held[index])
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
    var held: [UInt8] = []
    var byteCount: Int { ranges.reduce(held.count) { $0 + $1.count } }
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
    try withUnsafeBytes(of: set.held) { (held) throws(SpillError) in
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
    for part in parts.indices { parts[part].held = buffers[part] }
    return parts.filter { $0.byteCount > 0 }
  }

  /// A set's entries in one buffer.
  private func load(_ set: EntrySet) throws(SpillError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: set.byteCount - set.held.count)
    var start = 0
    for range in set.ranges {
      let read = bytes.withUnsafeMutableBytes { raw in
        Result { () throws(SpillError) in
          try range.file.read(
            exactly: UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + range.count)]), at: range.offset)
        }
      }
      try read.get()
      start += range.count
    }
    bytes.append(contentsOf: set.held)
    return bytes
  }

  /// Removes the temporary directory (the files are already unlinked).
  func remove() {
    state.withLock { $0.file = nil }
    store.remove()
  }

  /// A random seed, once per process, for where entries land in `appendLosers(in:to:)`'s table.
  static let tableSeed = UInt64.random(in: .min ... .max)

  /// The losers among entries: every entry that shares its key with a later
  /// one (later instant, then later place), appended to `losers` in no order.
  ///
  /// Entries meet in an open-addressing table by their 64-bit hash (twice as
  /// many slots as entries, a set's share of the budget, so it stays in
  /// cache): one look-up per entry, no sort. Only entries whose hash another
  /// entry has too are compared further, by key bytes, instant and place.
  static func appendLosers(in bytes: [UInt8], to losers: inout [UInt64]) {
    bytes.withUnsafeBytes { raw in
      var offsets: [Int] = []
      var offset = 0
      while offset + headerSize <= raw.count {
        offsets.append(offset)
        offset += IDEntry.size(raw, at: offset)
      }
      guard offsets.count > 1 else { return }
      let slotBits = Int.bitWidth - (2 * offsets.count - 1).leadingZeroBitCount
      let slotCount = 1 << slotBits
      let mask = slotCount - 1
      // The slot comes from the hash mixed with this process's random seed: ids crafted so that
      // their hashes crowd a few slots (the hash is no secret) cannot make the probing quadratic.
      // Which slot an entry takes never shows in the losers found.
      func firstSlot(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: ((hash ^ tableSeed) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
      }
      // A slot holds an entry's index + 1 (0: empty); the hash is read from the entry.
      var slots = [Int](repeating: 0, count: slotCount)
      // Entries whose hash came before: (hash, index), the first of each hash included once.
      var shared: [(hash: UInt64, index: Int)] = []
      var firstShared = [Bool](repeating: false, count: offsets.count)
      slots.withUnsafeMutableBufferPointer { slots in
        for index in offsets.indices {
          let hash = IDEntry.hash(raw, at: offsets[index])
          var slot = firstSlot(hash)
          while true {
            let held = slots[slot]
            if held == 0 {
              slots[slot] = index + 1
              break
            }
            if IDEntry.hash(raw, at: offsets[held - 1]) == hash {
              if !firstShared[held - 1] {
                firstShared[held - 1] = true
                shared.append((hash, held - 1))
              }
              shared.append((hash, index))
              break
            }
            slot = (slot + 1) & mask
          }
        }
      }
      guard !shared.isEmpty else { return }
      shared.sort { $0.hash < $1.hash }
      var start = 0
      while start < shared.count {
        var end = start + 1
        while end < shared.count && shared[end].hash == shared[start].hash { end += 1 }
        appendLosers(among: shared[start..<end].map { offsets[$0.index] }, in: raw, to: &losers)
        start = end
      }
    }
  }

  /// The losers among entries of one hash (at `offsets`): sorted by key bytes,
  /// then instant and place, a key's versions are neighbours and all but the last lose.
  private static func appendLosers(among offsets: [Int], in raw: UnsafeRawBufferPointer, to losers: inout [UInt64]) {
    struct Version {
      var rank: IDEntry.Rank
      var keyOffset: Int
      var keyLength: Int
    }
    let versions = offsets.map { offset in
      Version(
        rank: IDEntry.Rank(raw, at: offset), keyOffset: offset + headerSize,
        keyLength: IDEntry.keyLength(raw, at: offset))
    }
    func keyOrder(_ a: Version, _ b: Version) -> Int32 {
      let common = min(a.keyLength, b.keyLength)
      if common > 0, let base = raw.baseAddress {
        let order = SystemCalls.compareBytes(base + a.keyOffset, base + b.keyOffset, count: common)
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

/// Which key hashes may be among a set's (one bit per hash, set by its low
/// bits, about 32 bits per hash): an incremental run's previous state holds
/// every transaction so far, but only a key tonight's exports hold too can
/// lose or make one lose, so the others' entries are left out of the id
/// table (`IDCollector.passes`). A hash that is not in the set never passes
/// as absent; one that passes may still be another key's (a later compare by
/// bytes tells), which only costs an entry.
struct KeyHashFilter {
  private var bits: [UInt64]
  private let mask: UInt64

  init(_ hashes: [UInt64]) {
    var count = 1 << 16
    while count < hashes.count * 32 { count <<= 1 }
    bits = Array(repeating: 0, count: count / 64)
    mask = UInt64(count - 1)
    for hash in hashes {
      let bit = hash & mask
      bits[Int(bit >> 6)] |= 1 << (bit & 63)
    }
  }

  /// Whether `hash` may be one of the set's: `false` only when it is none of them.
  @inline(__always)
  func mayContain(_ hash: UInt64) -> Bool {
    let bit = hash & mask
    return bits.withUnsafeBufferPointer { $0[Int(bit >> 6)] & (1 << (bit & 63)) != 0 }
  }
}

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
  /// Entries regrouped by partition when they are handed over, and where each began.
  private var grouped: [UInt8] = []
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
  }

  deinit { entries.deallocate() }

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
  private func grow(to size: Int) { entries.grow(toAtLeast: size, keeping: 0..<used, alignment: 16) }

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
    if grouped.count < total { grouped = [UInt8](repeating: 0, count: total) }
    grouped.withUnsafeMutableBytes { target in
      guard let from = raw.baseAddress, let to = target.baseAddress else { return }
      for (index, entry) in starts.enumerated() {
        let size = (index + 1 < starts.count ? starts[index + 1].offset : raw.count) - entry.offset
        (to + next[entry.partition]).copyMemory(from: from + entry.offset, byteCount: size)
        next[entry.partition] += size
      }
    }
    let count = starts.count
    failure = grouped.withUnsafeBytes { grouped -> SpillError? in
      do throws(SpillError) {
        try partitions.take(UnsafeRawBufferPointer(rebasing: grouped[0..<total]), ends: ends, entries: count)
        return nil
      } catch {
        return error
      }
    }
    used = 0
  }
}

/// The options every job that dedupes has.
protocol DeduplicatingOptions {
  var read: ReadOptions { get set }
  var dedupe: Bool { get set }
  var threads: Int { get }
  var memoryLimit: Int { get }
  var temporaryDirectory: String? { get }
}

extension DeduplicatingOptions {
  /// The options a pipeline keeps: an incremental run always dedupes (its
  /// second pass, which reads with the losers known, is the one that does not).
  func dedupingNightly() -> Self {
    var options = self
    if options.read.nightly != nil && options.read.deduplicated == nil { options.dedupe = true }
    return options
  }
}

extension GroupOptions: DeduplicatingOptions {}
extension ListOptions: DeduplicatingOptions {}
extension SummaryOptions: DeduplicatingOptions {}

/// A job that dedupes: its first pass's settings, and the pipeline of its second pass.
protocol DeduplicatingJob: AnyObject {
  associatedtype Options: DeduplicatingOptions
  var options: Options { get }
  var onRejection: ((RecordRejection) throws -> Void)? { get }
  var onProgress: ((PipelineProgress) -> Void)? { get set }
  var onTemporaryDirectory: ((String) -> Void)? { get set }
  /// How the first pass reads.
  var firstPassRead: ReadOptions { get }
  init(options: Options)
}

extension DeduplicatingJob {
  /// What the first pass of `dedupe` takes from the job.
  var dedupeSettings: DuplicateFinder.Settings {
    DuplicateFinder.Settings(
      read: firstPassRead, threads: options.threads, memoryLimit: options.memoryLimit,
      temporaryDirectory: options.temporaryDirectory, onTemporaryDirectory: onTemporaryDirectory,
      onRejection: onRejection, onProgress: onProgress)
  }

  /// The pipeline of `dedupe`'s second pass, reading with `read` (which
  /// leaves out the losers); it reports no rejection (the first pass did).
  func secondPass(_ read: ReadOptions) -> Self {
    var second = options
    second.dedupe = false
    second.read = read
    let pipeline = Self(options: second)
    pipeline.onProgress = onProgress
    pipeline.onTemporaryDirectory = onTemporaryDirectory
    return pipeline
  }
}

/// Runs the first pass of `--dedupe` (see `Deduplicated`).
enum DuplicateFinder {
  /// What the first pass needs of the run.
  struct Settings {
    var read: ReadOptions
    var threads: Int
    var memoryLimit: Int
    var temporaryDirectory: String?
    var onTemporaryDirectory: ((String) -> Void)?
    var onRejection: ((RecordRejection) throws -> Void)?
    var onProgress: ((PipelineProgress) -> Void)?
  }

  /// What the first pass found.
  struct FirstPass<Folded> {
    /// The inputs to read again.
    var inputs: RunInputs
    /// The read options of the second pass, which leave out the losers.
    var read: ReadOptions
    /// When the job folded in the first pass and no record lost: its result,
    /// which needs no second pass, with the run's stats.
    var folded: (value: Folded, stats: RunStats, sample: [RecordRejection])?
  }

  /// What a job's fold in the first pass hands back: the run's stats and
  /// rejections, and the job's own result (`nil` when it only collected ids,
  /// or its result cannot stand for the run's, as when a sum overflowed
  /// with the losers still in it).
  struct FirstFold<Folded> {
    var stats: RunStats
    var sample: [RecordRejection]
    var value: Folded?
  }

  /// Reads `inputs` once, reporting rejections and judging the run as any
  /// run does, and finds the losers; only the ids are collected (the jobs
  /// that fold in this pass too call `firstPass(_:settings:fold:)`).
  static func firstPass(_ inputs: RunInputs, settings: Settings) throws(PipelineError) -> FirstPass<Never> {
    var options = GroupOptions()
    options.threads = max(1, settings.threads)
    options.reportMembers = false
    return try firstPass(inputs, settings: settings) { read, names, partitions, next throws(PipelineError) in
      options.read = read
      let pipeline = GroupPipeline(options: options)
      pipeline.onRejection = settings.onRejection
      pipeline.onProgress = settings.onProgress
      let folded = try pipeline.fold(names: names, collecting: partitions, next: next)
      var stats = folded.stats
      if options.filter.keepsEverything { stats.selected = nil }
      return FirstFold(stats: stats, sample: folded.sample, value: nil)
    }
  }

  /// Reads `inputs` once through `fold`, which gets the first pass's read
  /// options (positions counted), the inputs' names, the id table to fill
  /// and the inputs (copied where they cannot be read twice); judges the
  /// run as any run does and finds the losers. When `fold` hands back a
  /// result and no record lost, that result is the run's: no second pass.
  static func firstPass<Folded>(
    _ inputs: RunInputs, settings: Settings,
    fold: (
      _ read: ReadOptions, _ names: [String], _ partitions: IDPartitions,
      _ next: () throws(PipelineError) -> (any ByteSource)?
    ) throws(PipelineError) -> FirstFold<Folded>
  ) throws(PipelineError) -> FirstPass<Folded> {
    var read = settings.read
    // Places must not depend on where chunks end: count positions in every input.
    read.countPositions = true
    let register = settings.onTemporaryDirectory ?? { _ in }
    // Half the budget for entries; sorting a partition needs its share again.
    let partitions = IDPartitions(
      budget: max(1, settings.memoryLimit / 2), temporaryParent: settings.temporaryDirectory, nightly: read.nightly,
      register: register)
    // Tonight's records for the state: a quarter of the budget in memory, then sorted runs on disk.
    read.nightly?.prepare(
      budget: max(1, settings.memoryLimit / 4), temporaryParent: settings.temporaryDirectory, register: register)
    defer { partitions.remove() }
    let inputs = read.nightly?.prepending(to: inputs) ?? inputs
    let copies = InputCopies(
      paths: inputs.paths, temporaryParent: settings.temporaryDirectory, register: register)
    var first = inputs
    let folded = try fold(read, inputs.names, partitions) { () throws(PipelineError) in
      guard let source = try first.next() else { return nil }
      return try copies.keep(source)
    }
    try copies.finish()
    // An incremental run's previous state: its ids from the file, at places before tonight's inputs —
    // read once tonight's are known, so that only the keys tonight's inputs hold too are entered.
    try read.nightly?.addPreviousEntries(
      to: partitions, read: read, filter: partitions.tonightKeyFilter(), threaded: settings.threads > 1)
    var losers: [UInt64] = []
    let spilled = partitions.spilled
    do throws(SpillError) {
      losers = try findLosers(partitions, threads: max(1, settings.threads))
    } catch {
      throw .spill(error)
    }
    // The id entries are judged and freed: their pages go back before the second pass, whose
    // threads would otherwise take new ones from other arenas (`MemoryRelease`).
    MemoryRelease.trim()
    var stats = folded.stats
    let selected = stats.selected
    stats.duplicates = losers.count
    stats.selected = nil
    if let nightly = read.nightly {
      if let failure = nightly.failure { throw .spill(failure) }
      // The thresholds judge tonight's export (an empty or broken night must fail), not the history.
      try read.judge(stats, sample: folded.sample)
      nightly.losers = losers
      nightly.settle(&stats)
      // Known before any account is written: the per-account cursors skip the unchanged ones.
      try nightly.findChangedAccounts()
      // The second pass reads tonight's state: each transaction once, in account order.
      let deduplicated = Deduplicated(losers: [], stats: stats, sample: folded.sample, spilled: spilled)
      return FirstPass(
        inputs: nightly.secondPassInputs(stats: stats), read: nightly.secondPassRead(read, deduplicated: deduplicated),
        folded: nil)
    } else {
      try read.judge(stats, sample: folded.sample)
    }
    if let value = folded.value, losers.isEmpty {
      stats.selected = selected
      return FirstPass(inputs: copies.secondPass(of: inputs), read: read, folded: (value, stats, folded.sample))
    }
    read.deduplicated = Deduplicated(losers: losers, stats: stats, sample: folded.sample, spilled: spilled)
    return FirstPass(inputs: copies.secondPass(of: inputs), read: read, folded: nil)
  }

  /// Judges every partition (on up to `threads` threads) and returns all losers, ascending.
  /// A partition larger than `sortLimit` bytes (by default a share of the
  /// budget per thread) is split before it is judged.
  static func findLosers(_ partitions: IDPartitions, threads: Int, sortLimit: Int? = nil) throws(SpillError)
    -> [UInt64]
  {
    let count = IDPartitions.partitionCount
    // Judging holds a set's bytes and about 25 bytes per entry (its offset, two table slots): entries are
    // 32 bytes and more, so under twice its bytes.
    let limit = sortLimit ?? max(1 << 20, partitions.budget / (3 * max(1, threads)))
    let lock = NSLock()
    var found: [[UInt64]] = Array(repeating: [], count: count)
    var failure: SpillError?
    nonisolated(unsafe) let work = { (partition: Int) in
      do throws(SpillError) {
        var losers: [UInt64] = []
        try partitions.appendLosers(of: partitions.take(partition: partition), sortLimit: limit, to: &losers)
        lock.withLock { found[partition] = losers }
      } catch {
        lock.withLock { failure = failure ?? error }
      }
    }
    if threads > 1 {
      let nextPartition = LockedValue(0)
      DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
        while true {
          let partition = nextPartition.withLock { (next) -> Int in
            defer { next += 1 }
            return next
          }
          guard partition < count else { return }
          work(partition)
        }
      }
    } else {
      for partition in 0..<count { work(partition) }
    }
    if let failure { throw failure }
    var all: [UInt64] = []
    all.reserveCapacity(found.reduce(0) { $0 + $1.count })
    for losers in found { all.append(contentsOf: losers) }
    all.sort()
    return all
  }
}

/// How the second pass of `--dedupe` gets each input again: a regular file
/// by its path (it must not have changed), anything else from a copy of its
/// decoded bytes kept in a private temporary directory by the first pass.
final class InputCopies {
  private enum Again {
    case path(String, FileStatus)
    case copy(SpillFile)
  }
  private let paths: [String]?
  private let store: SpillStore
  private var inputs: [Again] = []
  private var copying: [CopyingSource] = []

  init(paths: [String]?, temporaryParent: String?, register: @escaping (String) -> Void) {
    self.paths = paths
    store = SpillStore(temporaryParent: temporaryParent, register: register)
  }

  /// The first pass's source for the next input: `source` itself, or a
  /// source that copies what it reads.
  func keep(_ source: any ByteSource) throws(PipelineError) -> any ByteSource {
    let index = inputs.count
    if let paths, index < paths.count, paths[index] != "-",
      let status = SystemCalls.status(ofPath: paths[index]), status.kind == .regular
    {
      inputs.append(.path(paths[index], status))
      return source
    }
    do throws(SpillError) {
      let file = try store.makeFile()
      inputs.append(.copy(file))
      let copy = CopyingSource(source, into: file)
      copying.append(copy)
      return copy
    } catch {
      throw .spill(error)
    }
  }

  /// Ends the first pass: every copy complete on disk.
  func finish() throws(PipelineError) {
    for copy in copying {
      if let failure = copy.failure { throw .spill(failure) }
      do throws(SpillError) {
        try copy.file.finishWriting()
      } catch {
        throw .spill(error)
      }
    }
    copying = []
  }

  /// The inputs for the second pass: `original`'s, again.
  func secondPass(of original: RunInputs) -> RunInputs {
    let inputs = inputs
    let store = store
    let names = original.names
    return RunInputs(names: names) { (index) throws(PipelineError) -> any ByteSource in
      _ = store  // The copies' directory lives as long as the inputs do.
      switch inputs[index] {
      case .path(let path, let before):
        let source = try original.source(at: index)
        guard let after = SystemCalls.status(ofPath: path), after.device == before.device,
          after.inode == before.inode, after.size == before.size,
          after.modifiedNanoseconds == before.modifiedNanoseconds
        else {
          throw .input(
            .readFailed(
              path: path,
              reason: "it changed while deduplication read it (each input is read twice); no report is written"))
        }
        return source
      case .copy(let file):
        return SpillFileSource(file, name: names[index])
      }
    }
  }

  deinit { store.remove() }
}

/// Reads a source and appends every byte it gives to a file.
final class CopyingSource: WrappingSource {
  let source: any ByteSource
  let file: SpillFile
  private(set) var failure: SpillError?

  init(_ source: any ByteSource, into file: SpillFile) {
    self.source = source
    self.file = file
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    let count = try source.read(into: buffer)
    if count > 0 && failure == nil {
      do throws(SpillError) {
        try file.append(raw: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      } catch {
        failure = error
        throw .readFailed(path: source.name, reason: "cannot keep the copy deduplication reads again: \(error)")
      }
    }
    return count
  }
}
