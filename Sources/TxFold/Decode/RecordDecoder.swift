/// A record decoded just enough to fold it: validated values (`instant`,
/// `day`, `amount`, `indicator`, `fee`), and references into the record's
/// bytes for the strings that are only needed if the record is kept as a
/// group member, which `RecordDecoder.transaction(from:record:position:)`
/// reads into a `Transaction`.
///
/// Values the schema supplies rather than the record are absent here: the
/// currency of a schema without one (`RecordSchema.defaultCurrency`), the id
/// of a record without one (its position), and the state of a schema without
/// one (the state the input's structure implies, else
/// `RecordSchema.defaultState`); `transaction(from:record:position:)` fills
/// them in.
///
/// Valid only while the record's bytes are.
@_spi(Benchmarks) public struct DecodedRecord {
  /// `.absent` when the record's id is its position in its input.
  @usableFromInline package var id: ValueRef
  /// When the transaction happened, validated.
  public var instant: Timestamp
  /// The day it belongs to (after `--timezone`).
  public var day: CalendarDay
  /// Signed: negative for money out.
  public var amount: ExactDecimal
  /// `.absent` when the schema supplies a default currency.
  @usableFromInline package var currency: ValueRef
  /// Whether money came in or went out, from the record or the amount's sign.
  public var indicator: CreditDebitIndicator
  /// `.absent` when the schema supplies a default state.
  @usableFromInline package var state: ValueRef
  /// The state the input's structure gives the record, used when `state` is absent.
  @usableFromInline package var impliedState: ImpliedState
  /// Where the description's string is, decoded only if the record is kept.
  @usableFromInline package var description: ValueRef
  /// A string, or an integer written as a JSON number (`1` is the category `"1"`).
  @usableFromInline package var category: ValueRef
  /// Where the counterparty's string is, decoded only if the record is kept.
  @usableFromInline package var counterparty: ValueRef
  /// The signed fee, when the record has one.
  public var fee: ExactDecimal?
  /// A string, or an integer written as a JSON number; `.absent` unless the
  /// schema maps the account (per-account runs).
  @usableFromInline package var account: ValueRef

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
    account = .absent
  }
}

/// Why a record could not be decoded: the reason, the slot at fault (-1 for
/// none), and the byte offset or value range in the record.
@_spi(Benchmarks) public struct DecodeFailure: Error, Sendable, Hashable {
  /// Why the record was refused.
  public var reason: RejectReason
  /// The schema slot of the field at fault, which names it in the message.
  public var slot: Int
  /// The offending value's place in the record, quoted in the message.
  @usableFromInline package var value: ValueRef

  @inlinable init(_ reason: RejectReason, slot: Int, value: ValueRef) {
    self.reason = reason
    self.slot = slot
    self.value = value
  }
}

/// Scans and decodes records of one schema. One per worker thread.
public final class RecordDecoder {
  /// The schema every record is read with.
  public let schema: RecordSchema
  /// The scanner that validates a record and finds the schema's fields.
  package let scanner: RecordScanner
  /// The zone that turns an instant into its day (`.asWritten` without `--timezone`).
  public let zone: ZoneResolver
  /// True without `--timezone`: days are the dates as written.
  let datesAsWritten: Bool
  /// The schema's fields resolved to slots, for the per-record path.
  let plan: DecodePlan
  /// The last date the per-record path converted (see `DateCache`), behind
  /// a pointer so that using it needs no exclusivity checks.
  let dateCache: UnsafeMutablePointer<DateCache>

  /// Creates a decoder for `schema`, with days in `zone`; one per worker thread, as it keeps scratch state.
  public init(schema: RecordSchema, zone: ZoneResolver = .asWritten, allowTrailingCommas: Bool = false) {
    self.schema = schema
    self.zone = zone
    datesAsWritten = zone.zone == nil
    scanner = RecordScanner(trie: schema.trie, allowTrailingCommas: allowTrailingCommas)
    plan = DecodePlan(schema: schema, slotCount: scanner.slotCount)
    dateCache = .allocate(capacity: 1)
    dateCache.initialize(to: DateCache())
  }

  deinit {
    dateCache.deallocate()
  }

