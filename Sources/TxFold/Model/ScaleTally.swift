/// The two largest scales among a sum's amounts and how many amounts have
/// each. A sum prints with its amounts' largest scale; taking amounts out
/// again (`--dedupe` taking its losers out of a first pass's sums:
/// `GroupTable.retract`, `SummaryAccumulator.subtract`) leaves that scale
/// known while an amount of it or of the next one is left. Both tallies are exact, because an amount of
/// any other scale is smaller than both: taking out a set of amounts whose
/// own tally is known removes from each count exactly what it should.
struct ScaleTally: Sendable, Equatable {
  private(set) var top: UInt8 = 0
  private(set) var next: UInt8 = 0
  private(set) var topCount = 0
  private(set) var nextCount = 0

  @inline(__always)
  mutating func add(_ scale: UInt8, count: Int = 1) {
    if scale == top {
      topCount += count
    } else if scale > top {
      (next, nextCount) = topCount > 0 ? (top, topCount) : (0, 0)
      (top, topCount) = (scale, count)
    } else if scale == next || nextCount == 0 {
      next = scale
      nextCount += count
    } else if scale > next {
      (next, nextCount) = (scale, count)
    }
  }

  mutating func add(_ other: ScaleTally) {
    if other.topCount > 0 { add(other.top, count: other.topCount) }
    if other.nextCount > 0 { add(other.next, count: other.nextCount) }
  }

  /// Takes out amounts whose tally is `other`; returns the scale the rest
  /// prints with (`nil` when unknown, or nothing is left).
  mutating func remove(_ other: ScaleTally) -> UInt8? {
    for (scale, count) in [(other.top, other.topCount), (other.next, other.nextCount)] where count > 0 {
      if scale == top { topCount -= count } else if scale == next { nextCount -= count }
    }
    guard topCount >= 0, nextCount >= 0 else { return nil }
    if topCount > 0 { return top }
    guard nextCount > 0 else { return nil }
    (top, topCount, next, nextCount) = (next, nextCount, 0, 0)
    return top
  }
}
