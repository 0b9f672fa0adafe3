import CZstd

/// A byte source that decompresses a zstd stream read from another source, with libzstd's
/// streaming API (`ZSTD_decompressStream`).
///
/// Every frame is read to the very end: concatenated `.zst` files and `pzstd`'s multi-frame
/// output give the concatenation of their frames' contents, and skippable frames (magic
/// `50 2A 4D 18` to `5F 2A 4D 18`, used for metadata and seek tables) are skipped. Damage is
/// never a shorter input: a stream that ends inside a frame (or one to three bytes into what
/// would be the next frame's magic) is `zstdTruncated`; bad data, a bad checksum, a frame that
/// needs a dictionary, and bytes after a frame that do not start another frame are
/// `zstdCorrupt`, with libzstd's reason. Trailing zero padding is rejected, as for gzip
/// (`GzipSource`): it is not a frame.
///
/// Memory is bounded whatever the frame header says: compressed bytes go through one fixed
/// input buffer, and libzstd's own buffers are at most its window (the history a frame may
/// refer back to) plus a block (128 KiB). The window is capped at 2^`windowLogMax` bytes
/// (128 MiB, the limit the `zstd` tool itself decodes without `--memory`): a frame that asks for
/// more is corrupt ("Frame requires too much memory for decoding"), so a hostile header cannot
/// make the reader allocate gigabytes. libzstd sizes the window from the frame header, so an
/// ordinary frame (`zstd -3` on a large file: a 2 MiB window; `-19`: 8 MiB) costs what it needs.
package final class ZstdSource: ByteSource {
  /// The default size of the compressed-input buffer (libzstd's recommended input size is one
  /// block, 128 KiB, plus a little; two blocks halve the reads from the underlying source).
  package static let defaultInputCapacity = 256 * 1024

  /// The largest window accepted, as a power of two: 27, so 128 MiB. This is libzstd's
  /// default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`) and what `zstd -d` accepts without
  /// `--memory`; frames written with `--long=28` or more, or hostile headers, are refused.
  /// Set explicitly (`ZSTD_d_windowLogMax`) so a libzstd built with another default does
  /// not change what TxFold accepts.
  package static let windowLogMax: Int32 = 27

  /// The libzstd version this build decompresses with, e.g. `"1.5.4"`.
  package static var libraryVersion: String {
    ZSTD_versionString().map { String(cString: $0) } ?? "unknown"
  }

  /// libzstd's decompression context; owned, freed in deinit.
  private let stream: OpaquePointer
  /// Compressed bytes read and not yet decompressed.
  private let input: CompressedInput
  /// Whether libzstd is inside a frame (its last hint was not 0): ending there is a truncation.
  /// True before the first call, since the input must hold at least one frame.
  private var insideFrame = true
  private var finished = false
  private var failure = StickyFailure()

  /// The input's name for messages: the underlying source's.
  package var name: String { input.source.name }
  /// Compressed bytes read from the underlying source so far.
  package var storedBytesRead: Int64 { input.source.storedBytesRead }
  /// The underlying source's size (the compressed size) when known.
  package var storedSize: Int64? { input.source.storedSize }

  /// Starts decompressing `source`, which must begin with a zstd frame (or a skippable frame).
  ///
  /// An empty `source` reads as truncated; callers that want an empty input to be valid detect
  /// zstd first, as `InputOpener` does.
  ///
  /// - Parameters:
  ///   - source: The compressed bytes.
  ///   - inputCapacity: The size of the fixed compressed-input buffer (at least 16 bytes).
  /// - Throws: `InputError.readFailed` when libzstd cannot be set up (out of memory).
  package init(wrapping source: any ByteSource, inputCapacity: Int = ZstdSource.defaultInputCapacity) throws(InputError)
  {
    guard let stream = ZSTD_createDStream() else {
      throw .readFailed(path: source.name, reason: "cannot start zstd decompression (out of memory)")
    }
    let status = ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, Self.windowLogMax)
    if ZSTD_isError(status) != 0 {
      ZSTD_freeDStream(stream)
      throw .readFailed(path: source.name, reason: "cannot limit the zstd window (\(Self.errorName(status)))")
    }
    self.stream = stream
    input = CompressedInput(source, capacity: max(inputCapacity, 16))
  }

  deinit {
    ZSTD_freeDStream(stream)
  }

  /// Decompresses up to `buffer.count` bytes into `buffer`; returns 0 only after the last frame
  /// has ended and the underlying source is at its end (or when `buffer` is empty).
  ///
  /// - Throws: `InputError.zstdTruncated` when the input ends inside a frame;
  ///   `InputError.zstdCorrupt` for damaged data or trailing bytes; the underlying source's
  ///   errors. Once a read has failed, every later read throws the same error.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    try failure.read { () throws(InputError) in try decompressInto(buffer) }
  }

  private func decompressInto(_ buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    guard !finished, let output = buffer.baseAddress, buffer.count > 0 else { return 0 }
    // Loop until some output exists: a frame header, a skippable frame or an empty frame
    // consumes input and produces nothing, and returning 0 then would end the input early.
    while true {
      if input.unread.isEmpty { try input.refill() }
      // Safe because `unread` are read bytes within the input buffer, and `output` has
      // buffer.count writable bytes; libzstd reads and writes only those.
      let unread = input.unread
      var inBuffer = ZSTD_inBuffer(src: unread.baseAddress, size: unread.count, pos: 0)
      var outBuffer = ZSTD_outBuffer(dst: output, size: buffer.count, pos: 0)
      let hint = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
      if ZSTD_isError(hint) != 0 { throw Self.inputError(hint, path: name) }
      input.consume(inBuffer.pos)
      // 0: a frame has ended and is fully flushed; anything else: inside one (or its flush).
      // A call that did nothing says nothing about frames (with no input, libzstd hints at the
      // next frame's header size), so only a call that moved bytes updates the state. libzstd
      // holds back a frame's last input byte until its output is flushed, so the call that
      // ends a frame always moves bytes.
      if inBuffer.pos > 0 || outBuffer.pos > 0 { insideFrame = hint != 0 }
      if outBuffer.pos > 0 { return outBuffer.pos }
      if inBuffer.pos > 0 { continue }
      // No progress with input left (and output space) would be a bug in the library; stop
      // rather than spin.
      if !input.unread.isEmpty {
        throw .zstdCorrupt(path: name, reason: "decompressor made no progress")
      }
      if input.sourceEnded {
        if insideFrame { throw .zstdTruncated(path: name) }
        finished = true
        return 0
      }
    }
  }

  /// libzstd's name for an error code, e.g. "Restored data doesn't match checksum".
  private static func errorName(_ code: Int) -> String {
    ZSTD_getErrorName(code).map { String(cString: $0) } ?? "error \(code)"
  }

  /// A libzstd error as this input's error: running out of memory is a read failure, the rest
  /// is damage (the input is not a valid zstd stream, or needs what TxFold does not give).
  private static func inputError(_ code: Int, path: String) -> InputError {
    switch ZSTD_getErrorCode(code) {
    case ZSTD_error_memory_allocation:
      return .readFailed(path: path, reason: "out of memory while decompressing zstd")
    case ZSTD_error_dstSize_tooSmall:
      // libzstd's words ("Destination buffer is too small") describe its buffer, not the input.
      return .zstdCorrupt(path: path, reason: "the frame holds more data than its header declares")
    default:
      break
    }
    return .zstdCorrupt(path: path, reason: errorName(code))
  }
}
