import Testing

@testable import TxFold

/// `ByteScratch`'s writers of days, timestamps, counts and amounts must write
/// the bytes the array writers (`appendText`, `appendDecimal`) append: the
/// group writer uses one or the other, and a report's bytes may not depend on
/// which.
@Suite("Scratch memory writers")
struct ByteScratchTests {
  /// What `write` puts in a fresh scratch of 1 KiB, with the array writer's bytes.
  static func written(_ write: (inout ByteScratch, inout [UInt8]) -> Void) -> [UInt8] {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1_024) { memory in
      var scratch = ByteScratch(memory)
      var out: [UInt8] = []
      write(&scratch, &out)
      scratch.move(to: &out)
      return out
    }
  }

  static func timestamp(
    year: Int16, fraction: UInt8, style: Timestamp.OffsetStyle, negative: Bool = false, offset: Int16 = 0
  ) -> Timestamp {
    Timestamp(
      year: year, month: 7, day: 31, hour: 23, minute: 5, second: 9, fractionDigits: fraction, style: style,
      offsetNegative: negative, nanosecond: 123_456_789, offsetMinutes: offset, epochSeconds: 0)
  }

  @Test("timestamps: every style and fraction, four-digit years and years built by hand")
  func timestamps() {
    let styles: [Timestamp.OffsetStyle] = [.dateOnly, .none, .zulu, .colon, .compact]
    var checked = 0
    for year: Int16 in [0, 1, 999, 2024, 9999, 10_000, -1, .max, .min] {
      for style in styles {
        for fraction: UInt8 in 0...9 {
          for (negative, offset) in [(false, Int16(0)), (true, 0), (false, 90), (true, 14 * 60 + 59)] {
            let value = Self.timestamp(year: year, fraction: fraction, style: style, negative: negative, offset: offset)
            var expected: [UInt8] = []
            value.appendText(to: &expected)
            #expect(Self.written { scratch, _ in scratch.write(value) } == expected, "\(value)")
            checked += 1
          }
        }
      }
    }
    #expect(checked == 9 * 5 * 10 * 4)
    // Built by hand past what the parser accepts: more than nine fraction
    // digits, an offset of hundreds of hours. Neither writer traps, and both agree.
    for value in [
      Self.timestamp(year: 2024, fraction: 12, style: .zulu),
      Self.timestamp(year: 2024, fraction: 255, style: .none),
      Self.timestamp(year: 2024, fraction: 3, style: .colon, negative: true, offset: .max),
      Self.timestamp(year: 2024, fraction: 0, style: .compact, offset: .min),
    ] {
      var expected: [UInt8] = []
      value.appendText(to: &expected)
      #expect(Self.written { scratch, _ in scratch.write(value) } == expected, "\(value)")
    }
  }

  @Test("days: the first and last printed, the epoch, and days built by hand far outside")
  func days() {
    for days: Int32 in [-719_162, 2_932_896, 0, -1, 19_000, -719_163, 2_932_897, .max, .min, -800_000] {
      let day = CalendarDay(daysSinceEpoch: days)
      var expected: [UInt8] = []
      day.appendText(to: &expected)
      #expect(Self.written { scratch, _ in scratch.write(day) } == expected, "\(days)")
    }
  }

  @Test("counts and amounts, in a word and past it")
  func numbers() throws {
    for value in [0, 1, -1, 9, 10, -10, 1_234_567, Int.max, Int.min] {
      var expected: [UInt8] = []
      expected.appendDecimal(value)
      #expect(Self.written { scratch, _ in scratch.writeDecimal(value) } == expected, "\(value)")
    }
    let amounts = [
      "0", "-0.00", "12.5", "-7.125", "18446744073709551615", "18446744073709551616.5",
      "-12345678901234567890123456.123456789", "0.000000000000000001",
    ]
    for text in amounts {
      let amount = try #require(ExactDecimal(text), "\(text)")
      var expected: [UInt8] = []
      amount.appendText(to: &expected)
      #expect(Self.written { scratch, out in scratch.write(amount, flushingTo: &out) } == expected, "\(text)")
    }
  }

  @Test("strings longer than the scratch go through the buffer, in order")
  func longStrings() {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000)
    let bytes = Self.written { scratch, out in
      scratch.write("ab")
      long.withUnsafeBufferPointer { scratch.write($0, flushingTo: &out) }
      scratch.makeRoom(2, flushingTo: &out)
      scratch.write("cd")
      Array("ef".utf8).withUnsafeBufferPointer { scratch.write($0, flushingTo: &out) }
    }
    #expect(bytes == Array("ab".utf8) + long + Array("cdef".utf8))
  }
}
