#if ISAL
  import CZlib

  /// Reads one gzip member's header (RFC 1952, section 2.3) a slice at a time, with zlib's checks
  /// in zlib's order and words, for an inflater that is handed the deflate data alone (ISA-L).
  ///
  /// zlib checks the magic once both of its bytes are in ("incorrect header check"), then the
  /// method and the flags together ("unknown compression method", "unknown header flags set"),
  /// and, when the header carries a CRC-16, that CRC over every header byte before it ("header
  /// crc mismatch"). The optional extra field, name and comment are skipped. Doing the same
  /// here means a damaged header gives the same error whichever library inflates: ISA-L's own
  /// parser accepts reserved flag bits, which zlib, and so TxFold, rejects.
  ///
  /// Example: `1f 8b 08 08 00 00 00 00 00 03 61 00 …` is the fixed ten bytes with FNAME set,
  /// then the name `a` and its terminating zero; `consume` returns 12 and `isComplete` is true.
  struct GzipHeaderParser {
    private enum Stage: Int, Comparable {
      case fixed, extraLength, extra, name, comment, headerCRC, done

      static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private static let fixedLength = 10
    private static let deflateMethod: UInt8 = 8
    private static let reservedFlags: UInt8 = 0xe0
    private static let flagHeaderCRC: UInt8 = 0x02
    private static let flagExtra: UInt8 = 0x04
    private static let flagName: UInt8 = 0x08
    private static let flagComment: UInt8 = 0x10

    private var stage = Stage.fixed
    /// Bytes of the current stage read so far (the fixed part, or a two-byte field).
    private var count = 0
    /// The byte or little-endian field being gathered.
    private var value = 0
    private var flags: UInt8 = 0
    private var extraRemaining = 0
    /// CRC-32 of the header bytes read so far (before the CRC-16 field).
    private var crc: UInt = 0

    /// Whether the whole header has been read; the next byte is the deflate data's first.
    var isComplete: Bool { stage == .done }

    /// Reads header bytes from the front of `bytes` and returns how many were header: all of
    /// them while the header goes on, fewer once it is complete.
    ///
    /// - Throws: `GzipInflateError.corrupt` with zlib's reason for a bad magic, method, reserved
    ///   flag or header CRC.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(GzipInflateError) -> Int {
      var index = 0
      // Where this call's bytes start counting towards the header CRC; nil once the CRC field
      // has been reached.
      var crcFrom: Int? = stage < .headerCRC ? 0 : nil
      while index < bytes.count && stage != .done {
        let byte = bytes[index]
        index += 1
        switch stage {
        case .fixed:
          count += 1
          switch count {
          case 1, 3:
            value = Int(byte)
          case 2:
            guard value == 0x1f && byte == 0x8b else { throw .corrupt(reason: "incorrect header check") }
          case 4:
            guard UInt8(value) == Self.deflateMethod else { throw .corrupt(reason: "unknown compression method") }
            guard byte & Self.reservedFlags == 0 else { throw .corrupt(reason: "unknown header flags set") }
            flags = byte
          case Self.fixedLength:
            advance()
          default:
            break
          }
        case .extraLength:
          value |= Int(byte) << (8 * count)
          count += 1
          if count == 2 {
            extraRemaining = value
            advance()
          }
        case .extra:
          extraRemaining -= 1
          if extraRemaining == 0 { advance() }
        case .name, .comment:
          if byte == 0 { advance() }
        case .headerCRC:
          value |= Int(byte) << (8 * count)
          count += 1
          if count == 2 {
            guard UInt(value) == crc & 0xffff else { throw .corrupt(reason: "header crc mismatch") }
            advance()
          }
        case .done:
          break
        }
        if stage >= .headerCRC, let from = crcFrom {
          // The byte just read ended the part the CRC-16 covers; the field itself is not covered.
          updateCRC(bytes, from: from, to: index)
          crcFrom = nil
        }
      }
      if let from = crcFrom { updateCRC(bytes, from: from, to: index) }
      return index
    }

    /// Moves to the next part the flags say is present.
    private mutating func advance() {
      count = 0
      value = 0
      var next = Stage(rawValue: stage.rawValue + 1) ?? .done
      while next != .done && !isPresent(next) {
        next = Stage(rawValue: next.rawValue + 1) ?? .done
      }
      // An empty extra field has nothing to skip.
      if next == .extra && extraRemaining == 0 {
        stage = .extra
        advance()
        return
      }
      stage = next
    }

    private func isPresent(_ stage: Stage) -> Bool {
      switch stage {
      case .fixed: return true
      case .extraLength, .extra: return flags & Self.flagExtra != 0
      case .name: return flags & Self.flagName != 0
      case .comment: return flags & Self.flagComment != 0
      case .headerCRC: return flags & Self.flagHeaderCRC != 0
      case .done: return true
      }
    }

    private mutating func updateCRC(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
      guard end > start, let base = bytes.baseAddress else { return }
      // Safe because start < end <= bytes.count. zlib's length is 32-bit: go in pieces.
      var offset = start
      while offset < end {
        let length = min(end - offset, Int(UInt32.max))
        crc = crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), uInt(length))
        offset += length
      }
    }
  }
#endif
