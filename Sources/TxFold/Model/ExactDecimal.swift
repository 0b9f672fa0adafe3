/// An exact, signed decimal number: `significand × 10^-scale`.
///
/// Amounts are parsed from their decimal text and never pass through a binary
/// floating-point type, so `"0.10"` stays `0.10` and sums are exact to the last
/// digit. The significand is a 128-bit two's-complement integer, which holds any
/// 38-digit number, kept in two 64-bit words (`significandHigh`, `significandLow`)
/// so that the type needs no `Int128` (iOS 18 / macOS 15 on Apple platforms);
/// where `Int128` is available, `significand` reads and writes it as one.
/// `scale` is the number of fraction digits as written (at most 18).
///
/// The scale is part of how the value prints, not of the value: `"0.10"`
/// prints as `0.10` and a sum prints with the largest scale among its
/// addends, yet `==`, `<` and hashing are numeric and ignore the scale
/// (`1.50 == 1.5`, as for Foundation's `Decimal`); compare `description`s to
/// tell the two apart.
public struct ExactDecimal: Sendable, CustomStringConvertible {
  /// The integer whose value, divided by `10^scale`, is the number.
  @usableFromInline var wide: WideInt
  /// The number of fraction digits (0...18). Setting more traps: no value of the type has them.
  public var scale: UInt8 {
    didSet { precondition(scale <= Self.maxScale, "ExactDecimal holds at most 18 fraction digits, not \(scale)") }
  }

  /// The largest number of fraction digits an amount may have.
  public static let maxScale: UInt8 = 18
  /// The largest number of significant digits an amount may have.
  public static let maxSignificantDigits = 38

  /// Zero with no fraction digits, the start of every sum.
  public static let zero = ExactDecimal(wide: 0, scale: 0)

  /// 10^`exponent` for 0 ≤ `exponent` ≤ 18 (`maxScale`). A `switch` of
  /// constants, which the compiler makes one load from a constant table (no
  /// lazily initialised array, no loop); other exponents wrap as before.
  @inlinable
  static func powerOfTen(_ exponent: Int) -> Int64 {
    switch exponent {
    case 0: return 1
    case 1: return 10
    case 2: return 100
    case 3: return 1_000
    case 4: return 10_000
    case 5: return 100_000
    case 6: return 1_000_000
    case 7: return 10_000_000
    case 8: return 100_000_000
    case 9: return 1_000_000_000
    case 10: return 10_000_000_000
    case 11: return 100_000_000_000
    case 12: return 1_000_000_000_000
    case 13: return 10_000_000_000_000
    case 14: return 100_000_000_000_000
    case 15: return 1_000_000_000_000_000
    case 16: return 10_000_000_000_000_000
    case 17: return 100_000_000_000_000_000
    case 18: return 1_000_000_000_000_000_000
    default:
      var power: Int64 = 1
      for _ in 0..<max(0, exponent) { power &*= 10 }
      return power
    }
  }

  /// Creates a decimal from its parts without checking the range.
  @inlinable @inline(__always)
  init(wide: WideInt, scale: UInt8) {
    self.wide = wide
    self.scale = scale
  }

  /// Creates a decimal from the two 64-bit words of its 128-bit two's-complement
  /// significand: the value is `(significandHigh × 2^64 + significandLow) × 10^-scale`.
  /// Every significand is a value (past the 38 digits an input amount may have); a `scale`
  /// above `maxScale` (18) traps, as a programmer's error: no value of the type has more
  /// fraction digits.
  @inlinable public init(significandHigh: Int64, significandLow: UInt64, scale: UInt8) {
    precondition(scale <= Self.maxScale, "ExactDecimal holds at most 18 fraction digits, not \(scale)")
    self.init(wide: WideInt(high: significandHigh, low: significandLow), scale: scale)
  }

  /// The upper 64 bits of the 128-bit two's-complement significand, with its sign.
  @inlinable public var significandHigh: Int64 {
    get { wide.high }
    set { wide.high = newValue }
  }

  /// The lower 64 bits of the 128-bit two's-complement significand.
  @inlinable public var significandLow: UInt64 {
    get { wide.low }
    set { wide.low = newValue }
  }

  /// True when the number is zero, whatever its scale.
  @inlinable public var isZero: Bool { wide.high == 0 && wide.low == 0 }

