import Foundation
import Testing

@testable import TxFold
@testable import TxFoldGen

@Suite("TimestampParser and ZoneResolver")
struct TimestampParserTests {
  @Test(
    "Accepted forms print back exactly as written",
    arguments: [
      "2019-05-15T14:28:01", "2019-05-15T14:28:01.123", "2019-05-15T14:28:01Z", "2019-05-15T14:28:01+02:00",
      "2022-07-10T10:59:05+0200", "2018-07-11T22:49:24.000Z", "2019-05-17", "2020-02-29T23:59:59.999999999-05:30",
      "2019-05-15T14:28:01-00:00",
    ])
  func roundTrips(text: String) throws {
    let stamp = try #require(TimestampParser.parse(text))
    #expect(stamp.description == text)
  }

  @Test(
    "Impossible or unknown forms are rejected",
    arguments: [
      "2019-02-30", "2019-02-29T10:00:00", "2019-13-01", "2019-00-10", "2019-05-00", "2019-05-15T25:00:00",
      "2019-05-15T24:00:00", "2019-05-15T14:60:00", "2019-05-15T14:28:60", "2018--11T10:00:00", "2019-05-15T14:28",
      "2019-05-15 14:28:01", "2019-05-15t14:28:01", "2019-05-15T14:28:01z", "2019-05-15T14:28:01.", "19-05-15",
      "2019-05-15T14:28:01+2", "2019-05-15T14:28:01+24:00", "2019-05-15T14:28:01+02:60",
      "2019-05-15T14:28:01.1234567890",
      "2019-05-15T14:28:01+02:00Z", "", "2019-5-15", "2019-05-15T14:28:01 ",
    ])
  func rejects(text: String) {
    #expect(TimestampParser.parse(text) == nil)
  }

  @Test("Instants are absolute; offsets move them")
  func instants() throws {
    let utc = try #require(TimestampParser.parse("2019-05-15T12:00:00Z"))
    let paris = try #require(TimestampParser.parse("2019-05-15T14:00:00+02:00"))
    let compact = try #require(TimestampParser.parse("2019-05-15T14:00:00+0200"))
    #expect(utc.compareInstant(paris) == 0)
    #expect(compact.compareInstant(paris) == 0)
    #expect(utc.epochSeconds == 1_557_921_600)
    let later = try #require(TimestampParser.parse("2019-05-15T12:00:00.5Z"))
    #expect(utc < later)
  }

  @Test("Days are as written without a zone")
  func daysAsWritten() throws {
    var stamp = try #require(TimestampParser.parse("2019-05-15T23:30:00-05:00"))
    #expect(ZoneResolver.asWritten.resolve(&stamp).description == "2019-05-15")
  }

  @Test("With --timezone, offsets convert into the zone and offset-less times are local to it")
  func daysInZone() throws {
    let amsterdam = try #require(ZoneResolver(identifier: "Europe/Amsterdam"))
    var late = try #require(TimestampParser.parse("2019-05-15T23:30:00Z"))
    #expect(amsterdam.resolve(&late).description == "2019-05-16")  // 01:30 CEST
    var winter = try #require(TimestampParser.parse("2019-01-15T23:30:00Z"))
    #expect(amsterdam.resolve(&winter).description == "2019-01-16")  // 00:30 CET
    var local = try #require(TimestampParser.parse("2019-05-15T23:30:00"))
    #expect(amsterdam.resolve(&local).description == "2019-05-15")
    #expect(local.epochSeconds == (try #require(TimestampParser.parse("2019-05-15T21:30:00Z"))).epochSeconds)
    let utc = try #require(ZoneResolver(identifier: "UTC"))
    var shifted = try #require(TimestampParser.parse("2019-05-15T01:00:00+02:00"))
    #expect(utc.resolve(&shifted).description == "2019-05-14")
    #expect(ZoneResolver(identifier: "Mars/Olympus") == nil)
  }

  @Test(
    "The zone table (from the system's zoneinfo on Linux) agrees with Foundation across recent years",
    .enabled(if: ZoneDatabaseTests.hasSystemZoneinfo, ZoneDatabaseTests.skipNote))
  func zoneTable() throws {
    for name in ["Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
      let zone = try #require(TimeZone(identifier: name))
      let resolver = try #require(ZoneResolver(identifier: name))
      var seconds: Int64 = 0
      while seconds < 1_900_000_000 {
        let expected = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        #expect(resolver.offset(atUTC: seconds) == expected, "\(name) at \(seconds)")
        seconds += 86_400 * 7 + 3_599
      }
    }
  }

