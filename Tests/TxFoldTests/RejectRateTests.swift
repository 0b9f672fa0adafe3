import Testing

@testable import TxFold

/// `maxRejectRate`, judged exactly: the boundary share passes, one more rejection fails.
@Suite("Reject rate")
struct RejectRateTests {
  static func stats(lines: Int, rejected: Int) -> RunStats {
    var stats = RunStats()
    stats.lines = lines
    stats.rejected = rejected
    stats.accepted = lines - rejected
    return stats
  }

  @Test("At the limit passes, past it fails, in exact arithmetic")
  func boundary() throws {
    let onePercent = ExactDecimal("0.01")
    #expect(RejectRateExceeded(stats: Self.stats(lines: 100, rejected: 1), limit: onePercent) == nil)
    #expect(RejectRateExceeded(stats: Self.stats(lines: 100, rejected: 2), limit: onePercent) != nil)
    // 1/3 of lines against 0.333…: a double quotient would round; the integers do not.
    let third = ExactDecimal("0.333333333333333333")
    #expect(RejectRateExceeded(stats: Self.stats(lines: 3, rejected: 1), limit: third) != nil)
    #expect(
      RejectRateExceeded(stats: Self.stats(lines: 3_000_000_000_000_000, rejected: 999_999_999_999_999), limit: third)
        == nil)
    // No limit, no lines, no rejection: nothing to judge.
    #expect(RejectRateExceeded(stats: Self.stats(lines: 10, rejected: 10), limit: nil) == nil)
    #expect(RejectRateExceeded(stats: Self.stats(lines: 0, rejected: 0), limit: .zero) == nil)
    #expect(RejectRateExceeded(stats: Self.stats(lines: 10, rejected: 0), limit: .zero) == nil)
    #expect(RejectRateExceeded(stats: Self.stats(lines: 10, rejected: 1), limit: .zero) != nil)
    // Counts near Int.max do not trap.
    #expect(RejectRateExceeded(stats: Self.stats(lines: .max, rejected: .max), limit: onePercent) != nil)
  }

  @Test("The message gives the share to two decimals")
  func message() throws {
    let failure = try #require(
      RejectRateExceeded(stats: Self.stats(lines: 22, rejected: 2), limit: ExactDecimal("0.05")))
    #expect(failure.description == "2 of 22 lines rejected (9.09 %), more than maxRejectRate 0.05 allows.")
  }
}