  /// Parses decimal text such as `"1919.95"`, `"-1.54"` or `"007.5"`, with
  /// the rules for an amount written as a JSON string: no exponent, no `+`,
  /// no grouping, at most 18 fraction digits. The significand may use the
  /// type's whole 128-bit range (-2^127 to 2^127 - 1), beyond the 38
  /// significant digits an input record's amount may have: a sum can pass
  /// them (`5 × 10^37 + 5 × 10^37` is a 39-digit total), and its text must
  /// parse back.
  ///
  /// Returns `nil` for anything else; never rounds. `ExactDecimal(x.description)`
  /// gives back `x` with its scale for every value.
  public init?(_ description: String) {
    guard case .value(let value) = DecimalParser.parseWholeRange(description.utf8) else { return nil }
    self = value
  }

  /// True when the number is below zero.
  @inlinable public var isNegative: Bool { wide.isNegative }

  /// The absolute value, with the same scale. Traps for the one value whose absolute value does
  /// not fit 128 bits, -2^127 (a sum can reach it), as `abs(Int.min)` does.
  @inlinable public var magnitude: ExactDecimal {
    ExactDecimal(wide: wide.isNegative ? 0 - wide : wide, scale: scale)
  }

  /// The absolute value for drawing it against others (a bar's length): `magnitude`, except
  /// that -2^127, whose magnitude does not fit 128 bits and would trap, gives 2^127 - 1 at the
  /// same scale — one unit in the last place, which no bar can show.
  var drawnMagnitude: ExactDecimal {
    wide == .min ? ExactDecimal(wide: .max, scale: scale) : magnitude
  }

  /// The same number with its sign flipped; traps for -2^127, as prefix `-` does.
  @inlinable public var negated: ExactDecimal {
    ExactDecimal(wide: 0 - wide, scale: scale)
  }

  /// Returns this value written with `newScale` fraction digits, or `nil` if
  /// that overflows 128 bits. `newScale` must not be smaller than `scale`.
  @inlinable
  public func rescaled(to newScale: UInt8) -> ExactDecimal? {
    if newScale == scale { return self }
    precondition(newScale > scale, "rescaling would drop digits")
    // At most 10^18: one 128 × 64-bit multiply of the magnitude.
    let factor = UInt64(Self.powerOfTen(Int(newScale - scale)))
    let (product, overflow) = wide.magnitude.multipliedReportingOverflow(by: factor, adding: 0)
    guard !overflow, let scaled = WideInt(magnitude: product, negative: wide.isNegative) else { return nil }
    return ExactDecimal(wide: scaled, scale: newScale)
  }

  /// The exact sum, printed with the larger scale of the two, or `nil` on overflow.
  @inlinable @inline(__always)
  public func adding(_ other: ExactDecimal) -> ExactDecimal? {
    if other.scale <= self.scale && self.scale <= Self.maxScale, let small = other.wide.exactInt64 {
      // The usual case in a running sum: an addend with no more fraction digits than
      // the sum and a significand of 64 bits. Scaled by at most 10^18 it stays below
      // 2^123, so only the addition can overflow; one 64 × 64 → 128-bit multiply.
      let shift = Int(self.scale &- other.scale)
      let scaled: WideInt
      if shift == 0 {
        scaled = other.wide
      } else {
        let (high, low) = small.multipliedFullWidth(by: Self.powerOfTen(shift))
        scaled = WideInt(high: high, low: low)
      }
      let (sum, overflow) = wide.addingReportingOverflow(scaled)
      return overflow ? nil : ExactDecimal(wide: sum, scale: self.scale)
    }
    return addingRescaled(other)
  }

  /// `adding(_:)` past its fast path: both operands rescaled to the larger scale.
  @usableFromInline
  func addingRescaled(_ other: ExactDecimal) -> ExactDecimal? {
    let scale = Swift.max(self.scale, other.scale)
    guard let lhs = rescaled(to: scale), let rhs = other.rescaled(to: scale) else { return nil }
    let (sum, overflow) = lhs.wide.addingReportingOverflow(rhs.wide)
    if overflow { return nil }
    return ExactDecimal(wide: sum, scale: scale)
  }

