/// The state an input's structure gives its records, for schemas without a
/// state field: PSD2 account reports list `booked` and `pending` records in
/// separate arrays.
public enum ImpliedState: UInt8, Sendable, Hashable {
  /// Nothing implied: the schema's default state applies.
  case none
  /// A record of a `booked` array: `COMPLETED`.
  case completed
  /// A record of a `pending` array: `PENDING`.
  case pending

  /// The state's name, or `nil` for `.none`.
  public var state: String? {
    switch self {
    case .none: return nil
    case .completed: return KnownState.completed
    case .pending: return KnownState.pending
    }
  }

  /// The state implied by an array's key (`booked`, `pending`).
  static func forArray(key: [UInt8]) -> ImpliedState {
    if key.elementsEqual("booked".utf8) { return .completed }
    if key.elementsEqual("pending".utf8) { return .pending }
    return .none
  }
}

/// A record decoded just enough to fold it: validated values, and references
/// into the record's bytes for the strings that are only needed if the
/// record is kept as a group member.
///
/// Values the schema supplies rather than the record are `.absent` here: the
/// currency of a schema without one (`RecordSchema.defaultCurrency`), the id
/// of a record without one (its position), and the state of a schema without
/// one (`impliedState`, else `RecordSchema.defaultState`).
/// `RecordDecoder.transaction(from:record:position:)` fills them in.
///
/// Valid only while the record's bytes are.
public struct DecodedRecord {
  /// `.absent` when the record's id is its position in its input.
  public var id: ValueRef
  public var instant: Timestamp
  /// The day it belongs to (after `--timezone`).
  public var day: CalendarDay
  /// Signed: negative for money out.
  public var amount: ExactDecimal
  /// `.absent` when the schema supplies a default currency.
  public var currency: ValueRef
  public var indicator: CreditDebitIndicator
  /// `.absent` when the schema supplies a default state.
  public var state: ValueRef
  /// The state the input's structure gives the record, used when `state` is absent.
  public var impliedState: ImpliedState
  public var description: ValueRef
  /// A string, or an integer written as a JSON number (`1` is the category `"1"`).
  public var category: ValueRef
  public var counterparty: ValueRef
  public var fee: ExactDecimal?

  @inlinable init() {
    id = .absent
    instant = Timestamp(
      year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, fractionDigits: 0, style: .dateOnly,
      offsetNegative: false, nanosecond: 0, offsetMinutes: 0, epochSeconds: 0)
    day = CalendarDay(daysSinceEpoch: 0)
    amount = .zero
    currency = .absent
    indicator = .credit
    state = .absent
    impliedState = .none
    description = .absent
    category = .absent
    counterparty = .absent
    fee = nil
  }
}

/// Why a record could not be decoded: the reason, the slot at fault (-1 for
/// none), and the byte offset or value range in the record.
public struct DecodeFailure: Error, Sendable, Hashable {
  public var reason: RejectReason
  public var slot: Int
  public var value: ValueRef

  @inlinable init(_ reason: RejectReason, slot: Int, value: ValueRef) {
    self.reason = reason
    self.slot = slot
    self.value = value
  }
}

/// Scans and decodes records of one schema. One per worker thread.
public final class RecordDecoder {
  public let schema: RecordSchema
  public let scanner: RecordScanner
  public let zone: ZoneResolver

  public init(schema: RecordSchema, zone: ZoneResolver = .asWritten, allowTrailingCommas: Bool = false) {
    self.schema = schema
    self.zone = zone
    scanner = RecordScanner(trie: schema.trie, allowTrailingCommas: allowTrailingCommas)
  }