  @Test("Calendar arithmetic round-trips")
  func calendar() {
    for days in stride(from: -800_000, through: 3_000_000, by: 997) {
      let (year, month, day) = CalendarMath.civilFromDays(days)
      #expect(CalendarMath.daysFromCivil(year: year, month: month, day: day) == days)
    }
  }

  @Test("Four-digit years: the unsigned day count equals the general one")
  func fourDigitYears() {
    for year in 0...9999 {
      for month in 1...12 {
        for day in [1, 28, CalendarMath.daysInMonth(year: year, month: month)] {
          let fast = CalendarMath.daysFromCivil(fourDigitYear: year, month: month, day: day)
          if fast != CalendarMath.daysFromCivil(year: year, month: month, day: day) {
            Issue.record("\(year)-\(month)-\(day): \(fast)")
            return
          }
        }
      }
    }
  }

  @Test("The word-at-a-time parser accepts and gives exactly what the byte-at-a-time one does")
  func wordAtATimeMatchesBytewise() {
    let seeds = [
      "2019-05-15T14:28:01", "2020-02-29T23:59:59.999999999-05:30", "0000-01-01T00:00:00Z",
      "9999-12-31T23:59:59+0200", "2023-01-01T00:00:00+05:30", "2100-02-28T12:34:56.5",
    ]
    // Bytes that are near a digit or a separator in ASCII and in nibbles.
    let alphabet: [UInt8] =
      Array("0123456789:;/-.T tZz+,".utf8) + [0x00, 0x20, 0x3A, 0x3F, 0x40, 0x7F, 0x80, 0xF0, 0xF9, 0xFA, 0xFF]
    var random = SplitMix64(seed: 20_251_121)
    var checked = 0
    func check(_ bytes: [UInt8]) {
      let (word, byte) = bytes.withUnsafeBufferPointer {
        (TimestampParser.parse($0), TimestampParser.parseBytewise($0))
      }
      if word != byte {
        Issue.record(
          "\(String(decoding: bytes, as: UTF8.self)): \(String(describing: word)) vs \(String(describing: byte))")
      }
      checked += 1
    }
    for seed in seeds {
      let bytes = Array(seed.utf8)
      check(bytes)
      for position in 0..<min(bytes.count, 19) {
        for replacement in alphabet {
          var mutated = bytes
          mutated[position] = replacement
          check(mutated)
        }
      }
    }
    // Random dates and times, most in range, some not.
    for _ in 0..<200_000 {
      let year = Int(random.next() % 10_000)
      let month = Int(random.next() % 14)
      let day = Int(random.next() % 33)
      let hour = Int(random.next() % 26)
      let minute = Int(random.next() % 62)
      let second = Int(random.next() % 62)
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
      var bytes = Array("\(yearText)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))".utf8)
      if random.next() % 4 == 0 {
        bytes[Int(random.next() % 19)] = alphabet[Int(random.next() % UInt64(alphabet.count))]
      }
      check(bytes)
    }
    #expect(checked > 200_000)
  }

