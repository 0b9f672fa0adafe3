import Foundation
import Testing

@testable import TxFold

/// Zone rules from the system's time-zone database (TZif files), name checks
/// and equivalent names.
@Suite("Time zones from the tz database")
struct ZoneDatabaseTests {
  static let fixtureDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/zoneinfo").path
  static let hasSystemZoneinfo = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Amsterdam")
  static let skipNote: Comment =
    "needs /usr/share/zoneinfo (Debian: apt-get install tzdata; .ci/run installs it)"

  static func seconds(_ text: String) throws -> Int64 {
    try #require(TimestampParser.parse(text)).epochSeconds
  }

  @Test(
    "A made-up zone is read from a TZDIR fixture: transition, then the footer's rule, also past the table",
    arguments: [
      ("Test/HalfPast", "1970-01-01T00:00:00Z", 5400), ("Test/HalfPast", "2500-07-01T00:00:00Z", 5400),
      ("Test/HalfPast", "1800-07-01T00:00:00Z", 5400),
      ("Test/Rule", "1999-07-01T12:00:00Z", 0), ("Test/Rule", "1999-12-31T23:59:59Z", 0),
      ("Test/Rule", "2000-01-01T00:00:00Z", 5400), ("Test/Rule", "2030-01-01T12:00:00Z", 5400),
      ("Test/Rule", "2030-03-30T23:29:59Z", 5400), ("Test/Rule", "2030-03-30T23:30:00Z", 9000),
      ("Test/Rule", "2030-07-01T12:00:00Z", 9000), ("Test/Rule", "2030-10-26T23:29:59Z", 9000),
      ("Test/Rule", "2030-10-26T23:30:00Z", 5400),
      // Past 2200 the rule itself answers (2300-03-25 is the last Sunday of March).
      ("Test/Rule", "2300-07-01T12:00:00Z", 9000), ("Test/Rule", "2300-12-01T12:00:00Z", 5400),
      ("Test/Rule", "2300-03-24T23:29:59Z", 5400), ("Test/Rule", "2300-03-24T23:30:00Z", 9000),
    ] as [(String, String, Int64)])
  func fixtureZone(name: String, instant: String, offset: Int64) throws {
    let resolver = try ZoneResolver.named(name, directory: Self.fixtureDirectory)
    #expect(resolver.zone?.identifier == name)
    #expect(resolver.offset(atUTC: try Self.seconds(instant)) == offset, "\(name) at \(instant)")
    let rules = try ZoneDatabase.load(name, directory: Self.fixtureDirectory)
    #expect(Int64(rules.offset(atUTC: try Self.seconds(instant))) == offset, "the rules themselves")
  }

  @Test(
    "Europe/Amsterdam 1938-06-30T22:45Z falls on the day the system's zoneinfo gives",
    .enabled(if: hasSystemZoneinfo, skipNote))
  func amsterdam1938() throws {
    // `TZ=Europe/Amsterdam date -d @-994209300` (tzdata 2025b): 1938-07-01 00:05:00 +0120.
    let amsterdam = try ZoneResolver.named("Europe/Amsterdam")
    var stamp = try #require(TimestampParser.parse("1938-06-30T22:45:00Z"))
    #expect(amsterdam.resolve(&stamp).description == "1938-07-01")
    // Footer rule past 2200: summer +02:00, winter +01:00.
    #expect(amsterdam.offset(atUTC: try Self.seconds("2345-07-01T00:00:00Z")) == 7200)
    #expect(amsterdam.offset(atUTC: try Self.seconds("2345-01-01T00:00:00Z")) == 3600)
  }

  @Test("Every zone in the system's zoneinfo gives the offsets `date` does", .enabled(if: hasSystemZoneinfo, skipNote))
  func agreesWithDate() throws {
    let probes = ["1938-06-30T22:45:00Z", "1975-03-01T00:00:00Z", "2024-07-01T12:00:00Z", "2090-01-15T06:00:00Z"]
    let zones = ["Europe/Amsterdam", "America/Sao_Paulo", "Australia/Lord_Howe", "Asia/Kathmandu", "Africa/Casablanca"]
    for zone in zones {
      let resolver = try ZoneResolver.named(zone)
      for probe in probes {
        let seconds = try Self.seconds(probe)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-d", "@\(seconds)", "+%z"]
        process.environment = ["TZ": zone]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let digits = Array(text.utf8.dropFirst().prefix(4)).map { Int64($0) - 48 }
        guard digits.count == 4 else { continue }
        let magnitude = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
        let expected = text.hasPrefix("-") ? -magnitude : magnitude
        // `date` prints whole minutes; local mean times may carry seconds.
        #expect((resolver.offset(atUTC: seconds) - expected).magnitude < 60, "\(zone) at \(probe): date says \(text)")
      }
    }
  }

