/// One run on disk: an unlinked temporary file (see `SpillDirectory`) written
/// once, front to back, through a buffer, in the format of the job that owns
/// it, then read back (`SpillReader`, or whole ranges with `read(exactly:at:)`).
/// Closing the descriptor (on `deinit`) frees it.
final class SpillFile {
  let fileDescriptor: Int32
  /// The name the file had, for messages.
  let name: String
  /// Bytes written so far.
  private(set) var size: Int64 = 0
  private var buffer: [UInt8] = []
  static let writeThreshold = 256 * 1024

  init(fileDescriptor: Int32, name: String) {
    self.fileDescriptor = fileDescriptor
    self.name = name
    buffer.reserveCapacity(Self.writeThreshold + 4096)
  }

  deinit { SystemCalls.closeDescriptor(fileDescriptor) }

  /// Lets `encode` append one entry to the write buffer in place (no bytes
  /// of its own to copy), writing the buffer out when it is full.
  @inline(__always)
  func append(_ encode: (inout [UInt8]) -> Void) throws(SpillError) {
    encode(&buffer)
    if buffer.count >= Self.writeThreshold { try flush() }
  }

  /// Appends `bytes` and empties them (keeping their capacity), writing the buffer out when it is full.
  func append(bytes: inout [UInt8]) throws(SpillError) {
    buffer.append(contentsOf: bytes)
    bytes.removeAll(keepingCapacity: true)
    if buffer.count >= Self.writeThreshold { try flush() }
  }

  /// Appends raw bytes (an entry in memory), writing the buffer out when it is full.
  func append(raw bytes: UnsafeRawBufferPointer) throws(SpillError) {
    // As typed bytes: `Array.append(contentsOf:)` copies a typed buffer at once, a raw one byte by byte.
    buffer.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    if buffer.count >= Self.writeThreshold { try flush() }
  }

  /// Writes out what is buffered, so that `size` counts every byte appended.
  func flush() throws(SpillError) {
    var failure: Int32 = 0
    buffer.withUnsafeBytes { raw in
      guard var pointer = raw.baseAddress else { return }
      var remaining = raw.count
      while remaining > 0 {
        let written = SystemCalls.writeBytes(fileDescriptor, from: pointer, count: remaining)
        if written < 0 {
          if SystemCalls.lastError == SystemCalls.ErrorCode.interrupted { continue }
          failure = SystemCalls.lastError
          return
        }
        pointer += written
        remaining -= written
      }
    }
    if failure != 0 { throw .writeFailed(path: name, reason: SystemCalls.errorText(failure)) }
    size += Int64(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes out what is buffered and frees the buffer: the run is complete.
  /// Many runs stay open until they are merged, so none may keep its write
  /// buffer (a per-account run's grows to the size of the blocks appended).
  func finishWriting() throws(SpillError) {
    try flush()
    buffer = []
  }

  /// Reads `buffer.count` bytes at most from `offset` (`pread`, so readers
  /// do not share a file position). Returns 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SpillError) -> Int {
    while true {
      let read = SystemCalls.readBytes(fileDescriptor, into: buffer.baseAddress, count: buffer.count, at: offset)
      if read >= 0 { return read }
      if SystemCalls.lastError == SystemCalls.ErrorCode.interrupted { continue }
      throw .readFailed(path: name, reason: SystemCalls.errorText(SystemCalls.lastError))
    }
  }

  /// Fills `buffer` from `offset`: a range the owner wrote, so an end before it is damage.
  func read(exactly buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SpillError) {
    var done = 0
    while done < buffer.count {
      let read = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
      guard read > 0 else { throw .corrupt(path: name, detail: "the file is shorter than written") }
      done += read
    }
  }
}
