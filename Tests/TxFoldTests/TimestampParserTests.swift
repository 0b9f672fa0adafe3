import Foundation
import Testing

@testable import TxFold

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

  @Test("The zone table agrees with Foundation across years")
  func zoneTable() throws {
    for name in ["Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
      let zone = try #require(TimeZone(identifier: name))
      let resolver = ZoneResolver(zone: zone)
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
}