  /// Validates and decodes one record (without its line end).
  ///
  /// - Parameter impliedState: the state the input's structure gives the
  ///   record (PSD2's `booked` and `pending` arrays); a written state wins.
  /// - Complexity: O(n) in the record's length; no allocation.
  @inlinable
  public func decode(_ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState = .none) -> Result<
    DecodedRecord, DecodeFailure
  > {
    if let failure = scanner.scan(record) {
      let at = ValueRef(start: failure.offset, end: failure.offset, kind: .absent)
      return .failure(DecodeFailure(failure.reason, slot: -1, value: at))
    }
    var decoded = DecodedRecord()
    decoded.impliedState = impliedState

    // id: a string, or an integer written as a JSON number; or the position.
    let (idSlot, id) = lookup(schema.idSlot, .id)
    if id.isAbsentOrNull {
      if !schema.idFallsBackToPosition && schema.idSlot >= 0 {
        return .failure(DecodeFailure(.missingField, slot: idSlot, value: id))
      }
    } else {
      if id.kind == .number {
        for index in id.start..<id.end
        where record[index] == .dot || record[index] == .lowerE || record[index] == .upperE {
          return .failure(DecodeFailure(.invalidField, slot: idSlot, value: id))
        }
      } else if !id.isString {
        return .failure(DecodeFailure(.invalidField, slot: idSlot, value: id))
      }
      if id.kind == .escapedString && !isDecodable(id, in: record) {
        return .failure(DecodeFailure(.invalidUTF8, slot: idSlot, value: id))
      }
      decoded.id = id
    }

    // The instant and its day.
    let (instantSlot, instant) = lookup(schema.instantSlot, .instant)
    if instant.isAbsentOrNull {
      return .failure(DecodeFailure(.missingField, slot: instantSlot, value: instant))
    }
    guard instant.isString,
      var stamp = withStringBytes(instant, in: record, { TimestampParser.parse($0) }) ?? nil
    else {
      return .failure(DecodeFailure(.invalidTimestamp, slot: instantSlot, value: instant))
    }
    decoded.day = zone.resolve(&stamp)
    decoded.instant = stamp

    // The amount, exact.
    let (amountSlot, amountRef) = lookup(schema.amountSlot, .amount)
    switch parseAmount(amountRef, slot: amountSlot, in: record) {
    case .success(let amount): decoded.amount = amount
    case .failure(let failure): return .failure(failure)
    }
    if schema.amountIsMagnitude && decoded.amount.isNegative {
      return .failure(DecodeFailure(.invalidAmount, slot: amountSlot, value: amountRef))
    }

    // The currency, written or the schema's default.
    if schema.currencySlot >= 0 {
      switch requiredString(lookup(schema.currencySlot, .currency), in: record) {
      case .success(let currency): decoded.currency = currency
      case .failure(let failure): return .failure(failure)
      }
    }

    // The indicator, written or from the sign.
    if schema.indicatorSlot >= 0 {
      let (indicatorSlot, indicator) = lookup(schema.indicatorSlot, .indicator)
      if indicator.isAbsentOrNull {
        return .failure(DecodeFailure(.missingField, slot: indicatorSlot, value: indicator))
      }
      let parsed: CreditDebitIndicator?? =
        indicator.isString ? withStringBytes(indicator, in: record, { Self.indicator($0) }) : nil
      guard let code = parsed ?? nil else {
        return .failure(DecodeFailure(.invalidIndicator, slot: indicatorSlot, value: indicator))
      }
      decoded.indicator = code
      if schema.amountIsMagnitude && code == .debit { decoded.amount = decoded.amount.negated }
    } else {
      decoded.indicator = decoded.amount.isNegative ? .debit : .credit
    }

    // The state, written or the schema's default.
    if schema.stateSlot >= 0 {
      switch requiredString(lookup(schema.stateSlot, .state), in: record) {
      case .success(let state): decoded.state = state
      case .failure(let failure): return .failure(failure)
      }
    }

    // Optional strings are validated as strings (or null) but not decoded yet.
    switch optionalString(lookup(schema.descriptionSlot, .description), in: record) {
    case .success(let description): decoded.description = description
    case .failure(let failure): return .failure(failure)
    }
    switch optionalString(lookup(schema.categorySlot, .category), in: record, allowInteger: true) {
    case .success(let category): decoded.category = category
    case .failure(let failure): return .failure(failure)
    }
    let counterpartySlot =
      decoded.indicator == .debit && schema.counterpartyDebitSlot >= 0
      ? schema.counterpartyDebitSlot : schema.counterpartySlot
    switch optionalString(lookup(counterpartySlot, .counterparty), in: record) {
    case .success(let value): decoded.counterparty = value
    case .failure(let failure): return .failure(failure)
    }

    if schema.feeSlot >= 0 {
      let (feeSlot, fee) = lookup(schema.feeSlot, .fee)
      if !fee.isAbsentOrNull {
        switch parseAmount(fee, slot: feeSlot, in: record) {
        case .success(let value): decoded.fee = value
        case .failure(let failure): return .failure(failure)
        }
      }
    }
    return .success(decoded)
  }

  /// The value of a field: its first path's, or else the first of its other
  /// paths that is present and not `null`. `(-1, .absent)` for an unmapped field.
  @inlinable @inline(__always)
  func lookup(_ slot: Int, _ field: CanonicalField) -> (slot: Int, value: ValueRef) {
    guard slot >= 0 else { return (-1, .absent) }
    let value = scanner.value(slot)
    if (value.kind != .absent && value.kind != .null) || schema.fallbackMask & (1 << UInt32(field.rawValue)) == 0 {
      return (slot, value)
    }
    return lookupFallback(slot, field, value)
  }

