import Foundation
import Testing
import TxFold

@Suite("Timestamp to Date")
struct TimestampDateTests {
  static func timestamp(_ text: String) throws -> Timestamp {
    try JSONDecoder().decode([Timestamp].self, from: Data("[\"\(text)\"]".utf8))[0]
  }

  @Test(
    "date is the instant, offsets applied",
    arguments: [
      ("2019-05-17T14:28:01Z", 1_558_103_281.0), ("2019-05-17T16:28:01+02:00", 1_558_103_281.0),
      ("2022-07-10T10:59:05+0200", 1_657_443_545.0), ("2018-07-11T22:49:24.000Z", 1_531_349_364.0),
      ("2019-05-17", 1_558_051_200.0), ("1970-01-01T00:00:00Z", 0), ("1969-12-31T23:59:59.5Z", -0.5),
      ("2019-05-15T14:28:01.123", 1_557_930_481.123), ("0001-01-01T00:00:00Z", -62_135_596_800),
      ("9999-12-31T23:59:59.999999999Z", 253_402_300_799.999999999),
    ])
  func date(text: String, seconds: Double) throws {
    let date = try Self.timestamp(text).date
    // Date holds a Double: exact to its precision at that distance from 2001.
    let tolerance = max(1e-6, abs(date.timeIntervalSinceReferenceDate) * 4e-16)
    #expect(abs(date.timeIntervalSince1970 - seconds) <= tolerance, "\(text): \(date.timeIntervalSince1970)")
  }

  @Test("Whole seconds are exact and the order of dates is the order of instants")
  func wholeSecondsAndOrder() throws {
    let texts = [
      "2019-05-17T14:28:01Z", "2019-05-17T14:28:01.000000001Z", "2019-05-17T14:28:01.5+00:00",
      "2019-05-17T16:28:02+02:00",
    ]
    let stamps = try texts.map(Self.timestamp)
    #expect(stamps[0].date.timeIntervalSince1970 == 1_558_103_281)
    #expect(stamps.map(\.date) == stamps.map(\.date).sorted())
    #expect(stamps[2].date.timeIntervalSince(stamps[0].date) == 0.5)
  }

  /// Whether an app can assign through `path`.
  static func isWritable<Value>(_ path: KeyPath<Timestamp, Value>) -> Bool {
    path is WritableKeyPath<Timestamp, Value>
  }

  /// A timestamp is what a parse gives: its written parts and its instant denote each other. Were
  /// they settable, `stamp.epochSeconds = 0` would keep `2019-05-17T14:28:01Z`'s text (and `==`)
  /// with another instant (and order), and `stamp.month = 13` a day no calendar has.
  @Test("The written parts and the instant are read-only")
  func readOnlyParts() throws {
    let stamp = try Self.timestamp("2019-05-17T16:28:01.5+02:00")
    #expect(stamp.epochSeconds == 1_558_103_281 && stamp.offsetMinutes == 120 && stamp.nanosecond == 500_000_000)
    #expect(!Self.isWritable(\Timestamp.year) && !Self.isWritable(\Timestamp.month) && !Self.isWritable(\Timestamp.day))
    #expect(!Self.isWritable(\Timestamp.hour) && !Self.isWritable(\Timestamp.minute))
    #expect(!Self.isWritable(\Timestamp.second) && !Self.isWritable(\Timestamp.fractionDigits))
    #expect(!Self.isWritable(\Timestamp.offsetNegative) && !Self.isWritable(\Timestamp.nanosecond))
    #expect(!Self.isWritable(\Timestamp.offsetMinutes) && !Self.isWritable(\Timestamp.epochSeconds))
  }
}