  @Test(
    "Names are checked before any file is read",
    arguments: [
      ("GMT+2", ZoneError.offsetName("GMT+2", suggestion: "Etc/GMT-2")),
      ("UTC+2", .offsetName("UTC+2", suggestion: "Etc/GMT-2")),
      ("UTC-05:00", .offsetName("UTC-05:00", suggestion: "Etc/GMT+5")),
      ("utc+0200", .offsetName("utc+0200", suggestion: "Etc/GMT-2")),
      ("+02:00", .offsetName("+02:00", suggestion: "Etc/GMT-2")),
      ("UTC-0", .offsetName("UTC-0", suggestion: "UTC")),
      ("GMT+00:00", .offsetName("GMT+00:00", suggestion: "UTC")),
      ("UTC+05:30", .offsetName("UTC+05:30", suggestion: nil)),
      ("UTC+15", .offsetName("UTC+15", suggestion: nil)),
      ("", .invalidName("", reason: "it is empty")),
      (
        "../../etc/passwd",
        .invalidName("../../etc/passwd", reason: "only letters, digits, '_', '+', '-' and '/' may appear in one")
      ),
      (
        "Europe/../UTC",
        .invalidName("Europe/../UTC", reason: "only letters, digits, '_', '+', '-' and '/' may appear in one")
      ),
      ("Europe//Amsterdam", .invalidName("Europe//Amsterdam", reason: "it has an empty part between '/'")),
      ("Europe/", .invalidName("Europe/", reason: "it has an empty part between '/'")),
      (
        "Europe/Amsterdam ",
        .invalidName("Europe/Amsterdam ", reason: "only letters, digits, '_', '+', '-' and '/' may appear in one")
      ),
      (
        "Europe/Zürich",
        .invalidName("Europe/Zürich", reason: "only letters, digits, '_', '+', '-' and '/' may appear in one")
      ),
    ] as [(String, ZoneError)])
  func refusedNames(name: String, error: ZoneError) {
    #expect(throws: error) { try ZoneDatabase.validate(name) }
    #expect(throws: error) { try ZoneDatabase.load(name, directory: Self.fixtureDirectory) }
  }

