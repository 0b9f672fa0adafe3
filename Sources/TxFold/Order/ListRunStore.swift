import Foundation

/// The parallel `list` sort's runs on disk: each a worker's `ListRunBuffer`
/// written out sorted when it passed the worker's share of the memory limit,
/// plus the runs the final merge passes write.
///
/// Workers spill at the same time, each its own buffer to its own file, so
/// creating a file is locked. The directory is made on the first spill, with
/// `SpillDirectory`'s guarantees: private (0700), files opened exclusively
/// and unlinked at once, the directory registered (`register`, with SIGINT
/// and SIGTERM blocked) for removal on interrupt, and removed by `remove()`,
/// `deinit` or any error.
final class ListRunStore: @unchecked Sendable {
  // Unchecked: `directory`, `runs` and `written` change only under `lock`.
  private let lock = NSLock()
  private let temporaryParent: String
  private let register: (String) -> Void
  private var directory: SpillDirectory?
  private var runs: [(order: Int, file: SpillFile)] = []
  private var written = 0

  /// The most runs held open at once while workers spill: each is an open
  /// descriptor, so past this the smallest half is merged into one run
  /// (`SpillDirectory.smallest`).
  let openRunLimit: Int
  /// The bytes each run reader buffers in such a merge.
  private let readBufferSize: Int

  init(
    temporaryParent: String?, readBufferSize: Int = 1 << 16, openRunLimit: Int = SpillDirectory.openRunLimit,
    register: @escaping (String) -> Void
  ) {
    self.temporaryParent = temporaryParent ?? SpillDirectory.defaultParent
    self.readBufferSize = readBufferSize
    self.openRunLimit = max(4, openRunLimit)
    self.register = register
  }

  /// Runs written so far, intermediate merges included.
  var spilledRuns: Int { lock.withLock { written } }

  /// Writes `buffer` sorted as one run and empties it. `order` ranks the run
  /// among the others only to make the list of runs the same on every run
  /// of the program; the merge does not depend on it.
  func spill(_ buffer: ListRunBuffer, order: Int) throws(SpillError) {
    let file = try makeFile()
    try buffer.spill(to: file)
    let batch: [(order: Int, file: SpillFile)] = lock.withLock {
      runs.append((order, file))
      guard runs.count >= openRunLimit else { return [] }
      // Any subset merges into the same order, entries being totally ordered.
      let chosen = SpillDirectory.smallest(openRunLimit / 2, of: runs.map(\.file.size))
      let taken = chosen.map { runs[$0] }
      for index in chosen.reversed() { runs.remove(at: index) }
      return taken
    }
    guard let first = batch.first else { return }
    let merged = try merge(batch.map(\.file), keepFirst: nil, readBufferSize: readBufferSize)
    lock.withLock { runs.append((first.order, merged)) }
  }

  /// Merges `batch` into one new run, of at most `keepFirst` entries.
  func merge(_ batch: [SpillFile], keepFirst: Int?, readBufferSize: Int) throws(SpillError) -> SpillFile {
    let merger = ListEntryMerger(runs: batch.map { ListEntryMerger.Run(file: $0, bufferSize: readBufferSize) })
    let file = try makeFile()
    var kept = 0
    while let entry = try merger.next() {
      if let keepFirst, kept >= keepFirst { break }
      kept += 1
      try file.append(raw: UnsafeRawBufferPointer(start: entry, count: ListEntryLayout.length(entry)))
    }
    try file.finishWriting()
    return file
  }

  /// A new, empty run file.
  func makeFile() throws(SpillError) -> SpillFile {
    lock.lock()
    defer { lock.unlock() }
    written += 1
    if let directory { return try directory.makeFile(header: []) }
    let created = try SpillDirectory(parent: temporaryParent, register: register)
    directory = created
    return try created.makeFile(header: [])
  }

  /// Takes the runs written so far (after every worker has stopped).
  func takeRuns() -> [SpillFile] {
    lock.withLock {
      let taken = runs.sorted { $0.order < $1.order }.map(\.file)
      runs.removeAll()
      return taken
    }
  }

  /// Drops the runs and removes the directory, if one was made.
  func remove() {
    lock.withLock {
      runs.removeAll()
      directory?.remove()
    }
  }

  deinit { directory?.remove() }
}
