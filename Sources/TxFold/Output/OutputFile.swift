/// One output of a run (a report, a rejects file, a generated dump) from
/// creation to commit or discard. Nothing an output does may destroy a file:
///
/// - `-` is standard output.
/// - A path that exists and is not a regular file (a character device such as
///   `/dev/null`, a FIFO, a terminal) is opened and written in place: never
///   truncated, replaced or renamed over. It receives bytes as they are
///   produced, so a run that fails part-way has already sent some.
/// - A symbolic link is followed to its final target (a dangling link's target
///   is created); the target is replaced and the link stays.
/// - A regular file, or a new one, is written to a temporary file in the
///   target's directory and only `commit()` puts it in place: `fsync`,
///   `rename`, `fsync` of the directory. A replaced file keeps its permission
///   bits (and its owner and group where the process may set them); a new file
///   gets the umask's permissions. `discard()` removes the temporary file and
///   leaves the target as it was; the CLI's signal handler removes it through
///   `temporaryPath`.
package final class OutputFile {
  /// How an output reaches its target.
  package enum Kind: Sendable, Equatable {
    /// Standard output (`-`).
    case standardOutput
    /// An existing file that is not a regular file, written where it is.
    case inPlace
    /// A regular or new file, replaced atomically by `commit()`.
    case replaced
  }

  /// The name for messages: the path as given (`-` for standard output).
  package let name: String
  package let kind: Kind
  /// The descriptor to write to.
  package let fileDescriptor: Int32
  /// The temporary file's path while a replacing output is open.
  package private(set) var temporaryPath: String?
  /// The file the temporary file replaces: the path, or a symbolic link's final target.
  private let targetPath: String?
  /// A second name for the target's previous content while a group of
  /// outputs is committed (`prepareCommit()`), so `revert()` can restore it.
  private var backupPath: String?
  /// Whether `commit()` renamed the temporary file over the target.
  private var renamed = false
  private var flushed = false
  private var finished = false
  /// A replacing output's bytes written so far, and where the writeback not yet started begins.
  private var written = 0
  private var writebackStart = 0

  private init(name: String, kind: Kind, fileDescriptor: Int32, temporaryPath: String?, targetPath: String?) {
    self.name = name
    self.kind = kind
    self.fileDescriptor = fileDescriptor
    self.temporaryPath = temporaryPath
    self.targetPath = targetPath
  }

  /// Standard output.
  package static func standardOutput() -> OutputFile {
    OutputFile(name: "-", kind: .standardOutput, fileDescriptor: 1, temporaryPath: nil, targetPath: nil)
  }

  /// Whether `path` names an existing file that is not a regular file (a
  /// FIFO, a device, a terminal), which `open(path:)` writes where it is.
  /// Opening a FIFO waits for its reader, so a caller holding a lock opens
  /// such an output outside it.
  package static func writesInPlace(path: String) -> Bool {
    guard path != "-", let target = try? finalTarget(of: path), let info = SystemCalls.status(ofPath: target) else {
      return false
    }
    return !info.isRegularFile
  }

  /// Opens the output for `path` by the rules above (`-` is standard output).
  ///
  /// - Throws: `OutputError` with `isCannotCreate` set when the output cannot be
  ///   opened or its temporary file cannot be created (a missing directory, say).
  package static func open(path: String) throws(OutputError) -> OutputFile {
    if path == "-" { return standardOutput() }
    let target = try finalTarget(of: path)
    if let info = SystemCalls.status(ofPath: target) {
      if !info.isRegularFile {
        // No O_TRUNC and no O_CREAT: a device, FIFO or terminal is written as it is.
        let descriptor = SystemCalls.openFile(target, [.writeOnly, .noControllingTerminal, .closeOnExec])
        guard descriptor >= 0 else { throw cannotCreate(path, SystemCalls.lastError) }
        return OutputFile(name: path, kind: .inPlace, fileDescriptor: descriptor, temporaryPath: nil, targetPath: nil)
      }
      return try replacing(name: path, target: target, existing: info)
    }
    let code = SystemCalls.lastError
    guard code == SystemCalls.ErrorCode.noSuchEntry else { throw cannotCreate(path, code) }
    return try replacing(name: path, target: target, existing: nil)
  }

  /// Opens a temporary file next to `target`, with `existing`'s permissions and
  /// owner, or the umask's permissions for a new file.
  private static func replacing(name: String, target: String, existing: FileStatus?) throws(OutputError) -> OutputFile {
    let (directory, base) = split(target)
    let prefix = directory.isEmpty ? "" : directory + "/"
    let (descriptor, temporary) = SystemCalls.makeTemporaryFile(
      template: "\(prefix).\(temporaryStem(of: base)).txfold-XXXXXX")
    guard descriptor >= 0 else {
      let code = SystemCalls.lastError
      let reason =
        code == SystemCalls.ErrorCode.noSuchEntry
        ? "the directory '\(directory.isEmpty ? "." : directory)' does not exist" : DescriptorWriting.reason(code)
      throw OutputError(path: name, reason: reason, isCannotCreate: true)
    }
    SystemCalls.setCloseOnExec(descriptor)
    if let existing {
      // Owner first: a change of owner may clear permission bits. Not allowed
      // (not root, not the owner's group): the file is the writer's, as any new file.
      SystemCalls.changeOwner(descriptor, owner: existing.owner, group: existing.group)
      SystemCalls.changePermissions(descriptor, existing.permissions)
    } else {
      // mkstemp creates the file 0600; a new report is an ordinary file.
      let mask = SystemCalls.setCreationMask(0)
      SystemCalls.setCreationMask(mask)
      SystemCalls.changePermissions(descriptor, 0o666 & ~mask)
    }
    return OutputFile(
      name: name, kind: .replaced, fileDescriptor: descriptor, temporaryPath: temporary, targetPath: target)
  }

  /// Writes all of `bytes`, retrying partial writes and interruptions.
  ///
  /// A replacing output starts its pages' writeback every `writebackBytes`
  /// (`SystemCalls.startWriteback`): otherwise the kernel writes nothing of a
  /// file smaller than its background threshold (a tenth of memory) until
  /// `flush()`'s `fsync`, and a report of hundreds of megabytes then waited
  /// for the disk at the end of the run, with the work already done.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    try DescriptorWriting.writeAll(bytes, to: fileDescriptor, name: name)
    guard kind == .replaced else { return }
    written += bytes.count
    if written - writebackStart >= Self.writebackBytes {
      SystemCalls.startWriteback(fileDescriptor, offset: writebackStart, count: written - writebackStart)
      writebackStart = written
    }
  }

  /// How many bytes a replacing output writes between two starts of writeback.
  static let writebackBytes = 8 << 20

  /// Writes all of `bytes`.
  package func write(_ bytes: [UInt8]) throws(OutputError) {
    try withUnsafeBytes(of: bytes) { (raw) throws(OutputError) in try write(raw) }
  }

  /// Makes what was written durable (`fsync` and close of a replacing output)
  /// without putting it in place yet, so that several outputs can be flushed
  /// before any is committed. `commit()` calls it when it was not called.
  package func flush() throws(OutputError) {
    guard !flushed, !finished else { return }
    flushed = true
    switch kind {
    case .standardOutput:
      return
    case .inPlace:
      if SystemCalls.closeDescriptor(fileDescriptor) != 0 {
        let code = SystemCalls.lastError
        if code != SystemCalls.ErrorCode.interrupted { throw failure(code) }
      }
    case .replaced:
      if SystemCalls.synchronize(fileDescriptor) != 0 {
        let code = SystemCalls.lastError
        SystemCalls.closeDescriptor(fileDescriptor)
        throw failure(code)
      }
      if SystemCalls.closeDescriptor(fileDescriptor) != 0 {
        let code = SystemCalls.lastError
        if code != SystemCalls.ErrorCode.interrupted { throw failure(code) }
      }
    }
  }

  /// Puts the output in place: renames the temporary file over the target and
  /// makes the rename durable. On failure the temporary file is removed and the
  /// target is as it was.
  package func commit() throws(OutputError) {
    guard !finished else { return }
    do {
      try flush()
    } catch {
      discard()
      throw error
    }
    finished = true
    guard let temporaryPath, let targetPath else { return }
    if SystemCalls.rename(temporaryPath, to: targetPath) != 0 {
      let code = SystemCalls.lastError
      SystemCalls.removeFile(temporaryPath)
      self.temporaryPath = nil
      throw failure(code)
    }
    self.temporaryPath = nil
    renamed = true
    let directory = split(targetPath).directory
    let descriptor = SystemCalls.openFile(directory.isEmpty ? "." : directory, [.readOnly, .directory, .closeOnExec])
    guard descriptor >= 0 else { throw failure(SystemCalls.lastError) }
    defer { SystemCalls.closeDescriptor(descriptor) }
    // Some file systems cannot sync a directory (EINVAL); the rename is then as durable as they make it.
    if SystemCalls.synchronize(descriptor) != 0 {
      let code = SystemCalls.lastError
      if code != SystemCalls.ErrorCode.invalidArgument { throw failure(code) }
    }
  }

  /// Readies the output to be committed with others, so that all of them or
  /// none end up in place: flushes it and, when its target exists, gives the
  /// target's present content a second name (a hard link beside the
  /// temporary file). If a later output of the group then fails, `revert()`
  /// puts the previous content back; once all are in place, `dropBackup()`
  /// removes the second name.
  package func prepareCommit() throws(OutputError) {
    try flush()
    guard kind == .replaced, let temporaryPath, let targetPath, backupPath == nil else { return }
    guard SystemCalls.status(ofPath: targetPath) != nil else { return }
    let backup = temporaryPath + Self.backupSuffix
    guard SystemCalls.makeHardLink(targetPath, to: backup) == 0 else { throw failure(SystemCalls.lastError) }
    backupPath = backup
  }

  /// After `commit()` of an output whose group then failed: its target as it
  /// was before (the previous content from `prepareCommit()`, or no file where
  /// there was none). An in-place output cannot be taken back.
  package func revert() {
    defer { dropBackup() }
    guard renamed, let targetPath else { return }
    renamed = false
    if let backupPath {
      if SystemCalls.rename(backupPath, to: targetPath) == 0 { self.backupPath = nil }
    } else {
      SystemCalls.removeFile(targetPath)
    }
  }

  /// Removes the previous content's second name, once the group is in place.
  package func dropBackup() {
    guard let backupPath else { return }
    SystemCalls.removeFile(backupPath)
    self.backupPath = nil
  }

  /// What `prepareCommit()` appends to the temporary file's name for the previous content.
  private static let backupSuffix = "-old"

  /// Drops the output: removes the temporary file (the target keeps its
  /// content), or closes an in-place output.
  package func discard() {
    dropBackup()
    guard !finished else { return }
    finished = true
    if !flushed && kind != .standardOutput { SystemCalls.closeDescriptor(fileDescriptor) }
    guard let temporaryPath else { return }
    SystemCalls.removeFile(temporaryPath)
    self.temporaryPath = nil
  }

  deinit { discard() }

  private func failure(_ code: Int32) -> OutputError {
    OutputError(
      path: name, reason: DescriptorWriting.reason(code), isBrokenPipe: code == SystemCalls.ErrorCode.brokenPipe)
  }

  private static func cannotCreate(_ path: String, _ code: Int32) -> OutputError {
    OutputError(path: path, reason: DescriptorWriting.reason(code), isCannotCreate: true)
  }

  /// The file `path` finally names: symbolic links followed, also to a target that does not exist yet.
  package static func finalTarget(of path: String) throws(OutputError) -> String {
    var current = path
    // The kernel's own limit on links followed in one lookup.
    for _ in 0..<40 {
      guard SystemCalls.linkStatus(ofPath: current)?.kind == .symbolicLink else { return current }
      guard let link = SystemCalls.linkTarget(ofPath: current) else { throw cannotCreate(path, SystemCalls.lastError) }
      let directory = split(current).directory
      current = link.hasPrefix("/") || directory.isEmpty ? link : directory + "/" + link
    }
    throw cannotCreate(path, SystemCalls.ErrorCode.tooManyLinks)
  }
}

/// The part of a target's name that its temporary file's name repeats: the
/// whole name, or its first bytes when the whole would make the temporary
/// name (15 bytes longer, and 4 more for the previous content's second name)
/// longer than the 255 bytes a file name may have.
private func temporaryStem(of base: String) -> String {
  let room = 255 - ".".utf8.count - ".txfold-XXXXXX".utf8.count - 4
  guard base.utf8.count > room else { return base }
  var stem = ""
  var length = 0
  for character in base {
    length += character.utf8.count
    if length > room { break }
    stem.append(character)
  }
  return stem
}

/// `path` cut at its last slash: the directory (empty for a bare name; `/` for
/// the root) and the file's name.
private func split(_ path: String) -> (directory: String, base: String) {
  guard let slash = path.lastIndex(of: "/") else { return ("", path) }
  let directory = String(path[..<slash])
  return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
}