  @Test("An absolute path is refused, and so are names the database does not have")
  func pathsAndUnknown() throws {
    #expect(throws: ZoneError.self) { try ZoneDatabase.validate("/usr/share/zoneinfo/UTC") }
    #expect(throws: ZoneError.unknown("Mars/Olympus", directory: Self.fixtureDirectory)) {
      try ZoneDatabase.load("Mars/Olympus", directory: Self.fixtureDirectory)
    }
    // A directory is not a zone.
    #expect(throws: ZoneError.self) { try ZoneDatabase.load("Test", directory: Self.fixtureDirectory) }
    for name in ["Etc/GMT-2", "Etc/GMT+12", "America/Argentina/Buenos_Aires"] where Self.hasSystemZoneinfo {
      #expect(ZoneResolver(identifier: name) != nil, "\(name) is valid")
    }
    #expect(
      ZoneError.offsetName("GMT+2", suggestion: "Etc/GMT-2").description.contains("use Etc/GMT-2"))
  }

  @Test(
    "Names of UTC are one zone, stored as UTC; other links compare by their offsets",
    .enabled(if: hasSystemZoneinfo, skipNote),
    arguments: [
      "UTC", "Etc/UTC", "Zulu", "Etc/Zulu", "UCT", "Etc/UCT", "Universal", "Etc/Universal", "GMT", "Etc/GMT",
      "Greenwich", "Etc/GMT+0", "GMT+0", "GMT-0",
    ])
  func utcNames(name: String) throws {
    guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name) else { return }
    #expect(try ZoneResolver.named(name).zone?.identifier == "UTC")
    #expect(ZoneResolver.equivalent(name, "UTC"))
    let settings = { (zone: String) in
      PartialSettings(memberLimit: 1, schema: "backbase", timezone: zone, maxRecordBytes: 1, allowTrailingCommas: false)
    }
    #expect(settings(name).difference(from: settings("UTC")) == nil)
  }

  @Test("Different zones stay different; links to one zone are one zone", .enabled(if: hasSystemZoneinfo, skipNote))
  func equivalence() {
    #expect(!ZoneResolver.equivalent("Europe/Amsterdam", "UTC"))
    #expect(!ZoneResolver.equivalent("America/New_York", "America/Chicago"))
    if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/US/Eastern") {
      #expect(ZoneResolver.equivalent("US/Eastern", "America/New_York"))
    }
    #expect(!ZoneResolver.equivalent("Mars/Olympus", "UTC"))
  }

  /// Found by the fuzz target `tzif` (Fuzz/README.md): a version 2 file whose one transition
  /// keeps type 0's offset (so none is kept) and whose footer has daylight-saving time. With no
  /// transitions the footer holds at every instant (RFC 9636 §3.2), but the resolver's table kept
  /// type 0's offset (0) up to the rule's first change in 1900 and for every instant before 1900.
  static let transitionlessRuleFile: [UInt8] = {
    let hex =
      "545a69663200000000000000000000000000000000000000000000000000000000000001000000020000000a386d4380"
      + "010000000000000000151800042b3030002b3031333000545a6966320000000000000000000000000000000000000000"
      + "0000000000000000000001000000020000000a0000000138cd2a000000000000005d0000151800042b2b303000303133"
      + "30000a3c2b303133303e2d313a33303c2b303233303e2c4d332e352e302f312c4d31302e352e302f320a"
    var bytes: [UInt8] = []
    var digits = hex.makeIterator()
    while let high = digits.next(), let low = digits.next(), let byte = UInt8(String([high, low]), radix: 16) {
      bytes.append(byte)
    }
    return bytes
  }()

  @Test(
    "A zone file without transitions follows its footer's daylight-saving rule at every instant, before 1900 too",
    arguments: [
      ("1900-01-01T00:00:00Z", 5400), ("1900-02-01T00:00:00Z", 5400), ("1900-07-01T00:00:00Z", 9000),
      ("1850-01-15T00:00:00Z", 5400), ("1850-07-01T00:00:00Z", 9000), ("2024-07-01T00:00:00Z", 9000),
      ("2024-12-01T00:00:00Z", 5400),
    ] as [(String, Int64)])
  func transitionlessRule(instant: String, offset: Int64) throws {
    let zone = try TZifParser.parse(Self.transitionlessRuleFile)
    #expect(zone.transitions.isEmpty)
    let resolver = ZoneResolver(name: ZoneName(identifier: "Test/Transitionless"), tzif: zone)
    let seconds = try Self.seconds(instant)
    #expect(Int64(zone.offset(atUTC: seconds)) == offset, "the rules themselves at \(instant)")
    #expect(resolver.offset(atUTC: seconds) == offset, "the resolver at \(instant)")
  }

  @Test("A damaged zone file is refused, never a crash: every truncation and byte flip of a real one")
  func hostileFiles() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtureDirectory + "/Test/Rule")))
    let whole = try TZifParser.parse(bytes)
    #expect(whole.transitions == [946_684_800])
    for length in 0..<bytes.count {
      _ = try? TZifParser.parse(Array(bytes.prefix(length)))
    }
    for index in bytes.indices {
      for value: UInt8 in [0x00, 0x7F, 0xFF, UInt8(ascii: "\n")] {
        var damaged = bytes
        damaged[index] = value
        _ = try? TZifParser.parse(damaged)
      }
    }
    #expect(throws: TZifParser.ParseError(detail: "not a TZif file")) { try TZifParser.parse(Array("TZig".utf8)) }
    var huge = bytes
    huge[20 + 12] = 0xFF  // the transition count's high byte
    #expect(throws: TZifParser.ParseError.self) { try TZifParser.parse(huge) }
  }

  @Test(
    "POSIX TZ footers",
    arguments: [
      ("CET-1CEST,M3.5.0,M10.5.0/3", "2024-07-01T00:00:00Z", 7200),
      ("CET-1CEST,M3.5.0,M10.5.0/3", "2024-01-01T00:00:00Z", 3600),
      ("EST5EDT,M3.2.0,M11.1.0", "2024-07-01T00:00:00Z", -14400),
      ("EST5EDT,M3.2.0,M11.1.0", "2024-12-01T00:00:00Z", -18000),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-01-01T00:00:00Z", 39600),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2024-07-01T00:00:00Z", 36000),
      ("<+0530>-5:30", "2024-07-01T00:00:00Z", 19800), ("<-03>3", "2024-07-01T00:00:00Z", -10800),
      ("UTC0", "2024-07-01T00:00:00Z", 0),
      ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "2024-07-01T00:00:00Z", -3600),
      ("IST-2IDT,M3.4.4/26,M10.5.0", "2024-07-01T00:00:00Z", 10800),
      ("XST-1XDT,J60/2,300", "2024-06-01T00:00:00Z", 7200),
    ] as [(String, String, Int32)])
  func footers(rule: String, instant: String, offset: Int32) throws {
    let parsed = try #require(POSIXRuleParser.parse(Array(rule.utf8)), "\(rule)")
    #expect(parsed.offset(atUTC: try Self.seconds(instant)) == offset, "\(rule) at \(instant)")
  }

  @Test(
    "Unreadable footers are refused",
    arguments: ["", "C", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+05", "CET-99"])
  func badFooters(rule: String) {
    #expect(POSIXRuleParser.parse(Array(rule.utf8)) == nil)
  }
}
