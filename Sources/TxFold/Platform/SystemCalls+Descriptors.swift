#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// `open(2)`'s flags, under names that every C library spells the same way.
  package struct OpenFlags: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_RDONLY` (zero: the absence of the other access modes).
    package static var readOnly: OpenFlags { OpenFlags(rawValue: O_RDONLY) }
    /// `O_WRONLY`.
    package static var writeOnly: OpenFlags { OpenFlags(rawValue: O_WRONLY) }
    /// `O_RDWR`.
    package static var readWrite: OpenFlags { OpenFlags(rawValue: O_RDWR) }
    /// `O_CREAT`.
    package static var create: OpenFlags { OpenFlags(rawValue: O_CREAT) }
    /// `O_EXCL`: with `create`, fail when the name exists.
    package static var exclusive: OpenFlags { OpenFlags(rawValue: O_EXCL) }
    /// `O_CLOEXEC`: a spawned child does not inherit the descriptor.
    package static var closeOnExec: OpenFlags { OpenFlags(rawValue: O_CLOEXEC) }
    /// `O_NOCTTY`: a terminal opened does not become the controlling one.
    package static var noControllingTerminal: OpenFlags { OpenFlags(rawValue: O_NOCTTY) }
    /// `O_DIRECTORY`: fail unless the path is a directory.
    package static var directory: OpenFlags { OpenFlags(rawValue: O_DIRECTORY) }
    /// `O_NONBLOCK`: opening a FIFO does not wait for its other end (reads of a regular file are unaffected).
    package static var nonBlocking: OpenFlags { OpenFlags(rawValue: O_NONBLOCK) }
  }

  /// Standard input's descriptor (`STDIN_FILENO`).
  package static let standardInput: Int32 = 0
  /// Standard output's descriptor (`STDOUT_FILENO`).
  package static let standardOutput: Int32 = 1
  /// Standard error's descriptor (`STDERR_FILENO`).
  package static let standardError: Int32 = 2

  /// `open(2)`: a new descriptor, or -1 with `errno` set. `mode` (permission bits) counts only
  /// with `create`.
  package static func openFile(_ path: String, _ flags: OpenFlags, mode: UInt32 = 0) -> Int32 {
    open(path, flags.rawValue, mode_t(truncatingIfNeeded: mode))
  }

  /// `close(2)`: 0, or -1 with `errno` set.
  @discardableResult
  package static func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
  }

  /// `read(2)`: bytes read (0 at the end), or -1 with `errno` set.
  package static func readBytes(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    read(descriptor, buffer, count)
  }

  /// `pread(2)`: bytes read from `offset` without moving the file position (0 at the end), or -1
  /// with `errno` set.
  package static func readBytes(
    _ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int64
  ) -> Int {
    pread(descriptor, buffer, count, off_t(offset))
  }

  /// `write(2)`: bytes written (possibly fewer than `count`), or -1 with `errno` set.
  package static func writeBytes(_ descriptor: Int32, from bytes: UnsafeRawPointer, count: Int) -> Int {
    write(descriptor, bytes, count)
  }

  /// `pwrite(2)`: bytes written at `offset` without moving the file position (possibly fewer
  /// than `count`), or -1 with `errno` set.
  package static func writeBytes(_ descriptor: Int32, from bytes: UnsafeRawPointer, count: Int, at offset: Int64) -> Int
  {
    pwrite(descriptor, bytes, count, off_t(offset))
  }

  /// `ftruncate(2)` to nothing, then `lseek(2)` to the start: a file written in part, to be
  /// written again from its first byte. `false` with `errno` set when either fails.
  package static func empty(_ descriptor: Int32) -> Bool {
    ftruncate(descriptor, 0) == 0 && lseek(descriptor, 0, SEEK_SET) == 0
  }

  /// Starts writing `count` bytes of the file from `offset` to disk without
  /// waiting for them (`posix_fadvise(POSIX_FADV_DONTNEED)`, which on Linux
  /// queues the range's dirty pages for writeback); advice only, so nothing
  /// is reported. Elsewhere it does nothing.
  package static func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
    #if os(Linux)
      _ = posix_fadvise(descriptor, off_t(offset), off_t(count), POSIX_FADV_DONTNEED)
    #endif
  }

  /// `fsync(2)`: 0 once the file's data is on disk, or -1 with `errno` set.
  package static func synchronize(_ descriptor: Int32) -> Int32 {
    fsync(descriptor)
  }

  /// `syncfs(2)`: 0 once every file of the file system that `descriptor`
  /// lies on is on disk, or -1 with `errno` set; `nil` where the C library
  /// has no `syncfs` (it is Linux's: looked up by name, as Swift's Glibc
  /// module does not export it). One call for a directory of thousands of
  /// new files, where an `fsync` of each forced a journal commit each.
  package static func synchronizeFileSystem(_ descriptor: Int32) -> Int32? {
    fileSystemSync.map { $0(descriptor) }
  }

  /// Whether `synchronizeFileSystem` can sync (the C library has `syncfs`).
  package static var canSynchronizeFileSystem: Bool { fileSystemSync != nil }

  private typealias FileSystemSync = @convention(c) (Int32) -> Int32
  private static let fileSystemSync: FileSystemSync? = {
    #if canImport(Glibc) || canImport(Musl)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
      return unsafeBitCast(symbol, to: FileSystemSync.self)
    #else
      return nil
    #endif
  }()

  /// `fcntl(F_GETFD)`: the descriptor's flags, or -1 with `errno` set (`EBADF`: not open).
  package static func descriptorFlags(_ descriptor: Int32) -> Int32 {
    fcntl(descriptor, F_GETFD)
  }

  /// `fcntl(F_SETFD, FD_CLOEXEC)`: 0, or -1 with `errno` set.
  @discardableResult
  package static func setCloseOnExec(_ descriptor: Int32) -> Int32 {
    fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }

  /// `fcntl(F_DUPFD_CLOEXEC)`: a new descriptor for what `descriptor` names, closed on `exec`, or
  /// -1 with `errno` set.
  package static func duplicate(_ descriptor: Int32) -> Int32 {
    fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
  }

  /// `dup2(2)`: `target`, now a copy of `descriptor`, or -1 with `errno` set.
  @discardableResult
  package static func duplicate(_ descriptor: Int32, to target: Int32) -> Int32 {
    dup2(descriptor, target)
  }

  /// `fchown(2)`: 0, or -1 with `errno` set.
  @discardableResult
  package static func changeOwner(_ descriptor: Int32, owner: UInt32, group: UInt32) -> Int32 {
    fchown(descriptor, uid_t(owner), gid_t(group))
  }

  /// `fchmod(2)`: 0, or -1 with `errno` set.
  @discardableResult
  package static func changePermissions(_ descriptor: Int32, _ permissions: UInt32) -> Int32 {
    fchmod(descriptor, mode_t(truncatingIfNeeded: permissions))
  }

  /// `umask(2)`: sets the file-creation mask and returns the previous one.
  @discardableResult
  package static func setCreationMask(_ mask: UInt32) -> UInt32 {
    UInt32(umask(mode_t(truncatingIfNeeded: mask)))
  }

  /// `fstat(2)`: what the system knows of the open file, or `nil` with `errno` set.
  package static func status(ofDescriptor descriptor: Int32) -> FileStatus? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return FileStatus(info)
  }
}
