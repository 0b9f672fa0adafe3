import Foundation

/// A directory of files written as one output (`--output-dir DIR`): all of
/// them appear at once on `commit()`, or none does.
///
/// - `DIR` must not exist, or be an empty directory: TxFold never deletes,
///   replaces or adds to files that are already there (a nightly job writes
///   a new directory and swaps it in, or removes the old one first). A
///   symbolic link is refused, also one to a directory: nothing is written
///   through a link. Both are checked by `open(path:)`, before the run reads
///   anything.
/// - The files are written into a new private directory beside `DIR`
///   (`.DIR.txfold-XXXXXX`, mode 0700, made by `mkdtemp`), each created
///   exclusively (`O_CREAT | O_EXCL`: never an existing name, never through
///   a link). `commit()` syncs the files (one `syncfs` where the system has
///   it, else each file's `fsync` as it was finished) and that directory, gives it the
///   permissions of the empty `DIR` it replaces (its permission bits, and its
///   owner and group where the process may set them, as a replaced file keeps
///   them: an operator's private directory stays private), or the umask's for
///   a new one, and renames it to `DIR` (over an empty `DIR`, which
///   `rename(2)` allows), then syncs the parent directory.
/// - `discard()` removes the private directory and what was written in it;
///   `DIR` stays as it was. `revert()` takes back a commit (its group failed
///   later).
package final class OutputDirectory {
  /// The path as given, for messages.
  package let name: String
  /// The private directory the files are written into until `commit()`.
  package private(set) var stagingPath: String?
  private var renamed = false
  /// The (empty) directory `name` was before the run, if it was one.
  private let previous: FileStatus?

  private init(name: String, stagingPath: String, previous: FileStatus?) {
    self.name = name
    self.stagingPath = stagingPath
    self.previous = previous
  }

  /// Checks `path` (absent, or an empty directory that is no link) and makes
  /// the private directory beside it.
  ///
  /// - Throws: `OutputError` with `isCannotCreate` set: `path` is a link, a
  ///   file, a directory that is not empty, or its parent does not exist.
  package static func open(path: String) throws(OutputError) -> OutputDirectory {
    var target = path
    var previous: FileStatus?
    while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
    guard !target.isEmpty, target != "/", target != ".", target != "..", !target.hasSuffix("/."),
      !target.hasSuffix("/..")
    else {
      throw OutputError(path: path, reason: "name a directory to create, not '\(path)'", isCannotCreate: true)
    }
    if let status = SystemCalls.linkStatus(ofPath: target) {
      switch status.kind {
      case .symbolicLink:
        throw OutputError(
          path: path, reason: "it is a symbolic link; name the directory itself (nothing is written through a link)",
          isCannotCreate: true)
      case .directory:
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? ["?"]
        guard contents.isEmpty else {
          throw OutputError(
            path: path,
            reason: "the directory exists and is not empty; name a new or empty directory (nothing in it is replaced)",
            isCannotCreate: true)
        }
        previous = status
      default:
        throw OutputError(path: path, reason: "it exists and is not a directory", isCannotCreate: true)
      }
    }
    let (directory, base) = Self.split(target)
    let prefix = directory.isEmpty ? "" : directory + "/"
    let stem = String(decoding: base.utf8.prefix(200), as: UTF8.self)
    guard let staging = SystemCalls.makeTemporaryDirectory(template: "\(prefix).\(stem).txfold-XXXXXX") else {
      let code = SystemCalls.lastError
      let reason =
        code == SystemCalls.ErrorCode.noSuchEntry
        ? "the directory '\(directory.isEmpty ? "." : directory)' does not exist" : DescriptorWriting.reason(code)
      throw OutputError(path: path, reason: reason, isCannotCreate: true)
    }
    let output = OutputDirectory(name: target, stagingPath: staging, previous: previous)
    return output
  }

  /// Writes `bytes` as a new file named `preferred` (a plain name, no `/`),
  /// or, when that name is taken, `stem-2.ext`, `stem-3.ext`…; returns the
  /// name used. The file is created exclusively and synced to disk.
  package func create(_ preferred: String, bytes: [UInt8]) throws(OutputError) -> String {
    let file = try createFile(preferred)
    var buffer = bytes
    try file.write(&buffer)
    try file.finish()
    return file.name
  }

  /// A new file named `preferred` (a plain name, no `/`), or, when that name
  /// is taken, `stem-2.ext`, `stem-3.ext`…, created exclusively
  /// (`O_CREAT | O_EXCL`), to be written piece by piece (`File.write`) and
  /// then synced (`File.finish`): a page too large to hold in memory.
  package func createFile(_ preferred: String) throws(OutputError) -> File {
    guard let stagingPath else { throw OutputError(path: name, reason: "the directory was already finished") }
    precondition(!preferred.contains("/") && !preferred.isEmpty && !preferred.hasPrefix("."))
    var candidate = preferred
    var suffix = 1
    while true {
      let path = stagingPath + "/" + candidate
      let descriptor = SystemCalls.openFile(path, [.writeOnly, .create, .exclusive, .closeOnExec], mode: 0o666)
      if descriptor >= 0 { return File(descriptor: descriptor, name: candidate, path: name + "/" + candidate) }
      let code = SystemCalls.lastError
      guard code == SystemCalls.ErrorCode.fileExists else {
        throw OutputError(path: name + "/" + candidate, reason: DescriptorWriting.reason(code))
      }
      suffix += 1
      let dot = preferred.lastIndex(of: ".") ?? preferred.endIndex
      candidate = "\(preferred[..<dot])-\(suffix)\(preferred[dot...])"
    }
  }

  /// One file of the directory being written (`createFile`); its descriptor
  /// is closed by `finish()`, or when it goes away unfinished (the file is
  /// then removed with the private directory by `discard()`).
  package final class File {
    /// The file's name in the directory (what a link to it says).
    package let name: String
    /// `DIR/name`, for messages.
    private let path: String
    private var descriptor: Int32

    fileprivate init(descriptor: Int32, name: String, path: String) {
      self.descriptor = descriptor
      self.name = name
      self.path = path
    }

    /// Writes `buffer` and empties it (the `flush` of the writers).
    package func write(_ buffer: inout [UInt8]) throws(OutputError) {
      guard descriptor >= 0 else { throw OutputError(path: path, reason: "the file was already finished") }
      let path = path
      let descriptor = descriptor
      try withUnsafeBytes(of: buffer) { (raw) throws(OutputError) in
        try DescriptorWriting.writeAll(raw, to: descriptor, name: path)
      }
      buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the file, synced to disk first where `commit()` cannot sync
    /// the whole directory at once (`syncsAtCommit`).
    package func finish() throws(OutputError) {
      guard descriptor >= 0 else { return }
      defer {
        SystemCalls.closeDescriptor(descriptor)
        descriptor = -1
      }
      if !OutputDirectory.syncsAtCommit && SystemCalls.synchronize(descriptor) != 0 {
        throw OutputError(path: path, reason: DescriptorWriting.reason(SystemCalls.lastError))
      }
    }

    deinit { if descriptor >= 0 { SystemCalls.closeDescriptor(descriptor) } }
  }

  /// Whether `commit()` syncs every file at once (`syncfs`, Linux) before
  /// the rename, rather than each `File.finish()` its own: a bank's run
  /// writes a page per account, and an `fsync` per page (a journal commit
  /// each) took ten times as long as writing them.
  static let syncsAtCommit = SystemCalls.canSynchronizeFileSystem

  /// Puts the directory in place (see the type's notes); on failure the
  /// private directory is removed and `DIR` is as it was.
  package func commit() throws(OutputError) {
    guard let stagingPath else { return }
    let descriptor = SystemCalls.openFile(stagingPath, [.readOnly, .directory, .closeOnExec])
    guard descriptor >= 0 else {
      let code = SystemCalls.lastError
      discard()
      throw OutputError(path: name, reason: DescriptorWriting.reason(code))
    }
    // mkdtemp made it 0700; the report directory is an ordinary one, or the one it replaces.
    givePermissions(to: descriptor)
    // Its files' data first (where they were not synced one by one), then the directory itself.
    let filesSynced = !Self.syncsAtCommit || SystemCalls.synchronizeFileSystem(descriptor) == 0
    let synced =
      filesSynced
      && (SystemCalls.synchronize(descriptor) == 0 || SystemCalls.lastError == SystemCalls.ErrorCode.invalidArgument)
    SystemCalls.closeDescriptor(descriptor)
    guard synced, SystemCalls.rename(stagingPath, to: name) == 0 else {
      let code = SystemCalls.lastError
      discard()
      let reason =
        code == SystemCalls.ErrorCode.directoryNotEmpty || code == SystemCalls.ErrorCode.fileExists
        ? "the directory was filled while the run went; nothing in it was replaced" : DescriptorWriting.reason(code)
      throw OutputError(path: name, reason: reason)
    }
    self.stagingPath = nil
    renamed = true
    let parent = Self.split(name).directory
    let parentDescriptor = SystemCalls.openFile(parent.isEmpty ? "." : parent, [.readOnly, .directory, .closeOnExec])
    guard parentDescriptor >= 0 else { return }
    defer { SystemCalls.closeDescriptor(parentDescriptor) }
    if SystemCalls.synchronize(parentDescriptor) != 0 {
      let code = SystemCalls.lastError
      if code != SystemCalls.ErrorCode.invalidArgument {
        throw OutputError(path: name, reason: DescriptorWriting.reason(code))
      }
    }
  }

  /// After `commit()` of a directory whose group then failed: removes what
  /// was committed (the files this run wrote and the directory), so `DIR` is
  /// absent again (an empty `DIR` that was there before is made again, with
  /// its permissions).
  package func revert() {
    guard renamed else { return }
    renamed = false
    Self.removeWritten(name)
    guard previous != nil,
      (try? FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: false)) != nil
    else { return }
    let descriptor = SystemCalls.openFile(name, [.readOnly, .directory, .closeOnExec])
    guard descriptor >= 0 else { return }
    givePermissions(to: descriptor)
    SystemCalls.closeDescriptor(descriptor)
  }

  /// Gives the directory open as `descriptor` the permission bits, owner and
  /// group of the empty `DIR` the run found (owner first: a change of owner
  /// may clear permission bits; not allowed — not root, not the owner's
  /// group — it stays the writer's, as a replaced file does), or the umask's
  /// permissions when `DIR` was new.
  private func givePermissions(to descriptor: Int32) {
    guard let previous else {
      let mask = SystemCalls.setCreationMask(0)
      SystemCalls.setCreationMask(mask)
      SystemCalls.changePermissions(descriptor, 0o777 & ~mask)
      return
    }
    SystemCalls.changeOwner(descriptor, owner: previous.owner, group: previous.group)
    SystemCalls.changePermissions(descriptor, previous.permissions)
  }

  /// Drops the output: removes the private directory and its files; `DIR` is as it was.
  package func discard() {
    guard let stagingPath else { return }
    self.stagingPath = nil
    Self.removeWritten(stagingPath)
  }

  deinit { discard() }

  /// Removes `path`'s files (plain names, written by this run) and then `path`.
  private static func removeWritten(_ path: String) {
    for file in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
      SystemCalls.removeFile(path + "/" + file)
    }
    SystemCalls.removeDirectory(path)
  }

  /// `path` cut at its last slash: the directory (empty for a bare name; `/` for the root) and the name.
  private static func split(_ path: String) -> (directory: String, base: String) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}