  /// The fraction and offset parser as it was first written, byte by byte
  /// with checked arithmetic: the reference for the one with wrapping
  /// arithmetic and a table for the fraction's scale.
  static func referenceFractionAndOffset(_ bytes: [UInt8], into stamp: inout Timestamp) -> Bool {
    let count = bytes.count
    func digit(_ index: Int) -> Int? {
      let value = bytes[index] &- UInt8(ascii: "0")
      return value < 10 ? Int(value) : nil
    }
    func twoDigits(_ index: Int) -> Int? {
      guard let tens = digit(index), let ones = digit(index + 1) else { return nil }
      return tens * 10 + ones
    }
    var index = 19
    if index < count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      var nanos: UInt32 = 0
      var digits: UInt8 = 0
      while index < count, let value = digit(index) {
        guard digits < 9 else { return false }
        nanos = nanos * 10 + UInt32(value)
        digits += 1
        index += 1
      }
      guard digits > 0 else { return false }
      var scale = digits
      while scale < 9 {
        nanos *= 10
        scale += 1
      }
      stamp._nanosecond = nanos
      stamp._fractionDigits = digits
    }
    var offsetSeconds: Int64 = 0
    if index < count {
      let sign = bytes[index]
      if sign == UInt8(ascii: "Z") {
        stamp.style = .zulu
        index += 1
      } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        guard index + 3 <= count, let offsetHours = twoDigits(index + 1) else { return false }
        var offsetMinutes = 0
        if index + 6 == count && bytes[index + 3] == UInt8(ascii: ":"), let minutes = twoDigits(index + 4) {
          offsetMinutes = minutes
          stamp.style = .colon
          index += 6
        } else if index + 5 == count, let minutes = twoDigits(index + 3) {
          offsetMinutes = minutes
          stamp.style = .compact
          index += 5
        } else {
          return false
        }
        guard offsetHours < 24, offsetMinutes < 60 else { return false }
        let total = offsetHours * 60 + offsetMinutes
        stamp._offsetNegative = sign == UInt8(ascii: "-")
        stamp._offsetMinutes = Int16(sign == UInt8(ascii: "-") ? -total : total)
        offsetSeconds = Int64(stamp.offsetMinutes) * 60
      } else {
        return false
      }
    }
    guard index == count else { return false }
    stamp._epochSeconds -= offsetSeconds
    return true
  }

  @Test("Fractions and offsets: the parser gives exactly what the reference does")
  func fractionAndOffsetMatchReference() {
    let pieces = [
      ".", "1", "12", "123", "123456789", "1234567890", "Z", "z", "+", "-", "02", "00", ":", "30", "0200", "24",
      "60", "59", "23", " ", "a", "/", "9",
    ]
    let prefix = Array("2019-05-15T14:28:01".utf8)
    var random = SplitMix64(seed: 20_251_210)
    var accepted = 0
    var checked = 0
    func check(_ suffix: [UInt8]) {
      let bytes = prefix + suffix
      var parsed = Timestamp.epoch
      let ok = bytes.withUnsafeBufferPointer { buffer in
        TimestampParser.parseDateTime(buffer, into: &parsed) != nil
          && TimestampParser.parseFractionAndOffset(buffer, into: &parsed)
      }
      var reference = Timestamp.epoch
      let referenceOK =
        bytes.withUnsafeBufferPointer { TimestampParser.parseDateTime($0, into: &reference) != nil }
        && Self.referenceFractionAndOffset(bytes, into: &reference)
      if ok != referenceOK || (ok && parsed != reference) {
        Issue.record("\(String(decoding: bytes, as: UTF8.self)): \(ok) \(parsed) vs \(referenceOK) \(reference)")
      }
      checked += 1
      if ok { accepted += 1 }
    }
    for first in pieces {
      for second in [""] + pieces {
        for third in [""] + pieces { check(Array((first + second + third).utf8)) }
      }
    }
    for _ in 0..<50_000 {
      let count = 1 + Int(random.next() % 5)
      check(Array((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined().utf8))
    }
    #expect(checked > 50_000)
    #expect(accepted > 1_000)
  }

  @Test("Parsing with the last date cached gives exactly what parsing without does, in any order")
  func cachedDateMatchesUncached() {
    // Runs of one date, dates that differ in one byte, invalid dates and
    // times after valid ones, and texts of every form.
    let dates = ["2019-05-15", "2019-05-16", "2019-06-15", "2020-02-29", "2019-02-29", "2019-13-01", "2019-05-1x"]
    let times = ["T14:28:01", "T00:00:00", "T23:59:59", "T24:00:00", "T14:60:00", "t14:28:01", ""]
    let suffixes = ["", "", "", "Z", ".5", "+02:00", "-0530", ".123Z", "+24:00", "x"]
    var random = SplitMix64(seed: 20_251_212)
    var cache = DateCache()
    var accepted = 0
    for _ in 0..<30_000 {
      let text =
        dates[Int(random.next() % UInt64(dates.count))] + times[Int(random.next() % UInt64(times.count))]
        + suffixes[Int(random.next() % UInt64(suffixes.count))]
      let bytes = Array(text.utf8)
      var cached = Timestamp.epoch
      var uncached = Timestamp.epoch
      let (withCache, without) = bytes.withUnsafeBufferPointer {
        (TimestampParser.parse($0, into: &cached, cache: &cache), TimestampParser.parse($0, into: &uncached))
      }
      if withCache != without || (without != nil && cached != uncached) {
        Issue.record(
          "\(text): \(String(describing: withCache)) \(cached) vs \(String(describing: without)) \(uncached)")
      }
      if without != nil { accepted += 1 }
    }
    #expect(accepted > 5_000)
  }
}
