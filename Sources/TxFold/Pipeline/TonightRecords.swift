import Foundation

/// Tonight's accepted records in the state's form, each with its place, as
/// the workers hand them over: held in memory up to a budget, then sorted
/// by (account, place) and written as a run to a temporary file, so that
/// memory stays bounded however large tonight is (a first night folds a
/// whole history). `cursor(skipping:)` gives the winners in (account,
/// place) order, merging the runs and what is held.
///
/// An entry: u64 place, u32 payload length, payload (`StateRecord`).
final class TonightRecords {
  /// Bytes held before the held entries go to disk as a sorted run.
  let budget: Int
  private let temporaryParent: String
  private let register: (String) -> Void
  private var held: [[UInt8]] = []
  private var heldBytes = 0
  private var spill: (directory: SpillDirectory, file: SpillFile)?
  /// The sorted runs: byte ranges of the spill file.
  private var runs: [(offset: Int64, count: Int64)] = []
  /// How many runs went to disk.
  var runCount: Int { runs.count }

  init(budget: Int, temporaryParent: String?, register: @escaping (String) -> Void) {
    self.budget = max(budget, 1 << 16)
    self.temporaryParent = temporaryParent ?? SpillDirectory.defaultParent
    self.register = register
  }

  deinit { spill?.directory.remove() }

