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
        throw .readFailed(path: source.name, reason: "cannot keep the copy deduplication reads again: \(error.clause)")
      }
    }
    return count
  }
}
