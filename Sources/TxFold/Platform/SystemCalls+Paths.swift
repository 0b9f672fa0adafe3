#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SystemCalls {
  /// `stat(2)`: the file `path` names (links followed), or `nil` with `errno` set.
  package static func status(ofPath path: String) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStatus(info)
  }

  /// `lstat(2)`: the file `path` names, a symbolic link itself rather than its target, or `nil`
  /// with `errno` set.
  package static func linkStatus(ofPath path: String) -> FileStatus? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return FileStatus(info)
  }

  /// `readlink(2)`: the target a symbolic link holds (up to `PATH_MAX` bytes), or `nil` with
  /// `errno` set (also for an empty target).
  package static func linkTarget(ofPath path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `realpath(3)`: `path` absolute, with links and `.`/`..` resolved, or `nil` with `errno` set.
  package static func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `mkdtemp(3)`: creates a private directory (mode 0700) from `template`, whose last six
  /// characters are `XXXXXX`; its path, or `nil` with `errno` set.
  package static func makeTemporaryDirectory(template: String) -> String? {
    var name = Array(template.utf8CString)
    let made = name.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress.unsafelyUnwrapped) }
    guard made != nil else { return nil }
    return name.withUnsafeBufferPointer { String(cString: $0.baseAddress.unsafelyUnwrapped) }
  }

  /// `mkstemp(3)`: creates and opens a new file (mode 0600, read and write) from `template`,
  /// whose last six characters are `XXXXXX`; its descriptor and path, or a descriptor of -1 with
  /// `errno` set.
  package static func makeTemporaryFile(template: String) -> (descriptor: Int32, path: String) {
    var name = Array(template.utf8CString)
    let descriptor = name.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress.unsafelyUnwrapped) }
    guard descriptor >= 0 else { return (descriptor, template) }
    return (descriptor, name.withUnsafeBufferPointer { String(cString: $0.baseAddress.unsafelyUnwrapped) })
  }

  /// `rename(2)`: 0, or -1 with `errno` set.
  package static func rename(_ source: String, to target: String) -> Int32 {
    cRename(source, target)
  }

  /// `link(2)`: a second name for the file `source` names; 0, or -1 with `errno` set.
  package static func makeHardLink(_ source: String, to target: String) -> Int32 {
    link(source, target)
  }

  /// `unlink(2)`: 0, or -1 with `errno` set. A `String` argument passes as a
  /// temporary C string; given a C string it is async-signal-safe (inlined:
  /// a signal handler may call it).
  @inlinable @inline(__always) @discardableResult
  package static func removeFile(_ path: UnsafePointer<CChar>) -> Int32 {
    unlink(path)
  }

  /// `rmdir(2)`: 0, or -1 with `errno` set. A `String` argument passes as a
  /// temporary C string; given a C string it is async-signal-safe (inlined:
  /// a signal handler may call it).
  @inlinable @inline(__always) @discardableResult
  package static func removeDirectory(_ path: UnsafePointer<CChar>) -> Int32 {
    rmdir(path)
  }
}

/// `rename(2)`, under a name that `SystemCalls.rename` does not shadow.
private func cRename(_ source: String, _ target: String) -> Int32 {
  rename(source, target)
}
