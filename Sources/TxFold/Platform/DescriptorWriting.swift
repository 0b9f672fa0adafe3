#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls an output makes, shared by `OutputFile` and `GzipFileWriter`.
enum DescriptorWriting {
  /// Writes every byte of `bytes` to `descriptor`, going on after partial writes and signals.
  static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, name: String) throws(OutputError) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written > 0 {
        offset += written
        continue
      }
      // write(2) returns 0 only for a zero count; retrying would spin forever.
      if written == 0 { throw OutputError(path: name, reason: "the system accepted no bytes") }
      let code = errno
      if code == EINTR { continue }
      throw OutputError(path: name, reason: reason(code), isBrokenPipe: code == EPIPE)
    }
  }

  /// The system's text for an `errno` value, e.g. "Broken pipe".
  static func reason(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }
}