  /// Decodes one record (without its line end) into a `Transaction`, with
  /// the values its schema supplies filled in, or says why it is rejected,
  /// as a run over a file would.
  ///
  /// ```swift
  /// let decoder = RecordDecoder(schema: .payback)
  /// switch decoder.transaction(bytes, position: 1) {
  /// case .success(let transaction): print(transaction.id, transaction.amount)
  /// case .failure(let rejection): print(rejection.reason.code, rejection.message)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - record: the record's bytes, without its line end.
  ///   - position: the record's 1-based position (line) in its input: the id
  ///     of a record without one, and where a rejection says it is.
  ///   - file: the input's name, for a rejection's message.
  /// - Complexity: O(n) in the record's length.
  public func transaction(_ record: UnsafeBufferPointer<UInt8>, position: Int = 1, file: String = "-")
    -> Result<Transaction, RecordRejection>
  {
    switch decode(record) {
    case .success(let decoded):
      return .success(transaction(from: decoded, record: record, position: position))
    case .failure(let failure):
      return .failure(
        RejectionDescriber.rejection(for: failure, record: record, schema: schema, file: file, line: position))
    }
  }

  /// Validates and decodes one record (without its line end), allocating
  /// nothing; materialise it with `transaction(from:record:position:)`.
  ///
  /// - Complexity: O(n) in the record's length; no allocation.
  @_spi(Benchmarks) public func decode(_ record: UnsafeBufferPointer<UInt8>) -> Result<DecodedRecord, DecodeFailure> {
    decode(record, impliedState: .none)
  }

  /// Validates and decodes one record (without its line end).
  ///
  /// - Parameter impliedState: the state the input's structure gives the
  ///   record (PSD2's `booked` and `pending` arrays); a written state wins.
  /// - Complexity: O(n) in the record's length; no allocation.
  package func decode(_ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState) -> Result<
    DecodedRecord, DecodeFailure
  > {
    var decoded = DecodedRecord()
    if let failure = decode(record, impliedState: impliedState, into: &decoded) { return .failure(failure) }
    return .success(decoded)
  }

  /// Validates and decodes one record into `decoded`, whose every field it
  /// sets, or returns why the record is rejected (then `decoded` is partly
  /// set). The per-record path: a worker reuses one `DecodedRecord`, so no
  /// result is wrapped and copied per record.
  ///
  /// - Complexity: O(n) in the record's length; no allocation.
  package func decode(
    _ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState, into decoded: inout DecodedRecord
  ) -> DecodeFailure? {
    if let failure = scanner.scan(record) {
      let at = ValueRef(start: failure.offset, end: failure.offset, kind: .absent)
      return DecodeFailure(failure.reason, slot: -1, value: at)
    }
    if plan.direct { return decodeDirect(record, impliedState: impliedState, into: &decoded) }
    return decodeFields(record, impliedState: impliedState, into: &decoded)
  }

