import CZlib

/// Compresses bytes into a gzip stream written to a file descriptor.
///
/// Used by `txfold gen --gzip` and by tests to make fixtures. Output goes
/// through one fixed buffer, so memory stays bounded however much is written.
/// Call `finish()` once at the end: a writer released without it leaves a
/// stream without its trailer, which readers rightly report as truncated.
/// The descriptor is not closed by the writer.
///
/// Writing to a pipe whose reader has gone raises `SIGPIPE`, which ends the
/// process unless the program ignores that signal; when it is ignored the
/// failure is an `OutputError` with `isBrokenPipe` set.
@_spi(Benchmarks) public final class GzipFileWriter {
  /// The size of the compressed-output buffer.
  private static let outputCapacity = 256 * 1024

  private let fileDescriptor: Int32
  private let name: String
  // zlib keeps a pointer back to its z_stream and checks it on every call, so
  // the stream lives at a fixed address of our own.
  private let stream: UnsafeMutablePointer<z_stream>
  private let output: UnsafeMutableRawPointer
  private var finished = false

  /// Starts a gzip stream on `fileDescriptor`.
  ///
  /// - Parameters:
  ///   - fileDescriptor: An open descriptor to write to; the caller closes it.
  ///   - name: The output's name for error messages (`-` for standard output).
  ///   - level: The deflate level, 0 (store) to 9 (smallest); 6 by default, as `gzip`.
  /// - Throws: `OutputError` when the level is out of range or zlib cannot be set up.
  public init(fileDescriptor: Int32, name: String = "-", level: Int32 = 6) throws(OutputError) {
    self.fileDescriptor = fileDescriptor
    self.name = name
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // windowBits 15 + 16 writes the gzip wrapper; memLevel 8 is zlib's default.
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
      ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      // Thrown before every stored property is set, so deinit does not run
      // and the cleanup is ours.
      stream.deinitialize(count: 1)
      stream.deallocate()
      let reason =
        status == Z_STREAM_ERROR
        ? "invalid gzip compression level \(level) (expected 0 to 9)"
        : "cannot start gzip compression (zlib status \(status))"
      throw OutputError(path: name, reason: reason)
    }
    self.stream = stream
    self.output = UnsafeMutableRawPointer.allocate(byteCount: Self.outputCapacity, alignment: 1)
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    output.deallocate()
  }

  /// Compresses `bytes` and writes whatever compressed output is ready.
  ///
  /// - Throws: `OutputError` when writing fails or after `finish()`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    guard !finished else { throw OutputError(path: name, reason: "gzip stream written after it was finished") }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    var offset = 0
    // avail_in is 32 bits; feed larger buffers in slices.
    while offset < bytes.count {
      let count = min(bytes.count - offset, Int(UInt32.max))
      // Safe because deflate only reads through next_in (zlib is built without
      // ZLIB_CONST, hence the mutable type), and offset + count <= bytes.count.
      stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
      stream.pointee.avail_in = UInt32(count)
      // With Z_NO_FLUSH deflate stops when it runs out of input or of output
      // space; a buffer left not full means all input was taken.
      repeat {
        _ = try deflateStep(flush: Z_NO_FLUSH)
      } while stream.pointee.avail_out == 0
      offset += count
    }
  }

  /// Compresses `bytes` and writes whatever compressed output is ready.
  ///
  /// - Throws: `OutputError` when writing fails or after `finish()`.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    try withUnsafeBytes(of: bytes) { (raw) throws(OutputError) in try write(raw) }
  }

  /// Ends the stream: writes the remaining compressed data and the gzip
  /// trailer (CRC and length). Calling it again does nothing.
  ///
  /// - Throws: `OutputError` when writing fails.
  public func finish() throws(OutputError) {
    guard !finished else { return }
    stream.pointee.next_in = nil
    stream.pointee.avail_in = 0
    while try deflateStep(flush: Z_FINISH) != Z_STREAM_END {}
    finished = true
  }

  /// Runs deflate once into the output buffer and writes what it produced.
  private func deflateStep(flush: Int32) throws(OutputError) -> Int32 {
    stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = UInt32(Self.outputCapacity)
    let status = deflate(stream, flush)
    // Z_BUF_ERROR only means no progress was possible this call (e.g. no
    // input left); it is not fatal and the loops above end on their own.
    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
      throw OutputError(path: name, reason: "gzip compression failed (zlib status \(status))")
    }
    let produced = Self.outputCapacity - Int(stream.pointee.avail_out)
    try DescriptorWriting.writeAll(
      UnsafeRawBufferPointer(start: output, count: produced), to: fileDescriptor, name: name)
    return status
  }
}
