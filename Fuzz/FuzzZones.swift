// Targets 7-9: the TZif and POSIX TZ-rule parsers behind `--timezone`, and
// records folded in several zones.

/// Instants every zone check samples (seconds since 1970 UTC): the table's
/// edges, winter and summer before it (1850) and in its first year (1900), a
/// few ordinary years, and the extremes timestamps can hold.
let fuzzSampleInstants: [Int64] = [
  -62_135_596_800, -3_786_825_600, -3_771_273_600, ZoneResolver.tableStart - 1, ZoneResolver.tableStart,
  -2_206_310_400, -2_193_004_800, -1, 0, 946_684_800, 1_711_846_800,
  1_729_990_800, 1_735_689_600, 4_102_444_800, ZoneResolver.tableEnd - 1, ZoneResolver.tableEnd,
  253_402_300_799,
]

/// A small dump whose records sit near midnight and near daylight-saving changes,
/// with and without offsets, so that a zone moves some of them to another day.
let fuzzZoneDump: [UInt8] = {
  let stamps = [
    "2024-03-31T00:30:00Z", "2024-03-31T23:59:59+02:00", "2024-10-27T01:30:00", "2000-01-01T00:00:00Z",
    "1999-12-31T23:00:00-05:00", "2024-06-30T22:15:00Z", "1950-07-01T12:00:00Z", "2150-12-31T23:59:00Z",
  ]
  var lines = ""
  for (index, stamp) in stamps.enumerated() {
    let indicator = index % 2 == 0 ? "CRDT" : "DBIT"
    let state = index % 3 == 0 ? "PENDING" : "COMPLETED"
    lines +=
      #"{"arrangementId":"A\#(index % 3)","id":"z\#(index)","transactionAmountCurrency":{"amount":"\#(index).50","#
      + #""currencyCode":"EUR"},"creditDebitIndicator":"\#(indicator)","creationTime":"\#(stamp)","state":"\#(state)"}"#
      + "\n"
  }
  return Array(lines.utf8)
}()

/// Checks a resolver made from parsed rules: offsets within ±26 hours at every
/// sample instant and every transition, and a day for each record no further
/// than two days from the day written.
func fuzzCheckResolver(_ resolver: ZoneResolver, zone: TZifZone?) {
  var instants = fuzzSampleInstants
  if let zone { instants += zone.transitions.prefix(64).flatMap { [$0 - 1, $0] } }
  for instant in instants {
    let offset = resolver.offset(atUTC: instant)
    if offset.magnitude > UInt64(TZifParser.maxOffset) { fuzzFailure("offset \(offset) s at \(instant)") }
    // At every instant the resolver must give what the zone's own rules give: the table
    // spells them out from 1900 to 2200, and the rules answer outside it.
    if let zone, offset != Int64(zone.offset(atUTC: instant)) {
      fuzzFailure("the resolver says \(offset) s at \(instant), the zone's rules \(zone.offset(atUTC: instant)) s")
    }
  }
}

/// Folds `fuzzZoneDump` (or `bytes`) with `resolver` and with dates as written:
/// the accounting and each state's transaction count must not depend on the zone,
/// and no group may lie more than two days from the days its members were written.
func fuzzCheckRecordsInZone(_ bytes: [UInt8], resolver: ZoneResolver) {
  var options = fuzzGroupOptions(bytes)
  options.threads = 1
  options.memberLimit = 1000
  let asWritten = fuzzGroupRun(bytes, options: options)
  options.read.zone = resolver
  let zoned = fuzzGroupRun(bytes, options: options)
  guard let asWritten, let zoned else {
    if (asWritten == nil) != (zoned == nil) { fuzzFailure("a zone changed whether the input was refused") }
    return
  }
  let (lhs, rhs) = (asWritten.stats, zoned.stats)
  if lhs.lines != rhs.lines || lhs.accepted != rhs.accepted || lhs.rejectedByReason != rhs.rejectedByReason {
    fuzzFailure("a zone changed the accounting")
  }
  func countsByState(_ report: GroupReport) -> [String: Int] {
    report.sections.reduce(into: [:]) { counts, section in
      counts[section.state, default: 0] += section.groups.reduce(0) { $0 + $1.count }
    }
  }
  if countsByState(asWritten) != countsByState(zoned) { fuzzFailure("a zone moved transactions between states") }
  for section in zoned.sections {
    for group in section.groups {
      for member in group.transactions
      where abs(Int(member.instant.writtenDay.daysSinceEpoch) - Int(group.date.daysSinceEpoch)) > 2 {
        fuzzFailure("\(member.id) written on \(member.instant.writtenDay) lands in a group of \(group.date)")
      }
    }
  }
  _ = fuzzRenderAll(zoned)
}

