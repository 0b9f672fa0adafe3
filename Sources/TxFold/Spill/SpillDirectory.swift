/// A private temporary directory (`mkdtemp`) that holds a `SpillStore`'s
/// runs, and leaves nothing behind.
///
/// Each run file is unlinked the moment it is opened: its owner keeps the
/// descriptor, so the file lives on without a name and the system frees it
/// when the descriptor is closed — at the end of the sort, on an error, or
/// when the process dies, even by SIGKILL. Making the directory and
/// registering it, and making a run and unlinking it, each run under
/// `TemporaryNames.creating`, so interrupt cleanup can only ever find the
/// directory registered and empty: it then needs to remove only the
/// directory itself. `remove()` (and `deinit`) does that on a normal end.
package final class SpillDirectory {
  /// The directory's path.
  package let path: String
  /// Runs created so far, which names the next one.
  private var created = 0
  private var removed = false

  /// The most runs a store holds open at once (each an open descriptor):
  /// 128, or a quarter of the process's descriptor limit when that is
  /// lower, leaving room for inputs, outputs and the other workers' runs.
  /// Past it, a store merges some of its runs into one as it goes.
  package static var openRunLimit: Int {
    let limit = SystemCalls.descriptorLimit().map { Int(clamping: $0) } ?? Int.max
    return max(4, min(128, limit / 4))
  }

  /// The parent used when none is given: `$TMPDIR`, else `/tmp`.
  package static var defaultParent: String {
    if let value = SystemCalls.environmentValue("TMPDIR"), !value.isEmpty { return value }
    return "/tmp"
  }

  /// Creates `txfold-sort-XXXXXX` in `parent`, calling `register` with its
  /// path within the same `TemporaryNames.creating` (so interrupt cleanup
  /// learns of it before it can look).
  package init(parent: String, register: (String) -> Void = { _ in }) throws(SpillError) {
    let base = parent.hasSuffix("/") ? parent : parent + "/"
    let template = "\(base)txfold-sort-XXXXXX"
    var made: String?
    var failure: String?
    TemporaryNames.creating {
      guard let directory = SystemCalls.makeTemporaryDirectory(template: template) else {
        failure = SystemCalls.errorText(SystemCalls.lastError)
        return
      }
      register(directory)
      made = directory
    }
    guard let made else { throw .cannotCreate(path: parent, reason: failure ?? "unknown error") }
    path = made
  }

  /// Creates a run file, already unlinked, open for reading and writing.
  func makeFile() throws(SpillError) -> SpillFile {
    created += 1
    let name = "\(path)/run-\(created)"
    var descriptor: Int32 = -1
    var failure: String?
    TemporaryNames.creating {
      descriptor = SystemCalls.openFile(name, [.readWrite, .create, .exclusive, .closeOnExec], mode: 0o600)
      if descriptor < 0 {
        failure = SystemCalls.errorText(SystemCalls.lastError)
        return
      }
      if SystemCalls.removeFile(name) != 0 {
        failure = SystemCalls.errorText(SystemCalls.lastError)
        SystemCalls.closeDescriptor(descriptor)
        SystemCalls.removeFile(name)
        descriptor = -1
      }
    }
    guard descriptor >= 0 else { throw .cannotCreate(path: name, reason: failure ?? "unknown error") }
    return SpillFile(fileDescriptor: descriptor, name: name)
  }

  /// Removes the (empty) directory; later calls do nothing.
  package func remove() {
    guard !removed else { return }
    removed = true
    SystemCalls.removeDirectory(path)
  }

  deinit { remove() }
}
