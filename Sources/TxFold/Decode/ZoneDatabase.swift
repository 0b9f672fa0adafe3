import Foundation

/// The system's time-zone database: TZif files under `$TZDIR`, else
/// `/usr/share/zoneinfo`. Read on every platform by `ZoneResolver` on Linux, so
/// that an operating-system tzdata update applies without a new build.
enum ZoneDatabase {
  /// The largest zone file read (real ones are under 4 KiB).
  static let maxFileBytes = 1 << 20

  /// `$TZDIR` when set and not empty, else `/usr/share/zoneinfo`.
  static var directory: String {
    if let custom = ProcessInfo.processInfo.environment["TZDIR"], !custom.isEmpty { return custom }
    return "/usr/share/zoneinfo"
  }

  /// Checks that `name` can be an IANA name: letters, digits, `_`, `+`, `-` and
  /// `/` between non-empty parts, so it cannot leave the database's directory.
  static func validate(_ name: String) throws(ZoneError) {
    // `GMT+0` and `GMT-0` read as offsets, but are IANA zone names too (links to `Etc/GMT`).
    if let offset = offsetWrittenAsName(name), name != "GMT+0", name != "GMT-0" {
      throw .offsetName(name, suggestion: offset.zone)
    }
    guard !name.isEmpty else { throw .invalidName(name, reason: "it is empty") }
    guard name.utf8.count <= 255 else { throw .invalidName(name, reason: "it is longer than 255 bytes") }
    guard !name.hasPrefix("/") else {
      throw .invalidName(
        name, reason: "it is an absolute path; name a zone such as Europe/Amsterdam (set TZDIR for another database)")
    }
    for byte in name.utf8 {
      let allowed =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
      guard allowed else {
        throw .invalidName(name, reason: "only letters, digits, '_', '+', '-' and '/' may appear in one")
      }
    }
    guard !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
      throw .invalidName(name, reason: "it has an empty part between '/'")
    }
  }

  /// An offset written as a name, and the IANA zone with that offset, if any.
  struct OffsetName: Equatable {
    /// `Etc/GMT-2` for `GMT+2` (the sign inverted), `UTC` for `+00:00`, `nil` for `+05:30`.
    var zone: String?
  }

  /// `name` read as an offset (`GMT+2`, `UTC-05:00`, `+02:00`), or `nil` when it is not one.
  static func offsetWrittenAsName(_ name: String) -> OffsetName? {
    var rest = Substring(name)
    for prefix in ["UTC", "GMT", "UT"] where rest.uppercased().hasPrefix(prefix) {
      rest = rest.dropFirst(prefix.count)
      break
    }
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    rest = rest.dropFirst()
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    // `+2`, `+02`, `+02:00` or `+0200`.
    let hoursText = digits.count == 4 ? digits.prefix(2) : digits
    guard (1...2).contains(hoursText.count), let hours = Int(hoursText) else { return nil }
    rest = rest.dropFirst(hoursText.count)
    var minutes = 0
    if !rest.isEmpty {
      if rest.first == ":" { rest = rest.dropFirst() }
      guard rest.count == 2, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(rest) else { return nil }
      minutes = parsed
    }
    guard minutes == 0 else { return OffsetName(zone: nil) }
    if hours == 0 { return OffsetName(zone: "UTC") }
    // Etc/GMT-14 (UTC+14) to Etc/GMT+12 (UTC-12) exist.
    guard sign == "+" ? hours <= 14 : hours <= 12 else { return OffsetName(zone: nil) }
    return OffsetName(zone: "Etc/GMT\(sign == "+" ? "-" : "+")\(hours)")
  }

  /// The rules of `name`, read from the database in `directory`.
  static func load(_ name: String, directory: String = directory) throws(ZoneError) -> TZifZone {
    try validate(name)
    let path = directory + "/" + name
    let bytes: [UInt8]
    do throws(InputError) {
      bytes = try read(path)
    } catch {
      if case .cannotOpen = error { throw .unknown(name, directory: directory) }
      throw .unreadable(name, path: path, detail: "\(error)")
    }
    do throws(TZifParser.ParseError) {
      return try TZifParser.parse(bytes)
    } catch {
      throw .unreadable(name, path: path, detail: error.detail)
    }
  }

  /// The file's bytes, at most `maxFileBytes`.
  static func read(_ path: String) throws(InputError) -> [UInt8] {
    // Only a regular file is read: a FIFO placed in the database would wait
    // for a writer forever, and a device would never end.
    guard let status = SystemCalls.status(ofPath: path) else {
      let code = SystemCalls.lastError
      if code == SystemCalls.ErrorCode.tooManyLinks {
        throw .readFailed(path: path, reason: "its symbolic links form a loop")
      }
      throw .cannotOpen(path: path, reason: SystemCalls.errorText(code))
    }
    guard status.isRegularFile else {
      throw .readFailed(path: path, reason: "not a regular file, so not a zone file")
    }
    let source = try FileSource.open(path: path)
    var bytes: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let count = try source.read(into: buffer)
      if count == 0 { return bytes }
      bytes.append(contentsOf: buffer[0..<count])
      guard bytes.count <= maxFileBytes else {
        throw .readFailed(path: path, reason: "larger than \(maxFileBytes) bytes, not a zone file")
      }
    }
  }

  /// Whether two names are one zone here: the same offsets at every instant.
  static func equivalent(_ first: String, _ second: String) -> Bool {
    if first == second { return true }
    guard let lhs = try? load(first), let rhs = try? load(second) else { return false }
    return lhs == rhs
  }
}
