/// The significand as one `Int128`, where the standard library has it: always
/// on Linux, from iOS 18 / macOS 15 on Apple platforms. The library itself
/// uses only the two words (`significandHigh`, `significandLow`), so that it
/// runs on the older systems `Package.swift` declares; `Scripts/portability.sh`
/// fails on an `Int128` outside a declaration like these.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension ExactDecimal {
  /// The integer whose value, divided by `10^scale`, is the number.
  @inlinable public var significand: Int128 {
    get { Int128(wide.high) << 64 | Int128(wide.low) }
    set { wide = WideInt(high: Int64(truncatingIfNeeded: newValue >> 64), low: UInt64(truncatingIfNeeded: newValue)) }
  }

  /// Creates a decimal from its parts; a `scale` above `maxScale` (18) traps, as for
  /// `init(significandHigh:significandLow:scale:)`.
  @inlinable public init(significand: Int128, scale: UInt8) {
    self.init(
      significandHigh: Int64(truncatingIfNeeded: significand >> 64),
      significandLow: UInt64(truncatingIfNeeded: significand), scale: scale)
  }
}
