/// A transaction a group keeps to show: what the reports print of it, in one
/// allocation (id, currency and description share one byte array).
public struct KeptMember: Sendable, Hashable {
  public var instant: Timestamp
  /// The amount's magnitude.
  public var amount: ExactDecimal
  /// `id`, then `currency`, then `description` bytes.
  @usableFromInline var text: [UInt8]
  @usableFromInline var idLength: Int32
  @usableFromInline var currencyLength: Int32
  public var hasDescription: Bool

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

  /// Refills this member from a record, reusing its byte storage so a full
  /// group's steady stream of newer members allocates nothing.
  @inlinable
  mutating func refill(
    instant: Timestamp, amount: ExactDecimal, id: ValueRef, currency: [UInt8], description: ValueRef,
    record: UnsafeBufferPointer<UInt8>
  ) {
    self.instant = instant
    self.amount = amount
    text.removeAll(keepingCapacity: true)
    GroupTable.appendDecoded(id, record, to: &text)
    idLength = Int32(text.count)
    text.append(contentsOf: currency)
    currencyLength = Int32(currency.count)
    hasDescription = description.kind != .absent
    if hasDescription { GroupTable.appendDecoded(description, record, to: &text) }
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
  /// ascending byte-wise (SPEC §2), then the written form and the remaining fields so equal-looking members are
  /// chosen the same way on every run and thread count. Negative when `self`
  /// comes first.
  @inlinable
  public func compareReportOrder(_ other: KeptMember) -> Int {
    let byInstant = instant.compareInstant(other.instant)
    if byInstant != 0 { return -byInstant }
    let byId = Self.compareBytes(id, other.id)
    if byId != 0 { return byId }
    // The same instant written two ways (`Z`, `+00:00`): by the written form, for determinism.
    let byWriting = instant.compareTotal(other.instant)
    if byWriting != 0 { return -byWriting }
    let byAmount = amount.compare(other.amount)
    if byAmount != 0 { return byAmount }
    if amount.scale != other.amount.scale { return amount.scale < other.amount.scale ? -1 : 1 }
    if hasDescription != other.hasDescription { return hasDescription ? 1 : -1 }
    return Self.compareBytes(text[Int(idLength)...], other.text[Int(other.idLength)...])
  }

  @inlinable
  static func compareBytes(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Int {
    var left = lhs.startIndex
    var right = rhs.startIndex
    while left < lhs.endIndex && right < rhs.endIndex {
      if lhs[left] != rhs[right] { return lhs[left] < rhs[right] ? -1 : 1 }
      left += 1
      right += 1
    }
    let leftDone = left == lhs.endIndex
    let rightDone = right == rhs.endIndex
    return leftDone && rightDone ? 0 : (leftDone ? -1 : 1)
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
