import TxFold

/// A small, fast, seedable pseudo-random generator (SplitMix64, Steele, Lea & Flood 2014).
///
/// Used wherever TxFold needs reproducible randomness: `txfold gen` and seeded test
/// inputs. The standard library's generators are not seedable, and its
/// `random(in:using:)` / `shuffled(using:)` algorithms are not promised to stay the same
/// across toolchains, so the helpers here draw numbers in a fixed, documented way: the
/// same seed gives the same sequence on every platform and Swift version.
struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The running state; advances by the golden-ratio increment on every draw.
  private(set) var state: UInt64

  /// Starts the sequence at `seed`; every seed, zero included, gives a full-period sequence.
  init(seed: UInt64) {
    state = seed
  }

  /// The next 64 uniformly distributed bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<bound`, from exactly one draw.
  ///
  /// Multiply-high (Lemire) without the rejection step: the bias is below `bound / 2^64`,
  /// which is irrelevant for test data, and one draw per call keeps the sequence
  /// independent of rejections. A `bound` of 0 or less gives 0.
  mutating func next(below bound: Int) -> Int {
    guard bound > 1 else { return 0 }
    return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// True with probability `percent` / 100, from one draw.
  mutating func chance(percent: Int) -> Bool {
    next(below: 100) < percent
  }

  /// Shuffles `elements` in place with Fisher–Yates, drawing one number per position.
  mutating func shuffle<Element>(_ elements: inout [Element]) {
    var index = elements.count - 1
    while index > 0 {
      elements.swapAt(index, next(below: index + 1))
      index -= 1
    }
  }
}
