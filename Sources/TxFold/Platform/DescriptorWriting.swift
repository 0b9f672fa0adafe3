/// The system calls an output makes, shared by `OutputFile` and `GzipFileWriter`.
enum DescriptorWriting {
  /// Writes every byte of `bytes` to `descriptor`, going on after partial writes and signals: at
  /// the file's offset, or from byte `position` of the file (`pwrite`), leaving its offset as it is.
  static func writeAll(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at position: Int64? = nil, name: String
  ) throws(OutputError) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let count = bytes.count - offset
      let written =
        if let position {
          SystemCalls.writeBytes(descriptor, from: base + offset, count: count, at: position + Int64(offset))
        } else {
          SystemCalls.writeBytes(descriptor, from: base + offset, count: count)
        }
      if written > 0 {
        offset += written
        continue
      }
      // write(2) returns 0 only for a zero count; retrying would spin forever.
      if written == 0 { throw OutputError(path: name, reason: "the system accepted no bytes") }
      let code = SystemCalls.lastError
      if code == SystemCalls.ErrorCode.interrupted { continue }
      throw OutputError(path: name, reason: reason(code), isBrokenPipe: code == SystemCalls.ErrorCode.brokenPipe)
    }
  }

  /// The system's text for an `errno` value, e.g. "Broken pipe".
  static func reason(_ code: Int32) -> String {
    SystemCalls.errorText(code)
  }
}