/// Target 7: the payload as a TZif file (the seeds are real ones). Refused or
/// read; when read, its transitions ascend, its offsets are in range, the
/// resolver's table agrees with it, and records fold in it consistently.
func fuzzTZif(_ bytes: [UInt8]) {
  guard let zone = try? TZifParser.parse(bytes) else { return }
  if zone.transitions.count != zone.offsets.count { fuzzFailure("transitions and offsets differ in number") }
  if zip(zone.transitions, zone.transitions.dropFirst()).contains(where: { $0 >= $1 }) {
    fuzzFailure("transitions do not ascend")
  }
  if ([zone.initialOffset] + zone.offsets).contains(where: { $0.magnitude > UInt32(TZifParser.maxOffset) }) {
    fuzzFailure("an offset beyond ±26 hours was accepted")
  }
  let resolver = ZoneResolver(name: ZoneName(identifier: "Fuzz/Zone"), tzif: zone)
  fuzzCheckResolver(resolver, zone: zone)
  fuzzCheckRecordsInZone(fuzzZoneDump, resolver: resolver)
}

/// A version 2 TZif file with no transitions, one time type of `offset`, and
/// `footer` as its POSIX rule.
func fuzzTZifFile(offset: Int32, footer: [UInt8]) -> [UInt8] {
  func header() -> [UInt8] {
    var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
    // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt (big-endian 32-bit each).
    for count: UInt32 in [0, 0, 0, 0, 1, 4] { bytes += withUnsafeBytes(of: count.bigEndian, Array.init) }
    return bytes
  }
  let block = withUnsafeBytes(of: offset.bigEndian, Array.init) + [0, 0] + Array("STD\0".utf8)
  return header() + block + header() + block + [UInt8(ascii: "\n")] + footer + [UInt8(ascii: "\n")]
}

/// Target 8: the payload as a POSIX TZ rule. When read, its offset at every
/// sample instant is its standard or its daylight-saving offset, each year's
/// changes come in time order, and the same text as a TZif footer reads to the
/// same rule.
func fuzzPOSIXRule(_ bytes: [UInt8]) {
  let parsed = POSIXRuleParser.parse(bytes)
  if bytes.count <= 255, !bytes.contains(UInt8(ascii: "\n")) {
    let file = fuzzTZifFile(offset: parsed?.standardOffset ?? 0, footer: bytes)
    let fromFile = try? TZifParser.parse(file)
    if !bytes.isEmpty, fromFile?.rule != parsed { fuzzFailure("the footer parser and the rule parser disagree") }
  }
  guard let rule = parsed else { return }
  for instant in fuzzSampleInstants {
    let offset = rule.offset(atUTC: instant)
    if offset != rule.standardOffset && offset != rule.dst?.offset { fuzzFailure("an offset the rule does not have") }
  }
  for year in [1, 1970, 2024, 2100, 9999] {
    let changes = rule.changes(in: year)
    if zip(changes, changes.dropFirst()).contains(where: { $0.instant > $1.instant }) {
      fuzzFailure("a year's changes are out of order")
    }
  }
  let zone = TZifZone(initialOffset: rule.standardOffset, transitions: [], offsets: [], rule: rule)
  fuzzCheckResolver(ZoneResolver(name: ZoneName(identifier: "Fuzz/Rule"), tzif: zone), zone: nil)
}

/// The zones records are folded in: the fixtures (`Test/Rule`, `Test/HalfPast`)
/// and, where the system has tzdata, zones with odd offsets and rules.
let fuzzRecordZones: [ZoneResolver] = {
  var zones: [ZoneResolver] = []
  let fixtures = fuzzRepositoryRoot + "/Tests/Fixtures/zoneinfo"
  for name in ["Test/Rule", "Test/HalfPast"] {
    if let zone = try? ZoneResolver.named(name, directory: fixtures) { zones.append(zone) }
  }
  for name in [
    "UTC", "Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Kiritimati",
    "Pacific/Apia", "America/St_Johns",
  ] {
    if let zone = try? ZoneResolver.named(name, directory: "/usr/share/zoneinfo") { zones.append(zone) }
  }
  return zones
}()

/// Target 9: the payload's first byte picks a zone, the rest is a dump, folded in
/// that zone and with dates as written (`--timezone` variation on records).
func fuzzZoneRecords(_ bytes: [UInt8]) {
  guard let pick = bytes.first, !fuzzRecordZones.isEmpty else { return }
  let resolver = fuzzRecordZones[Int(pick) % fuzzRecordZones.count]
  fuzzCheckRecordsInZone(Array(bytes.dropFirst()), resolver: resolver)
}
