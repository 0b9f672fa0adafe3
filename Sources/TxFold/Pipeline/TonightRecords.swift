import Foundation

/// Tonight's accepted records in the state's form, each with its place, as
/// the workers hand them over, each worker's sorted by (account, place) on
/// its own thread: held in memory up to a budget, then merged into one run
/// in a temporary file, so that memory stays bounded however large tonight
/// is (a first night folds a whole history). `cursor(skipping:)` gives the
/// winners in (account, place) order, merging the runs on disk and those
/// held (`KWayMerge`).
///
/// An entry: u64 place, u32 payload length, payload (`StateRecord`).
final class TonightRecords {
  /// Bytes held before the runs held go to disk as one run.
  let budget: Int
  private let store: SpillStore
  /// Sorted runs in memory.
  private var held: [Run] = []
  private var heldBytes = 0
  /// The one file the runs are written to, one after another.
  private var file: SpillFile?
  /// The sorted runs: byte ranges of `file`.
  private var runs: [(offset: Int64, count: Int64)] = []
  /// How many runs went to disk.
  var runCount: Int { runs.count }
  /// At least the bytes of tonight's entries of any one account: each run's
  /// largest account's, added up.
  private(set) var largestAccountBound = 0

  init(budget: Int, temporaryParent: String?, register: @escaping (String) -> Void) {
    self.budget = max(budget, 1 << 16)
    store = SpillStore(temporaryParent: temporaryParent, register: register)
  }

  deinit { store.remove() }

