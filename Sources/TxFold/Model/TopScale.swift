/// The largest scale among a sum's amounts and how many amounts have it. A
/// sum's scale is its amounts' largest; taking amounts out again
/// (`--dedupe` taking its losers out of a first pass's sums) leaves the sum's scale where it was, which
/// is right only while an amount of that scale is left.
struct TopScale: Sendable, Equatable {
  private(set) var scale: UInt8 = 0
  private(set) var count = 0

  @inline(__always)
  mutating func add(scale: UInt8, count: Int = 1) {
    if scale > self.scale {
      self.scale = scale
      self.count = count
    } else if scale == self.scale {
      self.count += count
    }
  }

  mutating func add(_ other: TopScale) { add(scale: other.scale, count: other.count) }

  /// Takes out amounts whose largest scale `other` tells, `leaving` amounts
  /// in the sum; `false` when the sum's largest scale is then unknown (every
  /// amount of it taken out, others left).
  mutating func remove(_ other: TopScale, leaving: Int) -> Bool {
    if leaving == 0 {
      self = TopScale()
      return true
    }
    guard other.scale <= scale else { return false }
    if other.scale == scale { count -= other.count }
    return count > 0
  }
}
