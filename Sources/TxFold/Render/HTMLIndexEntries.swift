/// The index's entries (`HTMLAccountPages.Entry`), one per account, as the
/// accounts come, handed back in the order of each index page: held in
/// memory within a budget, spilled past it, so that the index of millions of
/// accounts takes no more memory than that of a few.
///
/// Entries are held as bytes (`HTMLIndexEntryLayout`), one after another.
/// When the next would take the bytes held (with 16 bytes an entry for its
/// start and the sort's copy of it) past `budget`, those held are written as
/// one run — a file of the job's `SpillStore` holding a section per index
/// page, the entries sorted in that page's order, then the sections' ends —
/// and memory is emptied. The by-id section needs no sort: the accounts come
/// in id order (every per-account path hands them out so), and the page lists
/// them as they came, so an entry's place there is its arrival.
/// `forEach(order:)` hands the entries back in a page's order: straight from
/// memory when nothing spilled; else the last entries held go to a run too,
/// and that order's sections of every run are merged (`KWayMerge`). The store
/// keeps at most half `SpillDirectory.openRunLimit` runs (the command's own
/// merge may hold its runs meanwhile), merging the smallest half into one as
/// it goes, each order's sections apart.
///
/// - Complexity: O(a log a) for a accounts; memory O(`budget`); disk O(a)
///   when they pass it.
final class HTMLIndexEntries {
  /// The bytes of entries held before they go to disk (at least one entry is always held).
  let budget: Int
  /// How many index pages, and so sections of a run: the first of `HTMLAccountPages.indexFiles`.
  let orders: Int
  private let store: SpillStore
  /// The entries held, one after another, `held[0..<used]`.
  private var held: UnsafeMutableRawPointer
  private var capacity: Int
  private var used = 0
  /// Where each entry held starts.
  private var starts: [Int] = []
  /// The runs on disk once `forEach` took them from the store (the last entries held written too).
  private var sealed: [SpillFile]?
  /// The entries noted.
  private(set) var count = 0
  /// The first and last day of every entry's period (`nil` before a period is noted).
  private(set) var period: (first: CalendarDay, last: CalendarDay)?

  /// Entries held within `budget` bytes, spilled past it to a private directory in
  /// `temporaryDirectory` (default `$TMPDIR`, else `/tmp`), which `register` is told of as it is
  /// made (for removal on an interrupt); `orders` pages (at most `HTMLAccountPages.indexFiles`).
  init(budget: Int, orders: Int, temporaryDirectory: String?, register: @escaping (String) -> Void) {
    self.budget = max(1, budget)
    self.orders = min(max(1, orders), HTMLAccountPages.indexFiles.count)
    store = SpillStore(
      temporaryParent: temporaryDirectory, openRunLimit: SpillDirectory.openRunLimit / 2, register: register)
    capacity = min(self.budget, 64 << 10)
    held = .allocate(byteCount: capacity, alignment: 8)
  }

  deinit {
    held.deallocate()
    store.remove()
  }

  /// Runs written so far, the merge passes' included (0: the index stayed in memory).
  var spilledRuns: Int { store.filesMade }

  /// Notes `entry`, the next account's; writes the entries held as a run first when it would not fit.
  func add(_ entry: HTMLAccountPages.Entry) throws(SpillError) {
    precondition(sealed == nil, "an index entry noted after the index was read")
    let size = HTMLIndexEntryLayout.size(of: entry)
    if !starts.isEmpty && used + size + 16 * (starts.count + 1) > budget { try spill() }
    if used + size > capacity {
      // Doubling, but no further than the budget (or this entry) needs.
      let grown = max(used + size, min(capacity * 2, budget))
      let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
      bigger.copyMemory(from: held, byteCount: used)
      held.deallocate()
      held = bigger
      capacity = grown
    }
    HTMLIndexEntryLayout.write(entry, arrival: UInt64(count), size: size, to: held + used)
    starts.append(used)
    used += size
    count += 1
    if let days = entry.period {
      period = period.map { (min($0.first, days.first), max($0.last, days.last)) } ?? days
    }
  }

  /// Calls `body` with every entry, in the order of index page number `order`
  /// (`HTMLAccountPages.indexFiles`). No entry may be noted after.
  func forEach<E: Error>(
    order: Int, _ body: (HTMLAccountPages.Entry) throws(E) -> Void
  ) throws(HTMLAccountPages.IndexFailure<E>) {
    if sealed == nil && store.filesMade == 0 {
      for start in sortedStarts(order) {
        guard let entry = HTMLIndexEntryLayout.entry(held + start) else {
          preconditionFailure("an index entry held in memory does not read back")
        }
        do throws(E) { try body(entry) } catch { throw .output(error) }
      }
      return
    }
    let merge: KWayMerge<HTMLIndexRunCursor>
    do throws(SpillError) {
      let runs = try seal()
      var cursors: [HTMLIndexRunCursor] = []
      for run in runs {
        cursors.append(
          HTMLIndexRunCursor(
            file: run, section: try Self.sections(of: run)[order], order: order,
            bufferSize: bufferSize(runs: runs.count)))
      }
      merge = KWayMerge(cursors: cursors)
    } catch {
      throw .spill(error)
    }
    while true {
      let placed: HTMLIndexRunCursor.Placed?
      do throws(SpillError) { placed = try merge.next() } catch { throw .spill(error) }
      guard let placed else { return }
      guard let entry = HTMLIndexEntryLayout.entry(placed.entry) else {
        let name = merge.first.map { merge.cursors[$0].fileName } ?? "index run"
        throw .spill(.corrupt(path: name, detail: "a damaged index entry"))
      }
      do throws(E) { try body(entry) } catch { throw .output(error) }
    }
  }

