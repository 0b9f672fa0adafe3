import CZlib

/// Inflates gzip members with zlib, the default: zlib parses the header, inflates and checks
/// the trailer, and its own messages are the reasons ("incorrect data check" for a bad CRC).
final class ZlibInflater: GzipInflater {
  // zlib keeps a pointer back to its z_stream and checks it on every call, so
  // the stream lives at a fixed address of our own rather than in a Swift
  // stored property, whose address is not guaranteed to stay the same.
  private let stream: UnsafeMutablePointer<z_stream>

  /// - Throws: `GzipInflateError.failed` when zlib cannot be set up (out of memory).
  init() throws(GzipInflateError) {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // windowBits 15 + 16: a 32 KiB window and the gzip wrapper (not zlib's).
    let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      // Thrown before every stored property is set, so deinit does not run
      // and the cleanup is ours.
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw .failed(reason: "cannot start gzip decompression (zlib status \(status))")
    }
    self.stream = stream
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  func inflate(from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(GzipInflateError)
    -> GzipInflateStep
  {
    // zlib's counters are 32-bit; GzipSource's input buffer is never larger.
    let available = min(input.count, Int(UInt32.max))
    let capacity = min(output.count, Int(UInt32.max))
    // zlib does not write through next_in; its type is mutable for historical reasons.
    stream.pointee.next_in = input.baseAddress.map {
      UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
    }
    stream.pointee.avail_in = UInt32(available)
    stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = UInt32(capacity)
    let status = CZlib.inflate(stream, Z_NO_FLUSH)
    let step = GzipInflateStep(
      consumed: available - Int(stream.pointee.avail_in),
      produced: capacity - Int(stream.pointee.avail_out),
      memberEnded: status == Z_STREAM_END
    )
    switch status {
    case Z_OK, Z_STREAM_END:
      return step
    case Z_BUF_ERROR:
      // No progress was possible: zlib needs more input (GzipSource decides whether there is
      // any), or, with input and output space both present, is stuck, which GzipSource reports.
      return step
    case Z_DATA_ERROR:
      throw .corrupt(reason: stream.pointee.msg.map { String(cString: $0) } ?? "invalid compressed data")
    case Z_NEED_DICT:
      throw .corrupt(reason: "stream needs a preset dictionary")
    case Z_MEM_ERROR:
      throw .failed(reason: "out of memory while decompressing")
    default:
      throw .failed(reason: "gzip decompression failed (zlib status \(status))")
    }
  }

  func reset() throws(GzipInflateError) {
    // inflateReset keeps the window allocation and the gzip mode of inflateInit2.
    let status = inflateReset(stream)
    guard status == Z_OK else {
      throw .failed(reason: "cannot restart gzip decompression (zlib status \(status))")
    }
  }

  /// zlib checks the CRC as soon as its four bytes are in, so it has already said so.
  func damageAtEndOfInput() -> GzipInflateError? { nil }
}
