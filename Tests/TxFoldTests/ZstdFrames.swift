import CZstd

/// zstd streams for the tests, compressed in-process by libzstd (so CI needs no `zstd` tool),
/// and hand-made frames and skippable frames for what libzstd would never write.
enum ZstdFrames {
  /// libzstd could not compress (it never fails on valid parameters; a fixture error).
  struct CompressionError: Error {
    var reason: String
  }

  /// `content` as one zstd frame.
  ///
  /// - Parameters:
  ///   - level: The compression level (1–19; negative levels are fast modes).
  ///   - checksum: Whether the frame ends with a content checksum (the `zstd` tool's default).
  ///   - flushEvery: When set, the content goes in by pieces of this size, each flushed, so the
  ///     frame holds many small blocks and no content size in its header (as a streaming writer
  ///     makes); otherwise in one call, with the content size in the header.
  ///   - windowLog: The window the frame declares (0: libzstd's choice for the level and size).
  static func frame(
    _ content: [UInt8], level: Int32 = 3, checksum: Bool = true, flushEvery: Int? = nil, windowLog: Int32 = 0
  ) throws -> [UInt8] {
    guard let context = ZSTD_createCCtx() else { throw CompressionError(reason: "out of memory") }
    defer { ZSTD_freeCCtx(context) }
    try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level))
    try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, checksum ? 1 : 0))
    if windowLog != 0 { try check(ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, windowLog)) }
    let piece = max(flushEvery ?? content.count, 1)
    var output: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: Int(ZSTD_CStreamOutSize()))
    try content.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
      if flushEvery == nil { try check(ZSTD_CCtx_setPledgedSrcSize(context, UInt64(raw.count))) }
      var offset = 0
      repeat {
        let end = min(offset + piece, raw.count)
        let last = end == raw.count
        var input = ZSTD_inBuffer(src: raw.baseAddress.map { $0 + offset }, size: end - offset, pos: 0)
        var remaining = 1
        while remaining != 0 {
          try scratch.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) throws in
            var buffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
            remaining = ZSTD_compressStream2(context, &buffer, &input, last ? ZSTD_e_end : ZSTD_e_flush)
            try check(remaining)
            output += out[0..<buffer.pos]
          }
        }
        offset = end
      } while offset < raw.count
    }
    return output
  }

  /// One frame holding `piece` `times` over, compressed as it streams in (a bomb's worth of
  /// content without holding it in memory).
  static func frame(repeating piece: [UInt8], times: Int, level: Int32 = 3) throws -> [UInt8] {
    guard let context = ZSTD_createCCtx() else { throw CompressionError(reason: "out of memory") }
    defer { ZSTD_freeCCtx(context) }
    try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level))
    try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1))
    var output: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: Int(ZSTD_CStreamOutSize()))
    for round in 0...times {
      // The last round adds nothing and ends the frame.
      let last = round == times
      try piece.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
        var input = ZSTD_inBuffer(src: raw.baseAddress, size: last ? 0 : raw.count, pos: 0)
        var remaining = 1
        repeat {
          try scratch.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) throws in
            var buffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
            remaining = ZSTD_compressStream2(context, &buffer, &input, last ? ZSTD_e_end : ZSTD_e_continue)
            try check(remaining)
            output += out[0..<buffer.pos]
          }
        } while last ? remaining != 0 : input.pos < input.size
      }
    }
    return output
  }

  /// A skippable frame (magic `50 2A 4D 18` + `variant`, then the payload's size, little-endian):
  /// metadata a decoder must skip.
  static func skippable(_ payload: [UInt8], variant: UInt8 = 0) -> [UInt8] {
    let size = UInt32(payload.count)
    return [0x50 | (variant & 0x0F), 0x2A, 0x4D, 0x18]
      + [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)] + payload
  }

  /// The zstd magic number, little-endian.
  static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

  /// A hand-made frame: `header` (the frame header descriptor and what it announces) and one
  /// last raw block holding `content` (at most 128 KiB), no checksum.
  static func rawFrame(header: [UInt8], content: [UInt8]) -> [UInt8] {
    // Block header, 3 bytes little-endian: last block (bit 0), type raw (bits 1–2 = 0), size.
    let block = UInt32(1) | UInt32(content.count) << 3
    return magic + header + [UInt8(block & 0xFF), UInt8((block >> 8) & 0xFF), UInt8(block >> 16)] + content
  }

  /// A frame header descriptor with no content size, no single segment, no checksum and no
  /// dictionary, then a window descriptor declaring 2^`windowLog` bytes.
  static func windowHeader(windowLog: Int) -> [UInt8] {
    [0x00, UInt8((windowLog - 10) << 3)]
  }

  private static func check(_ code: Int) throws {
    if ZSTD_isError(code) != 0 {
      throw CompressionError(reason: ZSTD_getErrorName(code).map { String(cString: $0) } ?? "error \(code)")
    }
  }
}
