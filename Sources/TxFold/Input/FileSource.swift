/// A byte source over a file descriptor: a regular file, a pipe, or standard input.
///
/// Reads go straight to `read(2)` into the caller's buffer, so the source holds
/// no buffer of its own; interrupted reads (`EINTR`) are retried. Once the
/// descriptor reports its end, the source stays at its end (a terminal can
/// deliver more bytes after Ctrl-D, but the input is over for us).
package final class FileSource: ByteSource {
  /// The input's name for messages (`-` for standard input).
  package let name: String
  /// The file's size when it is a regular file, else `nil` (pipes, terminals).
  package let storedSize: Int64?
  /// Bytes read from the descriptor so far.
  package private(set) var storedBytesRead: Int64 = 0

  private let fileDescriptor: Int32
  private let closeOnDeinit: Bool
  private var atEnd = false

  /// Wraps an already open descriptor, for library callers that manage their own files.
  ///
  /// - Parameters:
  ///   - fileDescriptor: An open descriptor positioned where reading should start.
  ///   - name: The input's name for messages.
  ///   - closeOnDeinit: Whether the source owns the descriptor and closes it when released.
  package init(fileDescriptor: Int32, name: String, closeOnDeinit: Bool) {
    self.fileDescriptor = fileDescriptor
    self.name = name
    self.closeOnDeinit = closeOnDeinit
    // Only a regular file's size says how many bytes will come; a pipe's or a
    // device's st_size means nothing for progress.
    if let status = SystemCalls.status(ofDescriptor: fileDescriptor), status.isRegularFile {
      storedSize = status.size
    } else {
      storedSize = nil
    }
  }

  deinit {
    if closeOnDeinit {
      // Nothing useful can be done with a close error on a descriptor opened
      // for reading: every byte we wanted has already been read.
      SystemCalls.closeDescriptor(fileDescriptor)
    }
  }

  /// Opens `path` for reading; `-` means standard input (which is not closed on release).
  ///
  /// - Throws: `InputError.cannotOpen` when the file is missing, unreadable or a
  ///   directory, with the system's reason.
  package static func open(path: String) throws(InputError) -> FileSource {
    if path == "-" {
      // `txfold < somedir` opens the directory successfully; refuse it here as
      // for a named directory rather than failing later with EISDIR.
      if isDirectory(SystemCalls.standardInput) { throw .cannotOpen(path: path, reason: "is a directory") }
      return FileSource(fileDescriptor: SystemCalls.standardInput, name: "-", closeOnDeinit: false)
    }
    var descriptor: Int32
    repeat {
      // Close-on-exec so a spawned child never inherits the input.
      descriptor = SystemCalls.openFile(path, [.readOnly, .closeOnExec])
    } while descriptor < 0 && SystemCalls.lastError == SystemCalls.ErrorCode.interrupted
    guard descriptor >= 0 else {
      throw .cannotOpen(path: path, reason: SystemCalls.errorText(SystemCalls.lastError))
    }
    // open(2) succeeds on a directory with O_RDONLY; only read(2) fails, later
    // and with a worse message, so check before handing the source out.
    if isDirectory(descriptor) {
      SystemCalls.closeDescriptor(descriptor)
      throw .cannotOpen(path: path, reason: "is a directory")
    }
    return FileSource(fileDescriptor: descriptor, name: path, closeOnDeinit: true)
  }

  /// Checks, before a run reads anything, that `path` can be opened, and
  /// opens it only when opening takes nothing from it: a regular file is
  /// opened and handed back (to peek at and drop); a FIFO, a device or a
  /// socket is only `stat(2)`'d and `nil` comes back, since its one open is
  /// the reading's own — a FIFO opened here and closed unread would take what
  /// its writer sent with it, and the open that reads would wait forever for
  /// a writer that is gone. `-` (standard input) is not checked.
  ///
  /// - Throws: `InputError.cannotOpen` when the file is missing, unreadable or
  ///   a directory.
  package static func openToCheck(path: String) throws(InputError) -> FileSource? {
    guard path != "-" else { return nil }
    if let status = SystemCalls.status(ofPath: path), !status.isRegularFile {
      if status.isDirectory { throw .cannotOpen(path: path, reason: "is a directory") }
      return nil
    }
    return try open(path: path)
  }

  /// Reads up to `buffer.count` bytes; returns 0 only at the end of the input
  /// (or when `buffer` is empty).
  ///
  /// - Throws: `InputError.readFailed` with the system's reason.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard !atEnd, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let count = SystemCalls.readBytes(fileDescriptor, into: base, count: buffer.count)
      if count > 0 {
        storedBytesRead += Int64(count)
        return count
      }
      if count == 0 {
        atEnd = true
        return 0
      }
      let code = SystemCalls.lastError
      // A signal arriving mid-read is not an error; the bytes are still there.
      if code == SystemCalls.ErrorCode.interrupted { continue }
      throw .readFailed(path: name, reason: SystemCalls.errorText(code))
    }
  }

  private static func isDirectory(_ descriptor: Int32) -> Bool {
    SystemCalls.status(ofDescriptor: descriptor)?.isDirectory ?? false
  }
}
