#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat(2)`, `lstat(2)` or `fstat(2)` said of a file, in types that are the same on every
/// system (`mode_t` is 16 bits on Darwin, `dev_t` signed there).
package struct FileStatus: Sendable {
  /// The file's type: the `S_IFMT` bits of its mode.
  package enum Kind: Sendable, Equatable {
    case regular, directory, symbolicLink, other
  }

  package let kind: Kind
  /// `st_size`: the size in bytes (for a regular file).
  package let size: Int64
  /// The permission bits (`st_mode & 0o777`).
  package let permissions: UInt32
  /// `st_uid`.
  package let owner: UInt32
  /// `st_gid`.
  package let group: UInt32
  /// `st_dev`, the device the file is on.
  package let device: UInt64
  /// `st_ino`, its number on that device.
  package let inode: UInt64
  /// `st_mtime` in nanoseconds since 1970 (UTC): when the content last changed.
  package let modifiedNanoseconds: Int64

  init(_ info: stat) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    size = Int64(info.st_size)
    permissions = UInt32(info.st_mode & 0o777)
    owner = UInt32(info.st_uid)
    group = UInt32(info.st_gid)
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(info.st_ino)
    #if canImport(Glibc) || canImport(Musl)
      let modified = info.st_mtim
    #else
      let modified = info.st_mtimespec
    #endif
    modifiedNanoseconds = Int64(modified.tv_sec) &* 1_000_000_000 &+ Int64(modified.tv_nsec)
  }

  /// Whether it is a regular file.
  package var isRegularFile: Bool { kind == .regular }
  /// Whether it is a directory.
  package var isDirectory: Bool { kind == .directory }
}
