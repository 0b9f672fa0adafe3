/// Reads TZif files (RFC 8536, versions 1 to 4) into a `TZifZone`, checking
/// every count, index and offset: the file is input like any other.
///
/// Version 1 data (32-bit times) is used only when the file has nothing else;
/// from version 2 on, the 64-bit block and the footer's POSIX TZ rule are read.
/// Files with leap-second records (the `right/` zones) are refused: their
/// instants do not count seconds the way timestamps do.
enum TZifParser {
  /// Why a file is not a TZif file TxFold can use.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    var detail: String
    var description: String { detail }
  }

  /// The most transitions and types accepted (real files hold under 2,000 and 20).
  static let maxTransitions = 1 << 16
  /// An offset beyond ±26 hours is not a time zone's.
  static let maxOffset: Int32 = 26 * 3600

  static func parse(_ bytes: [UInt8]) throws(ParseError) -> TZifZone {
    var reader = Reader(bytes: bytes)
    let first = try reader.header()
    guard first.version >= 2 else { return try reader.block(first, timeSize: 4) }
    try reader.skipBlock(first, timeSize: 4)
    let second = try reader.header()
    var zone = try reader.block(second, timeSize: 8)
    zone.rule = try reader.footer()
    return zone
  }

  /// The six counts of a header, and the version.
  struct Header {
    var version: Int
    var utIndicators: Int
    var standardIndicators: Int
    var leapSeconds: Int
    var transitions: Int
    var types: Int
    var abbreviationBytes: Int
  }

  struct Reader {
    let bytes: [UInt8]
    var offset = 0

    mutating func take(_ count: Int) throws(ParseError) -> ArraySlice<UInt8> {
      guard count >= 0, count <= bytes.count - offset else { throw ParseError(detail: "the file ends too early") }
      defer { offset += count }
      return bytes[offset..<(offset + count)]
    }

    mutating func integer(_ size: Int) throws(ParseError) -> Int64 {
      let slice = try take(size)
      var value: UInt64 = 0
      for byte in slice { value = value << 8 | UInt64(byte) }
      // Big-endian two's complement of `size` bytes.
      let shift = UInt64(64 - 8 * size)
      return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func header() throws(ParseError) -> Header {
      guard Array(try take(4)) == Array("TZif".utf8) else { throw ParseError(detail: "not a TZif file") }
      let versionByte = try take(1).first ?? 0
      let version: Int
      switch versionByte {
      case 0: version = 1
      case UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"): version = Int(versionByte - UInt8(ascii: "0"))
      default: throw ParseError(detail: "unknown TZif version byte \(versionByte)")
      }
      _ = try take(15)
      var counts: [Int] = []
      for _ in 0..<6 { counts.append(Int(try integer(4) & 0xFFFF_FFFF)) }
      let header = Header(
        version: version, utIndicators: counts[0], standardIndicators: counts[1], leapSeconds: counts[2],
        transitions: counts[3], types: counts[4], abbreviationBytes: counts[5])
      guard header.types >= 1, header.types <= 256, header.transitions <= TZifParser.maxTransitions,
        header.abbreviationBytes <= 1 << 16, header.utIndicators == 0 || header.utIndicators == header.types,
        header.standardIndicators == 0 || header.standardIndicators == header.types
      else { throw ParseError(detail: "impossible counts in the TZif header") }
      guard header.leapSeconds == 0 else {
        throw ParseError(detail: "leap-second zones (right/...) are not supported")
      }
      return header
    }

    mutating func skipBlock(_ header: Header, timeSize: Int) throws(ParseError) {
      _ = try take(
        header.transitions * (timeSize + 1) + header.types * 6 + header.abbreviationBytes
          + header.leapSeconds * (timeSize + 4) + header.standardIndicators + header.utIndicators)
    }

    mutating func block(_ header: Header, timeSize: Int) throws(ParseError) -> TZifZone {
      var instants: [Int64] = []
      instants.reserveCapacity(header.transitions)
      for _ in 0..<header.transitions {
        let instant = try integer(timeSize)
        if let last = instants.last, instant <= last {
          throw ParseError(detail: "transition times are not ascending")
        }
        instants.append(instant)
      }
      let typeIndices = Array(try take(header.transitions))
      var typeOffsets: [Int32] = []
      for _ in 0..<header.types {
        let utOffset = try integer(4)
        _ = try take(2)  // isdst and the abbreviation index: a day depends on neither
        guard utOffset.magnitude <= UInt64(TZifParser.maxOffset) else {
          throw ParseError(detail: "a UT offset of \(utOffset) seconds is beyond ±26 hours")
        }
        typeOffsets.append(Int32(utOffset))
      }
      _ = try take(
        header.abbreviationBytes + header.leapSeconds * (timeSize + 4) + header.standardIndicators
          + header.utIndicators)
      var offsets: [Int32] = []
      offsets.reserveCapacity(header.transitions)
      for index in typeIndices {
        guard Int(index) < typeOffsets.count else { throw ParseError(detail: "a transition names a missing type") }
        offsets.append(typeOffsets[Int(index)])
      }
      // Keep only the transitions that change the offset: a day depends on nothing else,
      // so zones with the same offsets compare equal.
      var kept = TZifZone(initialOffset: typeOffsets[0], transitions: [], offsets: [], rule: nil)
      for (instant, offset) in zip(instants, offsets) where offset != (kept.offsets.last ?? kept.initialOffset) {
        kept.transitions.append(instant)
        kept.offsets.append(offset)
      }
      return kept
    }

    /// The footer: a newline, a POSIX TZ string (possibly empty), a newline.
    mutating func footer() throws(ParseError) -> POSIXZoneRule? {
      guard offset < bytes.count else { return nil }
      guard try take(1).first == UInt8(ascii: "\n") else {
        throw ParseError(detail: "the footer does not start with a newline")
      }
      guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")), end - offset <= 255 else {
        throw ParseError(detail: "the footer does not end with a newline")
      }
      let text = Array(try take(end - offset))
      if text.isEmpty { return nil }
      guard let rule = POSIXRuleParser.parse(text) else {
        throw ParseError(detail: "unreadable footer TZ string '\(String(decoding: text, as: UTF8.self))'")
      }
      return rule
    }
  }
}