  /// Decodes the fields of the record just scanned, for any schema: each
  /// field is looked up through its paths in order. The general path, and
  /// the one `decodeDirect` hands a record to when it meets anything but
  /// the common case: it decides every rejection but those of the amount and
  /// fee, which both paths check with the same `parseAmount`.
  @inline(never)
  func decodeFields(
    _ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState, into decoded: inout DecodedRecord
  ) -> DecodeFailure? {
    decoded.impliedState = impliedState

    // id: a non-empty string, or an integer written as a JSON number; or the position.
    let (idSlot, id) = lookup(schema.idSlot, .id)
    decoded.id = .absent
    if Self.isAbsentOrNull(id) {
      if !schema.idFallsBackToPosition && schema.idSlot >= 0 {
        return DecodeFailure(.missingField, slot: idSlot, value: id)
      }
    } else {
      if id.kind == .number {
        if !Self.isInteger(id, in: record) { return DecodeFailure(.invalidField, slot: idSlot, value: id) }
      } else if !Self.isString(id) || id.end == id.start {
        // An empty id names nothing, as an empty state or currency does: `invalid-field` alike.
        return DecodeFailure(.invalidField, slot: idSlot, value: id)
      }
      if id.kind == .escapedString && !isDecodable(id, in: record) {
        return DecodeFailure(.invalidUTF8, slot: idSlot, value: id)
      }
      decoded.id = id
    }

    // The instant and its day.
    let (instantSlot, instant) = lookup(schema.instantSlot, .instant)
    if Self.isAbsentOrNull(instant) {
      return DecodeFailure(.missingField, slot: instantSlot, value: instant)
    }
    guard Self.isString(instant), let writtenDay = parseTimestamp(instant, in: record, into: &decoded.instant) else {
      return DecodeFailure(.invalidTimestamp, slot: instantSlot, value: instant)
    }
    decoded.day = datesAsWritten ? writtenDay : zone.resolve(&decoded.instant)
    guard decoded.day.isInSupportedRange else {
      return DecodeFailure(.invalidTimestamp, slot: instantSlot, value: instant)
    }

    // The amount, exact.
    let (amountSlot, amountRef) = lookup(schema.amountSlot, .amount)
    if let failure = parseAmount(amountRef, slot: amountSlot, in: record, into: &decoded.amount) { return failure }
    if schema.amountIsMagnitude && decoded.amount.isNegative {
      return DecodeFailure(.invalidAmount, slot: amountSlot, value: amountRef)
    }

    // The currency, written or the schema's default.
    decoded.currency = .absent
    if schema.currencySlot >= 0 {
      let found = lookup(schema.currencySlot, .currency)
      if let failure = requiredString(found, in: record, into: &decoded.currency) {
        return failure
      }
      // A code is compared upper-cased (`eur` is `EUR`), but ` EUR` is no code: refused, not trimmed.
      if Self.hasSurroundingSpace(decoded.currency, in: record) {
        return DecodeFailure(.invalidField, slot: found.slot, value: found.value)
      }
    }

    // The indicator, written or from the sign.
    if schema.indicatorSlot >= 0 {
      let (indicatorSlot, indicator) = lookup(schema.indicatorSlot, .indicator)
      if Self.isAbsentOrNull(indicator) {
        return DecodeFailure(.missingField, slot: indicatorSlot, value: indicator)
      }
      let parsed: CreditDebitIndicator?? =
        Self.isString(indicator) ? withStringBytes(indicator, in: record, { Self.indicator($0) }) : nil
      guard let code = parsed ?? nil else {
        return DecodeFailure(.invalidIndicator, slot: indicatorSlot, value: indicator)
      }
      decoded.indicator = code
      if schema.amountIsMagnitude && code == .debit { decoded.amount = decoded.amount.negated }
    } else {
      decoded.indicator = decoded.amount.isNegative ? .debit : .credit
    }

    // The state, written or the schema's default.
    decoded.state = .absent
    if schema.stateSlot >= 0 {
      if let failure = requiredString(lookup(schema.stateSlot, .state), in: record, into: &decoded.state) {
        return failure
      }
    }

    // Optional strings are validated as strings (or null) but not decoded yet.
    if let failure = optionalString(
      lookup(schema.descriptionSlot, .description), in: record, into: &decoded.description)
    {
      return failure
    }
    if let failure = optionalString(
      lookup(schema.categorySlot, .category), in: record, allowInteger: true, into: &decoded.category)
    {
      return failure
    }
    let counterpartySlot =
      decoded.indicator == .debit && schema.counterpartyDebitSlot >= 0
      ? schema.counterpartyDebitSlot : schema.counterpartySlot
    if let failure = optionalString(lookup(counterpartySlot, .counterparty), in: record, into: &decoded.counterparty) {
      return failure
    }

    decoded.account = .absent
    if schema.accountSlot >= 0 {
      let found = lookup(schema.accountSlot, .account)
      if let failure = optionalString(found, in: record, allowInteger: true, into: &decoded.account) {
        return failure
      }
      if schema.accountRequired && decoded.account.end == decoded.account.start {
        // Absent, `null` or `""`: the record belongs to no account.
        return DecodeFailure(.missingField, slot: found.slot, value: found.value)
      }
    }

    decoded.fee = nil
    if schema.feeSlot >= 0 {
      let (feeSlot, fee) = lookup(schema.feeSlot, .fee)
      if !Self.isAbsentOrNull(fee) {
        var value = ExactDecimal.zero
        if let failure = parseAmount(fee, slot: feeSlot, in: record, into: &value) { return failure }
        decoded.fee = value
      }
    }
    return nil
  }

  @inline(__always)
  static func isAbsentOrNull(_ value: ValueRef) -> Bool { value.kind == .absent || value.kind == .null }

  @inline(__always)
  static func isString(_ value: ValueRef) -> Bool { value.kind == .string || value.kind == .escapedString }

  /// True when a JSON number (already validated by the scanner) is an integer: no fraction or exponent.
  @inline(__always)
  static func isInteger(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    for index in value.start..<value.end
    where record[index] == .dot || record[index] == .lowerE || record[index] == .upperE {
      return false
    }
    return true
  }

  /// The value of a field: its first path's, or else the first of its other
  /// paths that is present and not `null`. `(-1, .absent)` for an unmapped field.
  @inline(__always)
  func lookup(_ slot: Int, _ field: CanonicalField) -> (slot: Int, value: ValueRef) {
    guard slot >= 0 else { return (-1, .absent) }
    let value = scanner.value(slot)
    if (value.kind != .absent && value.kind != .null) || schema.fallbackMask & (1 << UInt32(field.rawValue)) == 0 {
      return (slot, value)
    }
    return lookupFallback(slot, field, value)
  }