  /// Numeric three-way comparison: -1, 0 or 1. `1.50` and `1.5` compare equal.
  public func compare(_ other: ExactDecimal) -> Int {
    let scale = Swift.max(self.scale, other.scale)
    if let lhs = rescaled(to: scale), let rhs = other.rescaled(to: scale) {
      return lhs.wide < rhs.wide ? -1 : (lhs.wide == rhs.wide ? 0 : 1)
    }
    // Rescaling overflows only near the 128-bit range: compare the integer
    // parts, then the fraction parts, which are below 10^18 and always rescale.
    // Both divisions truncate toward zero, so a part keeps the value's sign.
    let (lhsInteger, lhsRemainder) = wide.quotientAndRemainder(dividingBy: Self.powerOfTen(Int(self.scale)))
    let (rhsInteger, rhsRemainder) = other.wide.quotientAndRemainder(dividingBy: Self.powerOfTen(Int(other.scale)))
    if lhsInteger != rhsInteger { return lhsInteger < rhsInteger ? -1 : 1 }
    // Below 10^18 in magnitude, times at most 10^18: within 128 bits.
    let lhsFraction = WideInt(lhsRemainder) * WideInt(Self.powerOfTen(Int(scale - self.scale)))
    let rhsFraction = WideInt(rhsRemainder) * WideInt(Self.powerOfTen(Int(scale - other.scale)))
    return lhsFraction < rhsFraction ? -1 : (lhsFraction == rhsFraction ? 0 : 1)
  }

  /// The canonical machine text: optional `-`, digits, and exactly `scale`
  /// fraction digits; no grouping separators.
  public var description: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44)
    appendText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the canonical machine text (see `description`) to a byte buffer.
  public func appendText(to out: inout [UInt8]) {
    let appended: Void? = withCanonicalText { out.append(contentsOf: $0) }
    if appended == nil {
      appendText(to: &out, decimalSeparator: UInt8(ascii: "."), groupingSeparator: [], minimumGroupingDigits: 1)
    }
  }

  /// The most bytes `withCanonicalText` hands over: 20 digits, a point and a sign.
  static let canonicalTextLimit = 22

  /// Calls `body` with the canonical machine text's bytes for the usual case,
  /// a magnitude in one word and a scale as written (at most 18): written
  /// backwards into a word-sized room on the stack, with no array per amount
  /// (the reports write one per member). `nil`, without calling `body`, for
  /// any other value. At most `canonicalTextLimit` bytes.
  func withCanonicalText<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
    let magnitude = wide.magnitude
    guard magnitude.high == 0, scale <= 18 else { return nil }
    var room: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    let negative = wide.isNegative
    let fractionDigits = Int(scale)
    let length = Swift.withUnsafeMutableBytes(of: &room) { bytes -> Int in
      var at = bytes.count
      var rest = magnitude.low
      for _ in 0..<fractionDigits {
        at -= 1
        bytes[at] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      if fractionDigits > 0 {
        at -= 1
        bytes[at] = UInt8(ascii: ".")
      }
      repeat {
        at -= 1
        bytes[at] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest > 0
      if negative {
        at -= 1
        bytes[at] = UInt8(ascii: "-")
      }
      return bytes.count - at
    }
    return Swift.withUnsafeBytes(of: &room) { bytes in
      body(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - length)...]))
    }
  }

  /// Appends the number with a decimal separator and an optional grouping
  /// separator inserted every three integer digits.
  ///
  /// `minimumGroupingDigits` follows CLDR: with 2 (Spanish), a four-digit
  /// integer part is not grouped (`1919,95` but `19.919,95`).
  public func appendText(
    to out: inout [UInt8], decimalSeparator: UInt8, groupingSeparator: [UInt8], minimumGroupingDigits: Int
  ) {
    var digits: [UInt8] = []
    digits.reserveCapacity(40)
    // Work on the unsigned magnitude so the smallest significand prints correctly.
    let magnitude = wide.magnitude
    if magnitude.high == 0 {
      // The usual case: one 64-bit word.
      var rest = magnitude.low
      repeat {
        digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
        rest /= 10
      } while rest > 0
    } else {
      magnitude.appendDigits(to: &digits)
      digits.reverse()
    }
    while digits.count <= Int(scale) { digits.append(UInt8(ascii: "0")) }
    if wide.isNegative { out.append(UInt8(ascii: "-")) }
    let integerDigits = digits.count - Int(scale)
    let grouping = !groupingSeparator.isEmpty && integerDigits >= 3 + minimumGroupingDigits
    for position in 0..<integerDigits {
      let remaining = integerDigits - position
      if grouping && position > 0 && remaining % 3 == 0 { out.append(contentsOf: groupingSeparator) }
      out.append(digits[digits.count - 1 - position])
    }
    if scale > 0 {
      out.append(decimalSeparator)
      for position in integerDigits..<digits.count { out.append(digits[digits.count - 1 - position]) }
    }
  }
}
