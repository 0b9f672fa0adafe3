import Glibc

/// Where a report goes: standard output, or a file written atomically.
///
/// A file is written to a temporary file in the same directory, flushed to
/// disk with `fsync`, and renamed over the target only by `commit()`: a run
/// that fails or is interrupted never leaves a half-written report behind
/// (`discard()` removes the temporary file; the CLI's signal handler removes
/// it too, through `temporaryPath`).
public final class OutputFile {
  /// The name for messages (`-` for standard output).
  public let name: String
  /// The descriptor to write to.
  public let fileDescriptor: Int32
  /// The temporary file's path while an atomic file is open.
  public private(set) var temporaryPath: String?
  private let finalPath: String?
  private var finished = false

  /// Standard output.
  public static func standardOutput() -> OutputFile {
    OutputFile(name: "-", fileDescriptor: 1, temporaryPath: nil, finalPath: nil)
  }

  private init(name: String, fileDescriptor: Int32, temporaryPath: String?, finalPath: String?) {
    self.name = name
    self.fileDescriptor = fileDescriptor
    self.temporaryPath = temporaryPath
    self.finalPath = finalPath
  }

  /// Opens a temporary file next to `path`; `commit()` renames it to `path`.
  public static func atomic(path: String) throws(OutputError) -> OutputFile {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory).\(base).txfold-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress.unsafelyUnwrapped) }
    guard descriptor >= 0 else {
      throw OutputError(path: path, reason: String(cString: strerror(errno)))
    }
    // mkstemp creates the file 0600; a report is an ordinary file.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress.unsafelyUnwrapped) }
    return OutputFile(name: path, fileDescriptor: descriptor, temporaryPath: temporary, finalPath: path)
  }

  /// Writes all of `bytes`, retrying partial writes and interruptions.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    guard var pointer = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = Glibc.write(fileDescriptor, pointer, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        let code = errno
        throw OutputError(path: name, reason: String(cString: strerror(code)), isBrokenPipe: code == EPIPE)
      }
      pointer += written
      remaining -= written
    }
  }

  /// Writes all of `bytes`.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    try withUnsafeBytes(of: bytes) { (raw) throws(OutputError) in try write(raw) }
  }

  /// Flushes the file to disk and renames it into place (standard output: nothing to do).
  public func commit() throws(OutputError) {
    guard !finished else { return }
    finished = true
    guard let temporaryPath, let finalPath else { return }
    if fsync(fileDescriptor) != 0 || close(fileDescriptor) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw OutputError(path: finalPath, reason: reason)
    }
    if rename(temporaryPath, finalPath) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw OutputError(path: finalPath, reason: reason)
    }
    self.temporaryPath = nil
  }

  /// Removes the temporary file without touching the target.
  public func discard() {
    guard !finished else { return }
    finished = true
    guard let temporaryPath else { return }
    close(fileDescriptor)
    unlink(temporaryPath)
    self.temporaryPath = nil
  }

  deinit { discard() }
}
