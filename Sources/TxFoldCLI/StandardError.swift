#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way the CLI writes to standard error: messages, the run summary and
/// the progress line.
///
/// Standard error may be closed (`2>&-`), a pipe whose reader went away, or a
/// full disk; none of that may crash the run or change its exit code, so a
/// failed write is dropped. (Foundation's `FileHandle.standardError.write`
/// traps on `EBADF`.)
enum StandardError {
  /// Writes `text` as it is.
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard var pointer = bytes.baseAddress else { return }
      var remaining = bytes.count
      while remaining > 0 {
        let written = writeToDescriptor(2, pointer, remaining)
        if written > 0 {
          pointer += written
          remaining -= written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}

/// The C library's `write(2)`, under a name that `StandardError.write` does not shadow (a
/// module-qualified `Glibc.write` would tie the file to Linux).
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