  /// Takes a worker's entries; past the budget, everything held goes to disk as one sorted run.
  func take(_ entries: [UInt8]) throws(SpillError) {
    guard !entries.isEmpty else { return }
    held.append(entries)
    heldBytes += entries.count
    guard heldBytes > budget else { return }
    if spill == nil {
      let directory = try SpillDirectory(parent: temporaryParent, register: register)
      spill = (directory, try directory.makeFile(header: []))
    }
    guard let file = spill?.file else { return }
    let start = file.size
    var failure: SpillError?
    Self.forEachSorted(held, skipping: []) { place, payload in
      guard failure == nil else { return }
      var prefix: [UInt8] = []
      StateFile.appendU64(place, to: &prefix)
      StateFile.appendU32(UInt32(truncatingIfNeeded: payload.count), to: &prefix)
      prefix.withUnsafeBytes { raw in
        do throws(SpillError) {
          try file.append(raw: raw)
          try file.append(raw: payload)
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
    try file.flush()
    runs.append((start, file.size - start))
    held = []
    heldBytes = 0
  }

  /// Calls `body` with every entry of `chunks` not in `losers`, sorted by (account, place).
  private static func forEachSorted(
    _ chunks: [[UInt8]], skipping losers: [UInt64], _ body: (UInt64, UnsafeRawBufferPointer) -> Void
  ) {
    struct Entry {
      var chunk: Int
      var place: UInt64
      var account: Range<Int>
      var payload: Range<Int>
    }
    var entries: [Entry] = []
    for (index, chunk) in chunks.enumerated() {
      chunk.withUnsafeBytes { raw in
        var offset = 0
        while offset + 12 <= raw.count {
          let place = StateFile.u64(raw, at: offset)
          let length = Int(StateFile.u32(raw, at: offset + 8))
          let payload = offset + 12..<offset + 12 + length
          offset = payload.upperBound
          guard !NightlyState.sortedContains(losers, place) else { continue }
          let account = StateRecord.account(of: UnsafeRawBufferPointer(rebasing: raw[payload]))
          let start =
            account.baseAddress.flatMap { found in raw.baseAddress.map { found - $0 } } ?? payload.lowerBound
          entries.append(Entry(chunk: index, place: place, account: start..<start + account.count, payload: payload))
        }
      }
    }
    func bytes<T>(_ entry: Entry, _ range: Range<Int>, _ use: (UnsafeRawBufferPointer) -> T) -> T {
      chunks[entry.chunk].withUnsafeBytes { use(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
    entries.sort { a, b in
      let order = bytes(a, a.account) { left in bytes(b, b.account) { right in compareBytes(left, right) } }
      return order != 0 ? order < 0 : a.place < b.place
    }
    for entry in entries { bytes(entry, entry.payload) { body(entry.place, $0) } }
  }

  /// Byte-wise order of two accounts: negative, zero or positive.
  static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32 {
    let common = min(a.count, b.count)
    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
      let order = SystemCalls.compareBytes(left, right, count: common)
      if order != 0 { return order }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// The winners (entries not in `losers`) in (account, place) order.
  func cursor(skipping losers: [UInt64]) throws(SpillError) -> Cursor {
    var sources: [Source] = []
    if let file = spill?.file {
      for run in runs { sources.append(Source(file: file, offset: run.offset, end: run.offset + run.count)) }
    }
    // What is held, sorted, as one more source in memory.
    var sorted: [UInt8] = []
    Self.forEachSorted(held, skipping: []) { place, payload in
      StateFile.appendU64(place, to: &sorted)
      StateFile.appendU32(UInt32(truncatingIfNeeded: payload.count), to: &sorted)
      sorted.append(contentsOf: payload)
    }
    sources.append(Source(bytes: sorted))
    return try Cursor(sources: sources, losers: losers)
  }

  /// One sorted run, read a block at a time (or held in memory).
  final class Source {
    private let file: SpillFile?
    private var offset: Int64
    private let end: Int64
    private var buffer: [UInt8]
    private var start = 0
    /// The current entry: its place, and its payload's range in `buffer`.
    private(set) var place: UInt64 = 0
    private(set) var payload: Range<Int> = 0..<0
    /// The current entry's account, copied (the buffer moves on refills).
    private(set) var account: [UInt8] = []
    private(set) var ended = false

    init(file: SpillFile, offset: Int64, end: Int64) {
      self.file = file
      self.offset = offset
      self.end = end
      buffer = []
    }

    init(bytes: [UInt8]) {
      file = nil
      offset = 0
      end = 0
      buffer = bytes
    }

    func withPayload<T>(_ use: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
      try buffer.withUnsafeBytes { try use(UnsafeRawBufferPointer(rebasing: $0[payload])) }
    }

    /// Moves to the next entry (the first, on the first call).
    func advance() throws(SpillError) {
      start = payload.upperBound
      guard try fill(12) else {
        ended = true
        return
      }
      let length = buffer.withUnsafeBytes { Int(StateFile.u32($0, at: start + 8)) }
      guard try fill(12 + length) else { throw .readFailed(path: file?.name ?? "", reason: "a state run ended early") }
      place = buffer.withUnsafeBytes { StateFile.u64($0, at: start) }
      payload = start + 12..<start + 12 + length
      account = withPayload { Array(StateRecord.account(of: $0)) }
    }

    /// Makes `count` bytes from `start` available; `false` at the run's end.
    private func fill(_ count: Int) throws(SpillError) -> Bool {
      if buffer.count - start >= count { return true }
      guard let file, offset < end else { return false }
      buffer.removeSubrange(0..<start)
      payload = 0..<0
      start = 0
      while buffer.count < count, offset < end {
        let want = Int(min(Int64(max(count - buffer.count, 1 << 20)), end - offset))
        let before = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: want))
        var failure: SpillError?
        let read = buffer.withUnsafeMutableBytes { raw -> Int in
          do throws(SpillError) {
            return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[before..<before + want]), at: offset)
          } catch {
            failure = error
            return 0
          }
        }
        if let failure { throw failure }
        guard read > 0 else { throw .readFailed(path: file.name, reason: "a state run ended early") }
        buffer.removeLast(want - read)
        offset += Int64(read)
      }
      return buffer.count >= count
    }
  }

  /// The k-way merge of the sources, losers left out.
  final class Cursor {
    private let sources: [Source]
    private let losers: [UInt64]
    /// The source whose entry is next, or `nil` at the end.
    private(set) var current: Source?

    init(sources: [Source], losers: [UInt64]) throws(SpillError) {
      self.sources = sources
      self.losers = losers
      for source in sources { try source.advance() }
      try settle()
    }

    /// Moves past the current entry.
    func advance() throws(SpillError) {
      try current?.advance()
      try settle()
    }

    /// Picks the smallest (account, place) entry that did not lose.
    private func settle() throws(SpillError) {
      while true {
        var best: Source?
        for source in sources where !source.ended {
          guard let chosen = best else {
            best = source
            continue
          }
          let order = source.account.withUnsafeBytes { left in
            chosen.account.withUnsafeBytes { right in TonightRecords.compareBytes(left, right) }
          }
          if order < 0 || order == 0 && source.place < chosen.place { best = source }
        }
        current = best
        guard let best, NightlyState.sortedContains(losers, best.place) else { return }
        try best.advance()
      }
    }
  }
}
