/// A file as the system knows it (device and inode), to tell whether two
/// paths name the same file whatever links lead to it. Used by
/// `OutputConflicts`, and by the command-line tool through `package` access.
package struct FileIdentity: Equatable, Sendable {
  package let device: UInt64
  package let inode: UInt64

  /// The identity of the file `status` describes.
  init(_ status: FileStatus) {
    device = status.device
    inode = status.inode
  }

  /// The identity of the file `path` names (links followed), or nil when there is none.
  package init?(path: String) {
    guard let status = SystemCalls.status(ofPath: path) else { return nil }
    self.init(status)
  }

  /// The identity of the regular file open on `descriptor` (standard input or
  /// output), or nil when it is something else: a terminal, a pipe, a device,
  /// or a descriptor that is not open.
  package init?(regularFileOn descriptor: Int32) {
    guard let status = SystemCalls.status(ofDescriptor: descriptor), status.isRegularFile else { return nil }
    self.init(status)
  }

  /// `path` with its directory made absolute and canonical, for paths that do not exist yet.
  package static func normalized(_ path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let resolved = SystemCalls.resolvedPath(directory) else { return path }
    return resolved + "/" + base
  }
}
