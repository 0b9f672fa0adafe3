/// The inputs of one run, handed out one at a time in order: paths opened
/// lazily (after every one was checked to open, and regular files not to be
/// compressed in a format TxFold does not read nor to be a TxFold state or
/// partial file, so such a file fails the run
/// at once; a FIFO or device is checked by `stat(2)` only, as its one open is
/// the reading's: `FileSource.openToCheck`), or sources already open.
struct RunInputs {
  /// The inputs' names, for messages.
  let names: [String]
  /// The paths, when the inputs are files (`-` is standard input).
  let paths: [String]?
  private let open: (Int) throws(PipelineError) -> any ByteSource
  private var index = 0

  /// Files (`-` is standard input); throws when any of them cannot be opened.
  init(paths: [String]) throws(PipelineError) {
    for path in paths where path != "-" {
      do throws(InputError) {
        try InputOpener.checkInput(path: path)
      } catch {
        throw .input(error)
      }
    }
    names = paths
    self.paths = paths
    open = { (index) throws(PipelineError) -> any ByteSource in
      do throws(InputError) {
        return try InputOpener.openTransactions(path: paths[index])
      } catch {
        throw .input(error)
      }
    }
  }

  /// Sources already open.
  init(sources: [any ByteSource]) {
    names = sources.map(\.name)
    paths = nil
    open = { (index) throws(PipelineError) -> any ByteSource in sources[index] }
  }

  /// The same inputs, each read through a `CancellableSource` on `flag`, so
  /// a run stops at its next read once the flag is raised.
  init(_ base: RunInputs, cancelledBy flag: CancellationFlag) {
    names = base.names
    paths = base.paths
    open = { (index) throws(PipelineError) -> any ByteSource in
      CancellableSource(try base.open(index), flag: flag)
    }
  }

  /// Inputs that `open` gives by index.
  init(names: [String], open: @escaping (Int) throws(PipelineError) -> any ByteSource) {
    self.names = names
    paths = nil
    self.open = open
  }

  /// Inputs that `open` gives by index, with their paths (`-` for one that
  /// cannot be opened again by path).
  init(names: [String], paths: [String], open: @escaping (Int) throws(PipelineError) -> any ByteSource) {
    self.names = names
    self.paths = paths
    self.open = open
  }

  /// Opens input `index` (again).
  func source(at index: Int) throws(PipelineError) -> any ByteSource {
    try open(index)
  }

  /// The next input, or `nil` after the last.
  mutating func next() throws(PipelineError) -> (any ByteSource)? {
    guard index < names.count else { return nil }
    defer { index += 1 }
    return try open(index)
  }
}
