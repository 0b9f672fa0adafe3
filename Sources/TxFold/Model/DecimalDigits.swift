/// Whole numbers and fixed-width fields written as decimal digits into raw
/// memory: the one digit writer behind `Timestamp` and `CalendarDay` text,
/// `[UInt8].appendDecimal` and the report writers' scratch memory. The caller
/// gives the room (`signedLimit` bytes for any `Int`).
enum DecimalDigits {
  /// The most bytes `write(signed:to:)` writes: a sign and 19 digits.
  static let signedLimit = 20

  /// Writes `value` as `String(value)` does, returning how many bytes.
  @inline(__always)
  static func write(signed value: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
    guard value < 0 else { return write(value.magnitude, to: target) }
    target[0] = .minus
    return 1 &+ write(value.magnitude, to: target + 1)
  }

  /// Writes `magnitude` with no leading zeros (`0` for zero), returning how many bytes.
  @inline(__always)
  static func write(_ magnitude: UInt, to target: UnsafeMutablePointer<UInt8>) -> Int {
    var digits = 1
    var probe = magnitude / 10
    while probe > 0 {
      digits &+= 1
      probe /= 10
    }
    var rest = magnitude
    var at = digits
    repeat {
      at &-= 1
      target[at] = .zero &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
    return digits
  }

  /// Writes two bytes: the tens and the units of `value` (a value above 99,
  /// which only a timestamp built by hand holds, gives a non-digit first byte
  /// rather than a trap).
  @inline(__always)
  static func writeTwo(_ value: UInt8, to target: UnsafeMutablePointer<UInt8>) {
    target[0] = .zero &+ value / 10
    target[1] = .zero &+ value % 10
  }

  /// Writes `value`, below 10,000, as four digits with leading zeros.
  @inline(__always)
  static func writeFour(_ value: UInt, to target: UnsafeMutablePointer<UInt8>) {
    target[0] = .zero &+ UInt8(truncatingIfNeeded: value / 1000)
    target[1] = .zero &+ UInt8(truncatingIfNeeded: value / 100 % 10)
    target[2] = .zero &+ UInt8(truncatingIfNeeded: value / 10 % 10)
    target[3] = .zero &+ UInt8(truncatingIfNeeded: value % 10)
  }
}
