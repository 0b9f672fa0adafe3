#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's calls that the library and the `txfold` tool make, the one place outside this
/// folder's own types where they are reached (only `Platform/` imports Glibc, Musl or Darwin).
///
/// Each wrapper is the C call and nothing more: the same arguments in Swift's types, the same
/// return value, `errno` left as the call set it (read it with `lastError`), no allocation beyond
/// what the C call needs (a path's C string). The calls on a hot path (`memchr`, `memcmp`) and
/// those a signal handler makes (`unlink`, `rmdir`, `nanosleep`, `_exit`, on C strings) are
/// `@inlinable` and always inlined, so callers run the raw C function. The facets:
/// `SystemCalls+Descriptors` (open, read, write, sync, permissions), `SystemCalls+Paths` (status,
/// temporary names, links, removal), `SystemCalls+Signals` (masks, waiting, handlers, exit),
/// `SystemCalls+Terminal` and `SystemCalls+Memory`.
@usableFromInline
package enum SystemCalls {
  /// `errno` of the calling thread: why the last call that failed failed.
  @inlinable @inline(__always)
  package static var lastError: Int32 { errno }

  /// `strerror(3)`: the system's text for an error number, e.g. "Broken pipe".
  /// "Too many open files" also names the limit that was reached, which the
  /// operator can raise (`ulimit -n`).
  package static func errorText(_ code: Int32) -> String {
    let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    guard code == EMFILE, let limit = descriptorLimit() else { return text }
    return "\(text) (the limit is \(limit) open files; raise it with ulimit -n)"
  }

  /// The soft limit on open descriptors (`RLIMIT_NOFILE`), or `nil` when unlimited or unknown.
  package static func descriptorLimit() -> UInt64? {
    var limit = rlimit()
    // RLIM_INFINITY is all ones on Linux and 2^63 - 1 on Darwin: far above any real limit either way.
    guard getrlimit(resourceOpenFiles, &limit) == 0, UInt64(limit.rlim_cur) < 1 << 40 else { return nil }
    return UInt64(limit.rlim_cur)
  }

  /// Raises the soft limit on open descriptors to the hard limit, so that a
  /// sort or merge of many runs has all the room the system allows; a
  /// program's soft limit is often 1,024 while its hard one is far higher.
  package static func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(resourceOpenFiles, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(resourceOpenFiles, &limit)
  }

  /// `getenv(3)`: the value of an environment variable, or `nil` when it is not set.
  package static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The `errno` values the library and the tool tell apart.
  package enum ErrorCode {
    /// `EINTR`: a signal interrupted the call; retry it.
    @inlinable @inline(__always) package static var interrupted: Int32 { EINTR }
    /// `EPIPE`: the reader of a pipe has gone.
    @inlinable @inline(__always) package static var brokenPipe: Int32 { EPIPE }
    /// `ENOENT`: no such file or directory.
    @inlinable @inline(__always) package static var noSuchEntry: Int32 { ENOENT }
    /// `EINVAL`: an invalid argument (`fsync` of a directory on some file systems).
    @inlinable @inline(__always) package static var invalidArgument: Int32 { EINVAL }
    /// `ELOOP`: too many symbolic links.
    @inlinable @inline(__always) package static var tooManyLinks: Int32 { ELOOP }
    /// `EBADF`: not an open descriptor.
    @inlinable @inline(__always) package static var badDescriptor: Int32 { EBADF }
    /// `ENOTEMPTY`: a directory that still has entries.
    @inlinable @inline(__always) package static var directoryNotEmpty: Int32 { ENOTEMPTY }
    /// `EEXIST`: a name an exclusive create wanted is taken.
    @inlinable @inline(__always) package static var fileExists: Int32 { EEXIST }
  }
}

/// `RLIMIT_NOFILE` as `getrlimit` and `setrlimit` take it here (an enum type on glibc, an integer elsewhere).
#if canImport(Glibc)
  private let resourceOpenFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
  private let resourceOpenFiles = RLIMIT_NOFILE
#endif
