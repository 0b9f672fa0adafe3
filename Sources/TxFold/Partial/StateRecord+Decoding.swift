extension StateRecord {
  /// Decodes a state record's payload into `decoded`, as `decoder` decodes
  /// the JSON record it stands for: a nightly run's second pass folds the
  /// state record by record, without writing each as JSON to scan it again.
  /// The strings point into the payload, already decoded (`ValueRef.Kind.string`);
  /// the instant and the amounts are parsed as the JSON decoder parses their
  /// strings, and the day taken in `decoder`'s zone.
  ///
  /// The run wrote every payload it reads here from a record it accepted
  /// (and the previous state's were checked when the run started), so a
  /// failure means a state made by hand: it is refused with the reason the
  /// JSON record would have had.
  ///
  /// - Complexity: O(n) in the payload's length; no allocation.
  static func decode(
    _ payload: UnsafeBufferPointer<UInt8>, with decoder: RecordDecoder, into decoded: inout DecodedRecord
  ) -> DecodeFailure? {
    let raw = UnsafeRawBufferPointer(payload)
    var fields = Fields()
    guard split(raw, into: &fields), let base = raw.baseAddress else {
      return DecodeFailure(.invalidJSON, slot: -1, value: ValueRef(start: 0, end: payload.count, kind: .absent))
    }
    decoded.impliedState = .none
    // A position that stood in for an id is shown as the id it became; the second pass dedupes nothing.
    guard let id = text(fields.id, in: base, required: true) else { return failure(.invalidField, fields.id, base) }
    decoded.id = id

    guard
      let writtenDay = TimestampParser.parse(
        bytes(fields.instant), into: &decoded.instant, cache: &decoder.dateCache.pointee)
    else { return failure(.invalidTimestamp, fields.instant, base) }
    decoded.day = decoder.datesAsWritten ? writtenDay : decoder.zone.resolve(&decoded.instant)
    guard decoded.day.isInSupportedRange else { return failure(.invalidTimestamp, fields.instant, base) }

    switch DecimalParser.parse(bytes(fields.amount), allowExponent: false, allowLeadingZeros: true) {
    case .value(let amount): decoded.amount = amount
    case .invalid: return failure(.invalidAmount, fields.amount, base)
    case .outOfRange: return failure(.amountOutOfRange, fields.amount, base)
    }
    decoded.indicator = fields.indicator

    guard let currency = text(fields.currency, in: base, required: true),
      !RecordDecoder.hasSurroundingSpace(currency, in: payload)
    else { return failure(.invalidField, fields.currency, base) }
    decoded.currency = currency
    guard let state = text(fields.state, in: base, required: true) else {
      return failure(.invalidField, fields.state, base)
    }
    decoded.state = state

    if let failure = optional(fields.description, in: base, into: &decoded.description) { return failure }
    if let failure = optional(fields.category, in: base, into: &decoded.category) { return failure }
    if let failure = optional(fields.counterparty, in: base, into: &decoded.counterparty) { return failure }
    if let failure = optional(fields.account, in: base, into: &decoded.account) { return failure }

    decoded.fee = nil
    if let fee = fields.fee {
      switch DecimalParser.parse(bytes(fee), allowExponent: false, allowLeadingZeros: true) {
      case .value(let value): decoded.fee = value
      case .invalid: return failure(.invalidAmount, fee, base)
      case .outOfRange: return failure(.amountOutOfRange, fee, base)
      }
    }
    return nil
  }

  /// Where `field` is in the payload that starts at `base`, as a decoded string.
  @inline(__always)
  private static func ref(_ field: UnsafeRawBufferPointer, _ base: UnsafeRawPointer) -> ValueRef {
    let start = field.baseAddress.map { $0 - base } ?? 0
    return ValueRef(start: start, end: start + field.count, kind: .string)
  }

  @inline(__always)
  private static func bytes(_ field: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
    field.assumingMemoryBound(to: UInt8.self)
  }

  /// A string field, which must be UTF-8 (and, when `required`, not empty).
  @inline(__always)
  private static func text(_ field: UnsafeRawBufferPointer, in base: UnsafeRawPointer, required: Bool = false)
    -> ValueRef?
  {
    guard !required || !field.isEmpty, UTF8Validation.isValid(bytes(field)) else { return nil }
    return ref(field, base)
  }

  /// An optional string field into `value` (`.absent` without one).
  @inline(__always)
  private static func optional(
    _ field: UnsafeRawBufferPointer?, in base: UnsafeRawPointer, into value: inout ValueRef
  ) -> DecodeFailure? {
    guard let field else {
      value = .absent
      return nil
    }
    guard let found = text(field, in: base) else { return failure(.invalidUTF8, field, base) }
    value = found
    return nil
  }

  private static func failure(_ reason: RejectReason, _ field: UnsafeRawBufferPointer, _ base: UnsafeRawPointer)
    -> DecodeFailure
  {
    DecodeFailure(reason, slot: -1, value: ref(field, base))
  }
}