  /// A worker's entries sorted by (account, place): a run, as `take(sorted:)`
  /// takes it. The worker sorts its own entries before it hands them over,
  /// so that no worker sorts while holding the night's lock.
  static func sorted(_ entries: [UInt8]) -> Run {
    // The same entries, reordered: as many bytes.
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: entries.count, alignment: 8)
    var end = 0
    var largest = 0
    var accountStart = 0
    var account = UnsafeRawBufferPointer(start: nil, count: 0)
    forEachSorted(entries) { place, payload, next in
      if end == 0 || !next.elementsEqual(account) {
        account = next
        accountStart = end
      }
      largest = max(largest, end + 12 + payload.count - accountStart)
      memory.storeBytes(of: place.littleEndian, toByteOffset: end, as: UInt64.self)
      memory.storeBytes(
        of: UInt32(truncatingIfNeeded: payload.count).littleEndian, toByteOffset: end + 8, as: UInt32.self)
      UnsafeMutableRawBufferPointer(rebasing: memory[(end + 12)...]).copyMemory(from: payload)
      end += 12 + payload.count
    }
    let run = Run(memory: UnsafeMutableRawBufferPointer(rebasing: memory[0..<end]), owning: memory)
    run.largestAccountBytes = largest
    return run
  }

  /// Takes a worker's entries (sorted here).
  func take(_ entries: [UInt8]) throws(SpillError) { try take(sorted: Self.sorted(entries)) }

  /// Takes a worker's entries, already sorted (`sorted(_:)`); past the
  /// budget, the runs held are merged into one run on disk.
  func take(sorted run: Run) throws(SpillError) {
    guard run.byteCount > 0 else { return }
    largestAccountBound += run.largestAccountBytes
    held.append(run)
    heldBytes += run.byteCount
    guard heldBytes > budget else { return }
    if self.file == nil { self.file = try store.makeFile() }
    guard let file else { return }
    let start = file.size
    let merge = KWayMerge(cursors: held)
    held = []
    heldBytes = 0
    while let entry = try merge.next() {
      // The entry as it lies in its run: place, length, payload.
      var prefix = (entry.place.littleEndian, UInt32(truncatingIfNeeded: entry.payload.count).littleEndian)
      try withUnsafeBytes(of: &prefix) { (raw) throws(SpillError) in
        try file.append(raw: UnsafeRawBufferPointer(rebasing: raw[0..<12]))
      }
      try file.append(raw: entry.payload)
    }
    try file.flush()
    runs.append((start, file.size - start))
  }

  /// Calls `body` with every entry of `entries` (its place, payload and account), sorted by (account, place).
  private static func forEachSorted(
    _ entries: [UInt8], _ body: (UInt64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
  ) {
    struct Entry {
      var place: UInt64
      var account: UnsafeRawBufferPointer
      var payload: UnsafeRawBufferPointer
      /// The account's first 16 bytes, big-endian and zero-padded: most pairs of entries are
      /// ordered by these two integers, without reaching for the bytes.
      var prefix: (UInt64, UInt64)
    }
    /// The first 16 bytes of `account` as two big-endian integers, zero-padded.
    func prefix(_ account: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
      var words: (UInt64, UInt64) = (0, 0)
      withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: account.prefix(16))) }
      return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
    }
    entries.withUnsafeBytes { raw in
      var sorted: [Entry] = []
      var offset = 0
      while offset + 12 <= raw.count {
        let length = Int(StateFile.u32(raw, at: offset + 8))
        let payload = UnsafeRawBufferPointer(rebasing: raw[(offset + 12)..<(offset + 12 + length)])
        let account = StateRecord.account(of: payload)
        sorted.append(
          Entry(place: StateFile.u64(raw, at: offset), account: account, payload: payload, prefix: prefix(account)))
        offset += 12 + length
      }
      sorted.sort { a, b in
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        // Equal first 16 bytes: accounts that short differ only in length (zero-padded alike).
        if a.account.count <= 16 || b.account.count <= 16, a.account.count != b.account.count {
          return a.account.count < b.account.count
        }
        let order = a.account.count <= 16 ? 0 : ByteOrder.compare(a.account, b.account)
        return order != 0 ? order < 0 : a.place < b.place
      }
      for entry in sorted { body(entry.place, entry.payload, entry.account) }
    }
  }

  /// The winners (entries not in `losers`) in (account, place) order.
  func cursor(skipping losers: [UInt64]) throws(SpillError) -> Cursor {
    var sources: [Run] = []
    if let file {
      for run in runs {
        let reader = SpillReader(file: file, range: run.offset..<(run.offset + run.count), bufferSize: 1 << 20)
        sources.append(Run(reader: reader))
      }
    }
    // The runs held, each read from its start by a run of its own: a night asks for its winners more than once.
    sources.append(contentsOf: held.map { Run(rereading: $0) })
    return try Cursor(merge: KWayMerge(cursors: sources), losers: losers)
  }

  /// One entry of a run, where the run holds it: valid until the run is read on.
  struct Entry {
    let place: UInt64
    /// The account, inside the payload.
    let account: UnsafeRawBufferPointer
    let payload: UnsafeRawBufferPointer
  }

  /// One sorted run: a range of the file, or a run held in memory.
  final class Run: MergeCursor {
    typealias Entry = TonightRecords.Entry
    typealias Failure = SpillError
    private let reader: SpillReader?
    private let memory: UnsafeMutableRawBufferPointer
    /// The memory this run frees, or the run whose memory it reads.
    private let owned: UnsafeMutableRawBufferPointer?
    private let owner: Run?
    private var offset = 0

    init(reader: SpillReader) {
      self.reader = reader
      memory = UnsafeMutableRawBufferPointer(start: nil, count: 0)
      owned = nil
      owner = nil
    }

    /// A run of the entries in `memory`, which lies in `owning` (freed with the run).
    init(memory: UnsafeMutableRawBufferPointer, owning: UnsafeMutableRawBufferPointer) {
      reader = nil
      self.memory = memory
      owned = owning
      owner = nil
    }

    /// A run of the same entries as `run` (one held in memory), from the first.
    init(rereading run: Run) {
      reader = nil
      memory = run.memory
      owned = nil
      owner = run
    }

    deinit { owned?.deallocate() }

    /// The bytes of a run in memory (0 for one on disk).
    var byteCount: Int { memory.count }
    /// The bytes of the run's largest account's entries (`sorted(_:)`'s).
    fileprivate(set) var largestAccountBytes = 0

    func next() throws(SpillError) -> Entry? {
      let entry: UnsafeRawBufferPointer
      if let reader {
        guard try reader.request(12) else {
          if reader.available == 0 { return nil }
          throw .readFailed(path: reader.file.name, reason: "a state run ended early")
        }
        let length = Int(StateFile.u32(UnsafeRawBufferPointer(start: reader.pointer, count: 12), at: 8))
        guard try reader.request(12 + length) else {
          throw .readFailed(path: reader.file.name, reason: "a state run ended early")
        }
        entry = UnsafeRawBufferPointer(start: reader.pointer, count: 12 + length)
        reader.consume(12 + length)
      } else {
        guard offset + 12 <= memory.count else { return nil }
        let length = Int(StateFile.u32(UnsafeRawBufferPointer(memory), at: offset + 8))
        entry = UnsafeRawBufferPointer(rebasing: memory[offset..<(offset + 12 + length)])
        offset += 12 + length
      }
      let payload = UnsafeRawBufferPointer(rebasing: entry[12...])
      return Entry(place: StateFile.u64(entry, at: 0), account: StateRecord.account(of: payload), payload: payload)
    }

    /// Account byte-wise, then place: a total order, places being unique.
    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
      let order = ByteOrder.compare(lhs.account, rhs.account)
      return order != 0 ? order < 0 : lhs.place < rhs.place
    }
  }

  /// The merge of the runs, losers left out.
  final class Cursor {
    private let merge: KWayMerge<Run>
    private let losers: [UInt64]
    /// The entry that is next, or `nil` at the end; valid until `advance()`.
    /// Unchecked: one thread (the state's merge) reads it for every record,
    /// and the runtime's dynamic exclusivity check cost more than the read.
    @exclusivity(unchecked) private(set) var current: Entry?

    init(merge: KWayMerge<Run>, losers: [UInt64]) throws(SpillError) {
      self.merge = merge
      self.losers = losers
      try advance()
    }

    /// Moves past the current entry to the next that did not lose.
    func advance() throws(SpillError) {
      var next = try merge.next()
      while let entry = next, NightlyState.sortedContains(losers, entry.place) { next = try merge.next() }
      current = next
    }
  }
}
