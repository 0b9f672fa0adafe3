/// A record decoded just enough to fold it: validated values, and references
/// into the record's bytes for the strings that are only needed if the
/// record is kept as a group member.
///
/// Valid only while the record's bytes are.
public struct DecodedRecord {
  public var id: ValueRef
  public var instant: Timestamp
  /// The day it belongs to (after `--timezone`).
  public var day: CalendarDay
  /// Signed: negative for money out.
  public var amount: ExactDecimal
  public var currency: ValueRef
  public var indicator: CreditDebitIndicator
  /// `.absent` when the schema supplies a default state.
  public var state: ValueRef
  public var description: ValueRef
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
    description = .absent
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
  /// Scratch for strings written with escapes (indicator, timestamp, amount).
  @usableFromInline var scratch: [UInt8] = []

  public init(schema: RecordSchema, zone: ZoneResolver = .asWritten, allowTrailingCommas: Bool = false) {
    self.schema = schema
    self.zone = zone
    scanner = RecordScanner(trie: schema.trie, allowTrailingCommas: allowTrailingCommas)
    scratch.reserveCapacity(64)
  }

  /// Validates and decodes one record (without its line end).
  ///
  /// - Complexity: O(n) in the record's length; no allocation.
  @inlinable
  public func decode(_ record: UnsafeBufferPointer<UInt8>) -> Result<DecodedRecord, DecodeFailure> {
    if let failure = scanner.scan(record) {
      let at = ValueRef(start: failure.offset, end: failure.offset, kind: .absent)
      return .failure(DecodeFailure(failure.reason, slot: -1, value: at))
    }
    var decoded = DecodedRecord()

    // id: a string, or an integer written as a JSON number.
    let id = scanner.value(schema.idSlot)
    if id.isAbsentOrNull { return .failure(DecodeFailure(.missingField, slot: schema.idSlot, value: id)) }
    if id.kind == .number {
      for index in id.start..<id.end where record[index] == .dot || record[index] == .lowerE || record[index] == .upperE
      {
        return .failure(DecodeFailure(.invalidField, slot: schema.idSlot, value: id))
      }
    } else if !id.isString {
      return .failure(DecodeFailure(.invalidField, slot: schema.idSlot, value: id))
    }
    if id.kind == .escapedString && !isDecodable(id, in: record) {
      return .failure(DecodeFailure(.invalidUTF8, slot: schema.idSlot, value: id))
    }
    decoded.id = id

    // The instant and its day.
    let instant = scanner.value(schema.instantSlot)
    if instant.isAbsentOrNull {
      return .failure(DecodeFailure(.missingField, slot: schema.instantSlot, value: instant))
    }
    guard instant.isString,
      var stamp = withStringBytes(instant, in: record, { TimestampParser.parse($0) }) ?? nil
    else {
      return .failure(DecodeFailure(.invalidTimestamp, slot: schema.instantSlot, value: instant))
    }
    decoded.day = zone.resolve(&stamp)
    decoded.instant = stamp

    // The amount, exact.
    let amountRef = scanner.value(schema.amountSlot)
    switch parseAmount(amountRef, slot: schema.amountSlot, in: record) {
    case .success(let amount): decoded.amount = amount
    case .failure(let failure): return .failure(failure)
    }
    if schema.amountIsMagnitude && decoded.amount.isNegative {
      return .failure(DecodeFailure(.invalidAmount, slot: schema.amountSlot, value: amountRef))
    }

    // The currency.
    if schema.currencySlot >= 0 {
      switch requiredString(schema.currencySlot, in: record) {
      case .success(let currency): decoded.currency = currency
      case .failure(let failure): return .failure(failure)
      }
    }

    // The indicator, written or from the sign.
    if schema.indicatorSlot >= 0 {
      let indicator = scanner.value(schema.indicatorSlot)
      if indicator.isAbsentOrNull {
        return .failure(DecodeFailure(.missingField, slot: schema.indicatorSlot, value: indicator))
      }
      let parsed: CreditDebitIndicator?? =
        indicator.isString ? withStringBytes(indicator, in: record, { Self.indicator($0) }) : nil
      guard let code = parsed ?? nil else {
        return .failure(DecodeFailure(.invalidIndicator, slot: schema.indicatorSlot, value: indicator))
      }
      decoded.indicator = code
      if schema.amountIsMagnitude && code == .debit { decoded.amount = decoded.amount.negated }
    } else {
      decoded.indicator = decoded.amount.isNegative ? .debit : .credit
    }

    // The state, written or the schema's default.
    if schema.stateSlot >= 0 {
      switch requiredString(schema.stateSlot, in: record) {
      case .success(let state): decoded.state = state
      case .failure(let failure): return .failure(failure)
      }
    }

    // Optional strings are validated as strings (or null) but not decoded yet.
    if schema.descriptionSlot >= 0 {
      let description = scanner.value(schema.descriptionSlot)
      if !description.isAbsentOrNull {
        guard description.isString else {
          return .failure(DecodeFailure(.invalidField, slot: schema.descriptionSlot, value: description))
        }
        if description.kind == .escapedString && !isDecodable(description, in: record) {
          return .failure(DecodeFailure(.invalidUTF8, slot: schema.descriptionSlot, value: description))
        }
        decoded.description = description
      }
    }

    if schema.feeSlot >= 0 {
      let fee = scanner.value(schema.feeSlot)
      if !fee.isAbsentOrNull {
        switch parseAmount(fee, slot: schema.feeSlot, in: record) {
        case .success(let value): decoded.fee = value
        case .failure(let failure): return .failure(failure)
        }
      }
    }
    return .success(decoded)
  }

  /// A required, non-empty string that decodes: `missing-field` when absent or
  /// `null`, `invalid-field` when not a string or empty, `invalid-utf8` for an
  /// escaped lone surrogate.
  @inlinable
  func requiredString(_ slot: Int, in record: UnsafeBufferPointer<UInt8>) -> Result<ValueRef, DecodeFailure> {
    let value = scanner.value(slot)
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
  /// escapes, else decoded into scratch. `nil` for a lone surrogate.
  @inlinable
  func withStringBytes<T>(
    _ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T? {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind != .escapedString { return body(raw) }
    scratch.removeAll(keepingCapacity: true)
    guard StringDecoder.decode(raw, into: &scratch) else { return nil }
    return scratch.withUnsafeBufferPointer { body($0) }
  }

  /// True when a string with escapes decodes (has no lone surrogate).
  @inlinable
  func isDecodable(_ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    withStringBytes(ref, in: record) { _ in true } ?? false
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