  /// The runs to read every order from: those of the store, and the entries still held as one
  /// more; memory is freed.
  private func seal() throws(SpillError) -> [SpillFile] {
    if let sealed { return sealed }
    if !starts.isEmpty { try spill() }
    let runs = store.takeRuns()
    sealed = runs
    held.deallocate()
    capacity = 0
    held = .allocate(byteCount: 0, alignment: 8)
    starts = []
    return runs
  }

  /// The starts of the entries held, in index page number `order`'s order.
  private func sortedStarts(_ order: Int) -> [Int] {
    // The entries were noted in arrival order, and stay in it for the page by id.
    guard order != 0 else { return starts }
    let base = UnsafeRawPointer(held)
    return starts.sorted { HTMLIndexEntryLayout.precedes(base + $0, base + $1, order: order) }
  }

  /// Writes the entries held as one run, a section per order, and empties memory (keeping its room).
  private func spill() throws(SpillError) {
    let file = try store.makeFile()
    var ends: [Int64] = []
    for order in 0..<orders {
      for start in sortedStarts(order) {
        try file.append(
          raw: UnsafeRawBufferPointer(start: held + start, count: HTMLIndexEntryLayout.length(held + start)))
      }
      try file.flush()
      ends.append(file.size)
    }
    try Self.finish(file, ends: ends)
    used = 0
    starts.removeAll(keepingCapacity: true)
    try store.add(file) { (batch) throws(SpillError) in try merge(batch) }
  }

  /// Merges `batch` into one new run: each order's sections into that order's section.
  private func merge(_ batch: [SpillFile]) throws(SpillError) -> SpillFile {
    let file = try store.makeFile()
    var sections: [[Range<Int64>]] = []
    for run in batch { sections.append(try Self.sections(of: run)) }
    var ends: [Int64] = []
    for order in 0..<orders {
      let merge = KWayMerge(
        cursors: batch.indices.map {
          HTMLIndexRunCursor(
            file: batch[$0], section: sections[$0][order], order: order, bufferSize: bufferSize(runs: batch.count))
        })
      while let placed = try merge.next() {
        try file.append(
          raw: UnsafeRawBufferPointer(start: placed.entry, count: HTMLIndexEntryLayout.length(placed.entry)))
      }
      try file.flush()
      ends.append(file.size)
    }
    try Self.finish(file, ends: ends)
    return file
  }

  /// Each run reader's buffer when `runs` are read at once: a quarter of the budget between
  /// them (the entries held keep their room while a pass merges), from 64 KiB to 1 MiB each.
  private func bufferSize(runs: Int) -> Int { min(1 << 20, max(64 << 10, budget / 4 / max(1, runs))) }

  /// Ends a run: the end of each section, as many as `HTMLAccountPages.indexFiles` (the
  /// orders not kept empty), after them.
  private static func finish(_ file: SpillFile, ends: [Int64]) throws(SpillError) {
    var trailer = ends
    while trailer.count < trailerEnds { trailer.append(trailer.last ?? 0) }
    for end in trailer {
      try withUnsafeBytes(of: end) { (raw) throws(SpillError) in try file.append(raw: raw) }
    }
    try file.finishWriting()
  }

  private static let trailerEnds = HTMLAccountPages.indexFiles.count

  /// The byte ranges of `run`'s sections, by order, from its trailer.
  private static func sections(of run: SpillFile) throws(SpillError) -> [Range<Int64>] {
    let trailerSize = Int64(trailerEnds * 8)
    guard run.size >= trailerSize else { throw .corrupt(path: run.name, detail: "an index run without its trailer") }
    let trailer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(trailerSize), alignment: 8)
    defer { trailer.deallocate() }
    try run.read(exactly: trailer, at: run.size - trailerSize)
    let ends = (0..<trailerEnds).map { trailer.load(fromByteOffset: $0 * 8, as: Int64.self) }
    var sections: [Range<Int64>] = []
    var start: Int64 = 0
    for end in ends {
      guard start <= end, end <= run.size - trailerSize else {
        throw .corrupt(path: run.name, detail: "an index run's sections out of place")
      }
      sections.append(start..<end)
      start = end
    }
    return sections
  }
}
