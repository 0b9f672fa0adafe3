#if ISAL
  import CISAL

  /// Inflates gzip members with Intel ISA-L (`swift build --traits ISAL`), about 2.5 times as
  /// fast as zlib on x86-64, with the same results and the same errors.
  ///
  /// ISA-L is used for what it is fast at, the deflate data and the trailer: `crc_flag =
  /// ISAL_GZIP_NO_HDR_VER` makes `isal_inflate` compute the CRC-32 while inflating and, at the
  /// end of the member (`block_state == ISAL_BLOCK_FINISH`), compare it and the length with the
  /// eight-byte trailer. The header is read by `GzipHeaderParser`, with zlib's checks, because
  /// ISA-L's own header reader accepts reserved flag bits that zlib rejects.
  ///
  /// Errors in zlib's words: ISA-L reports a bad CRC and a bad length alike
  /// (`ISAL_INCORRECT_CHECKSUM`), so the last eight bytes consumed — the trailer, which
  /// `isal_inflate` reads exactly, never past — are kept to tell "incorrect data check" from
  /// "incorrect length check". Damaged deflate data is reported in ISA-L's coarser categories
  /// (an invalid block, code or distance), as corrupt all the same.
  final class IsalInflater: GzipInflater {
    // ISA-L's state holds pointers into itself between calls, so it lives at a fixed address
    // of our own (about 100 KiB: Huffman tables and a 64 KiB history buffer).
    private let state: UnsafeMutablePointer<inflate_state>
    private var header = GzipHeaderParser()
    /// The last eight bytes consumed, the oldest in the low byte: at the end of a member, its
    /// trailer (CRC-32 in the low half, length in the high half, as in the stream).
    private var recent: UInt64 = 0

    init() {
      state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
      // isal_inflate_init sets the fields it uses; zero the rest so nothing is left undefined.
      UnsafeMutableRawPointer(state).initializeMemory(
        as: UInt8.self, repeating: 0, count: MemoryLayout<inflate_state>.size)
      isal_inflate_init(state)
      // Raw deflate data followed by a gzip trailer: CRC-32 computed and checked, no header.
      state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR_VER)
    }

    deinit {
      state.deallocate()
    }

    func inflate(from input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
      throws(GzipInflateError) -> GzipInflateStep
    {
      var consumed = 0
      if !header.isComplete {
        consumed = try header.consume(input)
        if !header.isComplete || consumed == input.count {
          remember(input, consumed: consumed)
          return GzipInflateStep(consumed: consumed, produced: 0, memberEnded: false)
        }
      }
      // ISA-L's counters are 32-bit; GzipSource's input buffer is never larger.
      let available = min(input.count - consumed, Int(UInt32.max))
      let capacity = min(output.count, Int(UInt32.max))
      // ISA-L does not write through next_in; its type is mutable for historical reasons.
      state.pointee.next_in = input.baseAddress.map {
        UnsafeMutablePointer(mutating: ($0 + consumed).assumingMemoryBound(to: UInt8.self))
      }
      state.pointee.avail_in = UInt32(available)
      state.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
      state.pointee.avail_out = UInt32(capacity)
      let status = isal_inflate(state)
      consumed += available - Int(state.pointee.avail_in)
      remember(input, consumed: consumed)
      let step = GzipInflateStep(
        consumed: consumed,
        produced: capacity - Int(state.pointee.avail_out),
        memberEnded: state.pointee.block_state == ISAL_BLOCK_FINISH
      )
      switch status {
      case ISAL_DECOMP_OK:
        // Also when it needs more input (ISAL_END_INPUT is reported as OK by isal_inflate).
        return step
      case ISAL_INCORRECT_CHECKSUM:
        throw .corrupt(reason: trailerReason(stored: recent))
      case ISAL_INVALID_LOOKBACK:
        throw .corrupt(reason: "invalid distance too far back")
      case ISAL_INVALID_SYMBOL:
        throw .corrupt(reason: "invalid literal/length or distance code")
      case ISAL_INVALID_BLOCK:
        throw .corrupt(reason: "invalid deflate block")
      default:
        throw .failed(reason: "gzip decompression failed (ISA-L status \(status))")
      }
    }

    func reset() throws(GzipInflateError) {
      // Keeps crc_flag and the window size; clears the rest, the CRC and the length included.
      isal_inflate_reset(state)
      header = GzipHeaderParser()
    }

    func damageAtEndOfInput() -> GzipInflateError? {
      // Stopped inside the trailer: ISA-L gathers its bytes in tmp_in_buffer. With the CRC-32
      // whole and wrong, zlib would already have said so; say it too.
      guard state.pointee.block_state == ISAL_CHECKSUM_CHECK, state.pointee.tmp_in_size >= 4 else { return nil }
      let stored = withUnsafeBytes(of: state.pointee.tmp_in_buffer) { raw in
        UInt32(raw[0]) | UInt32(raw[1]) << 8 | UInt32(raw[2]) << 16 | UInt32(raw[3]) << 24
      }
      return stored == state.pointee.crc ? nil : .corrupt(reason: "incorrect data check")
    }

    /// zlib's words for a trailer that does not match: the CRC is checked first.
    private func trailerReason(stored trailer: UInt64) -> String {
      if UInt32(truncatingIfNeeded: trailer) != state.pointee.crc { return "incorrect data check" }
      return "incorrect length check"
    }

    /// Keeps the last eight of the bytes consumed from `input`, after those kept before.
    private func remember(_ input: UnsafeRawBufferPointer, consumed: Int) {
      let kept = min(consumed, 8)
      guard kept > 0 else { return }
      var newest: UInt64 = 0
      for offset in 0..<kept {
        newest |= UInt64(input[consumed - kept + offset]) << (8 * offset)
      }
      recent = kept == 8 ? newest : recent >> (8 * kept) | newest << (8 * (8 - kept))
    }
  }
#endif
