/// A count and exact sums in one currency, money in and money out apart, with
/// the largest scales among the amounts: what a summary cell holds, whether a
/// worker sums it over a chunk or the accumulator over the whole run, and
/// what passes from one to the other.
struct SummarySums: Sendable {
  var count = 0
  /// The sum of the non-negative amounts (zero with scale 0 when none).
  var income = ExactDecimal.zero
  /// The sum of the negative amounts (zero with scale 0 when none).
  var expense = ExactDecimal.zero
  /// The two largest scales among the amounts, and how many have each, so
  /// that sums taken out again (`remove(_:)`) know the scale left.
  var scales = ScaleTally()

  /// Counts one amount in, as income or expense by its sign; `false` on
  /// overflow, when nothing changes.
  @inline(__always)
  mutating func add(_ amount: ExactDecimal) -> Bool {
    if amount.isNegative {
      guard let sum = expense.adding(amount) else { return false }
      expense = sum
    } else {
      guard let sum = income.adding(amount) else { return false }
      income = sum
    }
    count += 1
    scales.add(amount.scale)
    return true
  }

  /// Adds another part's sums; `false` on overflow, when nothing changes.
  mutating func add(_ other: SummarySums) -> Bool {
    guard let income = income.adding(other.income), let expense = expense.adding(other.expense) else { return false }
    self.income = income
    self.expense = expense
    count += other.count
    scales.add(other.scales)
    return true
  }

  /// Takes a part's sums back out. Sums are exact, so what is left is what
  /// summing the rest alone gives — the count, the sums and, as long as an
  /// amount of the largest scale is left, that scale (the sums divide down to
  /// the new largest exactly). `false`, when nothing changes, if the scale
  /// left is no longer known or more is taken out than was added.
  mutating func remove(_ other: SummarySums) -> Bool {
    guard let income = income.subtracting(other.income), let expense = expense.subtracting(other.expense) else {
      return false
    }
    var left = self
    left.income = income
    left.expense = expense
    left.count -= other.count
    guard left.count >= 0 else { return false }
    if left.count == 0 {
      left.scales = ScaleTally()
    } else {
      guard let scale = left.scales.remove(other.scales),
        let income = left.income.reduced(toScale: min(scale, left.income.scale)),
        let expense = left.expense.reduced(toScale: min(scale, left.expense.scale))
      else { return false }
      left.income = income
      left.expense = expense
    }
    self = left
    return true
  }
}
