#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private temporary directory (`mkdtemp`) that holds `ExternalSorter`'s
/// sorted runs, and leaves nothing behind.
///
/// Each run file is unlinked the moment it is opened: the sorter keeps its
/// descriptor, so the file lives on without a name and the system frees it
/// when the descriptor is closed — at the end of the sort, on an error, or
/// when the process dies, even by SIGKILL. SIGINT and SIGTERM are blocked on
/// the calling thread for the few instructions during which a run has a
/// name, so an interrupt can only ever find the directory empty: a signal
/// handler then needs to remove only the directory itself (`rmdir`, which
/// is async-signal-safe). `remove()` (and `deinit`) does that on a normal end.
package final class SpillDirectory {
  /// The directory's path.
  package let path: String
  /// Runs created so far, which names the next one.
  private var created = 0
  private var removed = false

  /// The parent used when none is given: `$TMPDIR`, else `/tmp`.
  package static var defaultParent: String {
    if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
    return "/tmp"
  }

  /// Creates `txfold-sort-XXXXXX` in `parent`, calling `register` with its
  /// path while SIGINT and SIGTERM are still blocked (so a handler learns of
  /// it before any interrupt can arrive).
  package init(parent: String, register: (String) -> Void = { _ in }) throws(SpillError) {
    let base = parent.hasSuffix("/") ? parent : parent + "/"
    var template = Array("\(base)txfold-sort-XXXXXX".utf8CString)
    var made: String?
    var failure: String?
    Self.withTerminationSignalsBlocked {
      let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress.unsafelyUnwrapped) }
      if result == nil {
        failure = String(cString: strerror(errno))
        return
      }
      let directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress.unsafelyUnwrapped) }
      register(directory)
      made = directory
    }
    guard let made else { throw .cannotCreate(path: parent, reason: failure ?? "unknown error") }
    path = made
  }

  /// Creates a run file, already unlinked, open for reading and writing.
  func makeFile(header: [UInt8] = SpillRecordFormat.header) throws(SpillError) -> SpillFile {
    created += 1
    let name = "\(path)/run-\(created)"
    var descriptor: Int32 = -1
    var failure: String?
    Self.withTerminationSignalsBlocked {
      descriptor = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor < 0 {
        failure = String(cString: strerror(errno))
        return
      }
      if unlink(name) != 0 {
        failure = String(cString: strerror(errno))
        close(descriptor)
        unlink(name)
        descriptor = -1
      }
    }
    guard descriptor >= 0 else { throw .cannotCreate(path: name, reason: failure ?? "unknown error") }
    return SpillFile(fileDescriptor: descriptor, name: name, header: header)
  }

  /// Removes the (empty) directory; later calls do nothing.
  package func remove() {
    guard !removed else { return }
    removed = true
    rmdir(path)
  }

  deinit { remove() }

  /// Runs `body` with SIGINT and SIGTERM blocked on this thread; one that
  /// arrives meanwhile is delivered when the previous mask is restored.
  static func withTerminationSignalsBlocked(_ body: () -> Void) {
    var block = sigset_t()
    var previous = sigset_t()
    sigemptyset(&block)
    sigaddset(&block, SIGINT)
    sigaddset(&block, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &block, &previous)
    body()
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }
}
