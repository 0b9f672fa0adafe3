/// A transaction a group keeps to show: what the reports print of it, in one
/// allocation (id, currency and description share one byte array).
@_spi(Benchmarks) public struct KeptMember: Sendable, Hashable {
  /// When the transaction happened; it orders the members.
  public var instant: Timestamp
  /// The amount's magnitude.
  public var amount: ExactDecimal
  /// `id`, then `currency`, then `description` bytes.
  @usableFromInline var text: [UInt8]
  @usableFromInline var idLength: Int32
  @usableFromInline var currencyLength: Int32
  /// Whether the member has a description; the reports leave it out otherwise.
  public var hasDescription: Bool

  /// Creates a member, copying its strings into one byte array.
  @inlinable
  public init(instant: Timestamp, amount: ExactDecimal, id: [UInt8], currency: [UInt8], description: [UInt8]?) {
    self.instant = instant
    self.amount = amount
    var text = id
    text.append(contentsOf: currency)
    if let description { text.append(contentsOf: description) }
    self.text = text
    idLength = Int32(id.count)
    currencyLength = Int32(currency.count)
    hasDescription = description != nil
  }

  /// Creates a member from its text (id, currency, description) and their lengths.
  @inlinable
  init(
    instant: Timestamp, amount: ExactDecimal, text: [UInt8], idLength: Int32, currencyLength: Int32,
    hasDescription: Bool
  ) {
    self.instant = instant
    self.amount = amount
    self.text = text
    self.idLength = idLength
    self.currencyLength = currencyLength
    self.hasDescription = hasDescription
  }

  /// The id's bytes.
  @inlinable public var id: ArraySlice<UInt8> { text[0..<Int(idLength)] }
  /// The currency code's bytes.
  @inlinable public var currency: ArraySlice<UInt8> { text[Int(idLength)..<Int(idLength + currencyLength)] }
  /// The description's bytes, when there is one.
  @inlinable public var description: ArraySlice<UInt8>? {
    hasDescription ? text[Int(idLength + currencyLength)...] : nil
  }

  /// The report's view of this member.
  public var groupMember: GroupMember {
    GroupMember(
      id: String(decoding: id, as: UTF8.self),
      description: description.map { String(decoding: $0, as: UTF8.self) },
      amount: amount, currency: String(decoding: currency, as: UTF8.self), instant: instant)
  }

  /// Report order, a total order: most recent instant first, then id
  /// ascending byte-wise (Documentation/Formats.md, "`group` reports"), then the written form and the remaining fields so equal-looking members are
  /// chosen the same way on every run and thread count. Negative when `self`
  /// comes first.
  @inlinable
  public func compareReportOrder(_ other: KeptMember) -> Int {
    let byInstant = instant.compareInstant(other.instant)
    if byInstant != 0 { return -byInstant }
    return text.withUnsafeBufferPointer { left in
      other.text.withUnsafeBufferPointer { right in
        Self.compareAfterInstant(
          instant, amount, id: left.slice(0, Int(idLength)),
          rest: left.slice(Int(idLength), left.count - Int(idLength)),
          hasDescription: hasDescription,
          other.instant, other.amount, id: right.slice(0, Int(other.idLength)),
          rest: right.slice(Int(other.idLength), right.count - Int(other.idLength)),
          hasDescription: other.hasDescription)
      }
    }
  }

  /// `compareReportOrder` for two members with the same instant, given as
  /// parts: `rest` is the currency's bytes followed by the description's.
  @inlinable
  static func compareAfterInstant(
    _ instant: Timestamp, _ amount: ExactDecimal, id: UnsafeBufferPointer<UInt8>, rest: UnsafeBufferPointer<UInt8>,
    hasDescription: Bool,
    _ otherInstant: Timestamp, _ otherAmount: ExactDecimal, id otherID: UnsafeBufferPointer<UInt8>,
    rest otherRest: UnsafeBufferPointer<UInt8>, hasDescription otherHasDescription: Bool
  ) -> Int {
    let byId = compareBytes(id, otherID)
    if byId != 0 { return byId }
    // The same instant written two ways (`Z`, `+00:00`): by the written form, for determinism.
    let byWriting = instant.compareTotal(otherInstant)
    if byWriting != 0 { return -byWriting }
    let byAmount = amount.compare(otherAmount)
    if byAmount != 0 { return byAmount }
    if amount.scale != otherAmount.scale { return amount.scale < otherAmount.scale ? -1 : 1 }
    if hasDescription != otherHasDescription { return hasDescription ? 1 : -1 }
    return compareBytes(rest, otherRest)
  }

  @inlinable
  static func compareBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(lhs.count, rhs.count)
    var index = 0
    while index < common {
      if lhs[index] != rhs[index] { return lhs[index] < rhs[index] ? -1 : 1 }
      index += 1
    }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
  }
}

extension Timestamp {
  /// A total order: by instant, then by how it is written, so two spellings of
  /// one instant (`Z`, `+00:00`) are ordered the same way on every run.
  @inlinable
  public func compareTotal(_ other: Timestamp) -> Int {
    let byInstant = compareInstant(other)
    if byInstant != 0 { return byInstant }
    if style != other.style { return style.rawValue < other.style.rawValue ? -1 : 1 }
    if offsetMinutes != other.offsetMinutes { return offsetMinutes < other.offsetMinutes ? -1 : 1 }
    if offsetNegative != other.offsetNegative { return offsetNegative ? -1 : 1 }
    if fractionDigits != other.fractionDigits { return fractionDigits < other.fractionDigits ? -1 : 1 }
    return 0
  }
}