  /// `lookup`'s rare path: the first path is absent or `null` and the field has others.
  @usableFromInline @inline(never)
  func lookupFallback(_ slot: Int, _ field: CanonicalField, _ value: ValueRef) -> (slot: Int, value: ValueRef) {
    for fallback in schema.fallbackSlots[field.rawValue] {
      let other = scanner.value(fallback)
      if !other.isAbsentOrNull { return (fallback, other) }
    }
    return (slot, value)
  }

  /// An optional string (or, with `allowInteger`, an integer written as a
  /// number): `.absent` when absent or `null`, `invalid-field` for another
  /// type, `invalid-utf8` for an escaped lone surrogate.
  @inlinable @inline(__always)
  func optionalString(
    _ found: (slot: Int, value: ValueRef), in record: UnsafeBufferPointer<UInt8>, allowInteger: Bool = false
  ) -> Result<ValueRef, DecodeFailure> {
    let value = found.value
    switch value.kind {
    case .string:
      return .success(value)
    case .absent, .null:
      return .success(.absent)
    case .escapedString:
      if isDecodable(value, in: record) { return .success(value) }
      return .failure(DecodeFailure(.invalidUTF8, slot: found.slot, value: value))
    case .number where allowInteger:
      for index in value.start..<value.end
      where record[index] == .dot || record[index] == .lowerE || record[index] == .upperE {
        return .failure(DecodeFailure(.invalidField, slot: found.slot, value: value))
      }
      return .success(value)
    default:
      return .failure(DecodeFailure(.invalidField, slot: found.slot, value: value))
    }
  }

  /// A required, non-empty string that decodes: `missing-field` when absent or
  /// `null`, `invalid-field` when not a string or empty, `invalid-utf8` for an
  /// escaped lone surrogate.
  @inlinable
  func requiredString(_ found: (slot: Int, value: ValueRef), in record: UnsafeBufferPointer<UInt8>) -> Result<
    ValueRef, DecodeFailure
  > {
    let (slot, value) = found
    if value.isAbsentOrNull { return .failure(DecodeFailure(.missingField, slot: slot, value: value)) }
    guard value.isString, value.end > value.start else {
      return .failure(DecodeFailure(.invalidField, slot: slot, value: value))
    }
    if value.kind == .escapedString && !isDecodable(value, in: record) {
      return .failure(DecodeFailure(.invalidUTF8, slot: slot, value: value))
    }
    return .success(value)
  }

  /// Parses an amount from a JSON number (exponent allowed) or string (no exponent).
  @inlinable
  func parseAmount(_ ref: ValueRef, slot: Int, in record: UnsafeBufferPointer<UInt8>)
    -> Result<ExactDecimal, DecodeFailure>
  {
    if ref.isAbsentOrNull { return .failure(DecodeFailure(.missingField, slot: slot, value: ref)) }
    let result: DecimalParseResult
    switch ref.kind {
    case .number:
      result = DecimalParser.parse(
        UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]), allowExponent: true, allowLeadingZeros: false)
    case .string, .escapedString:
      result =
        withStringBytes(ref, in: record) {
          DecimalParser.parse($0, allowExponent: false, allowLeadingZeros: true)
        } ?? .invalid
    default:
      result = .invalid
    }
    switch result {
    case .value(let value): return .success(value)
    case .invalid: return .failure(DecodeFailure(.invalidAmount, slot: slot, value: ref))
    case .outOfRange: return .failure(DecodeFailure(.amountOutOfRange, slot: slot, value: ref))
    }
  }

  /// Calls `body` with a string value's decoded bytes: in place when it has no
  /// escapes, else decoded into temporary memory. `nil` for a lone surrogate.
  @inlinable
  func withStringBytes<T>(
    _ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T? {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind != .escapedString { return body(raw) }
    return StringDecoder.withDecoded(raw, body)
  }

  /// True when a string with escapes decodes (has no lone surrogate); checked
  /// without decoding it.
  @inlinable
  func isDecodable(_ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    StringDecoder.isDecodable(UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]))
  }

  @inlinable
  static func indicator(_ bytes: UnsafeBufferPointer<UInt8>) -> CreditDebitIndicator? {
    guard bytes.count == 4 else { return nil }
    let code = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    switch code {
    case 0x4352_4454: return .credit  // "CRDT"
    case 0x4442_4954: return .debit  // "DBIT"
    default: return nil
    }
  }
}