  /// `lookup`'s rare path: the first path is absent or `null` and the field has others.
  @inline(never)
  func lookupFallback(_ slot: Int, _ field: CanonicalField, _ value: ValueRef) -> (slot: Int, value: ValueRef) {
    for fallback in schema.fallbackSlots[field.rawValue] {
      let other = scanner.value(fallback)
      if !other.isAbsentOrNull { return (fallback, other) }
    }
    return (slot, value)
  }

  /// An optional string (or, with `allowInteger`, an integer written as a
  /// number) into `value`: `.absent` when absent or `null`; `invalid-field`
  /// for another type, `invalid-utf8` for an escaped lone surrogate.
  @inline(__always)
  func optionalString(
    _ found: (slot: Int, value: ValueRef), in record: UnsafeBufferPointer<UInt8>, allowInteger: Bool = false,
    into value: inout ValueRef
  ) -> DecodeFailure? {
    let found = found
    switch found.value.kind {
    case .string:
      value = found.value
    case .absent, .null:
      value = .absent
    case .escapedString:
      if !isDecodable(found.value, in: record) {
        return DecodeFailure(.invalidUTF8, slot: found.slot, value: found.value)
      }
      value = found.value
    case .number where allowInteger:
      if !Self.isInteger(found.value, in: record) {
        return DecodeFailure(.invalidField, slot: found.slot, value: found.value)
      }
      value = found.value
    default:
      return DecodeFailure(.invalidField, slot: found.slot, value: found.value)
    }
    return nil
  }

  /// A required, non-empty string that decodes, into `value`: `missing-field`
  /// when absent or `null`, `invalid-field` when not a string or empty,
  /// `invalid-utf8` for an escaped lone surrogate.
  @inline(__always)
  func requiredString(
    _ found: (slot: Int, value: ValueRef), in record: UnsafeBufferPointer<UInt8>, into value: inout ValueRef
  ) -> DecodeFailure? {
    let (slot, found) = found
    if Self.isAbsentOrNull(found) { return DecodeFailure(.missingField, slot: slot, value: found) }
    guard Self.isString(found), found.end > found.start else {
      return DecodeFailure(.invalidField, slot: slot, value: found)
    }
    if found.kind == .escapedString && !isDecodable(found, in: record) {
      return DecodeFailure(.invalidUTF8, slot: slot, value: found)
    }
    value = found
    return nil
  }

  /// Whether the string `value` starts or ends with a space or a tab (written
  /// as such; an escaped one is left to the checks of the value itself).
  @inline(__always)
  static func hasSurroundingSpace(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    guard value.end > value.start else { return false }
    let first = record[value.start]
    let last = record[value.end - 1]
    return first == .space || first == .tab || last == .space || last == .tab
  }

  /// Parses an amount from a JSON number (exponent allowed) or string (no exponent) into `amount`.
  @inline(__always)
  func parseAmount(_ ref: ValueRef, slot: Int, in record: UnsafeBufferPointer<UInt8>, into amount: inout ExactDecimal)
    -> DecodeFailure?
  {
    if Self.isAbsentOrNull(ref) { return DecodeFailure(.missingField, slot: slot, value: ref) }
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
    case .value(let value):
      amount = value
      return nil
    case .invalid: return DecodeFailure(.invalidAmount, slot: slot, value: ref)
    case .outOfRange: return DecodeFailure(.amountOutOfRange, slot: slot, value: ref)
    }
  }

  /// Parses a string value as a timestamp into `stamp` and returns the date
  /// as written (see `TimestampParser.parse(_:into:)`); `nil` when it is not one.
  @inline(__always)
  func parseTimestamp(_ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>, into stamp: inout Timestamp)
    -> CalendarDay?
  {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind != .escapedString { return TimestampParser.parse(raw, into: &stamp) }
    return StringDecoder.withDecoded(raw) { TimestampParser.parse($0, into: &stamp) } ?? nil
  }

  /// Calls `body` with a string value's decoded bytes: in place when it has no
  /// escapes, else decoded into temporary memory. `nil` for a lone surrogate.
  func withStringBytes<T>(
    _ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
  ) -> T? {
    let raw = UnsafeBufferPointer(rebasing: record[ref.start..<ref.end])
    if ref.kind != .escapedString { return body(raw) }
    return StringDecoder.withDecoded(raw, body)
  }

  /// True when a string with escapes decodes (has no lone surrogate); checked
  /// without decoding it. The value is one the scanner found, so its escapes
  /// are valid and only surrogates need a look (`StringDecoder.isDecodableScanned`).
  func isDecodable(_ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> Bool {
    StringDecoder.isDecodableScanned(UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]))
  }

  @inline(__always)
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
