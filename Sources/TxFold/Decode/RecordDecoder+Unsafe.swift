extension RecordDecoder {
  /// Decodes the record just scanned by a direct `DecodePlan`: each field's
  /// value is read straight from the scanner's slots and its common kinds
  /// (a string without escapes, a missing optional field, a 4-letter
  /// indicator) are taken in line. Anything else (escapes aside from the
  /// optional strings and id, a wrong kind, a missing required field, an
  /// invalid timestamp) goes to `decodeFields`, which starts the record's
  /// fields again and so gives the same result and rejection. Amount and fee
  /// failures are returned here: by then every field the general path
  /// checks first has passed the same checks.
  ///
  /// - Complexity: O(n) in the lengths of the values read; no allocation.
  func decodeDirect(
    _ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState, into decoded: inout DecodedRecord
  ) -> DecodeFailure? {
    let slots = scanner.slots
    decoded.impliedState = impliedState

    // id: a non-empty string, or an integer written as a JSON number; or the position.
    // Each field is set once, when it has passed: a record handed to
    // `decodeFields` has every field set again there.
    if self.plan.id >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count (`DecodePlan.init`).
      let id = slots[self.plan.id]
      if id.kind == .string && id.end > id.start {
        decoded.id = id
      } else if id.kind == .absent || id.kind == .null {
        if self.plan.idRequired { return decodeFields(record, impliedState: impliedState, into: &decoded) }
        decoded.id = .absent
      } else if isRareValid(id, in: record, allowInteger: true) {
        decoded.id = id
      } else {
        return decodeFields(record, impliedState: impliedState, into: &decoded)
      }
    } else {
      decoded.id = .absent
    }

    // The instant and its day.
    // Safe because a direct plan has an instant slot below the scanner's slot count.
    let instant = slots[self.plan.instant]
    guard instant.kind == .string,
      let writtenDay = TimestampParser.parse(
        UnsafeBufferPointer(rebasing: record[instant.start..<instant.end]), into: &decoded.instant,
        cache: &dateCache.pointee)
    else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
    decoded.day = datesAsWritten ? writtenDay : zone.resolve(&decoded.instant)
    // Years 0001–9999 only; the general path names the rejection.
    guard decoded.day.isInSupportedRange else {
      return decodeFields(record, impliedState: impliedState, into: &decoded)
    }

    // The amount, exact.
    // Safe because a direct plan has an amount slot below the scanner's slot count.
    let amountRef = slots[self.plan.amount]
    // Short plain decimals (a string without escapes, or a number) eight
    // bytes at a time, as `DecimalParser.parse` takes them; anything else
    // out of line (`parseOtherAmount`).
    var amount: ExactDecimal
    if amountRef.kind == .string || amountRef.kind == .number,
      let value = DecimalParser.parseWord(
        record, from: amountRef.start, to: amountRef.end, allowLeadingZeros: amountRef.kind == .string)
    {
      amount = value
    } else {
      amount = .zero
      if let failure = parseOtherAmount(amountRef, slot: self.plan.amount, in: record, into: &amount) {
        return failure
      }
    }
    if self.plan.amountIsMagnitude && amount.isNegative {
      return DecodeFailure(.invalidAmount, slot: self.plan.amount, value: amountRef)
    }

    // The currency, written or the schema's default.
    guard let currency = directRequired(slots, self.plan.currency),
      !Self.hasSurroundingSpace(currency, in: record)
    else {
      return decodeFields(record, impliedState: impliedState, into: &decoded)
    }
    decoded.currency = currency

    // The indicator, written or from the sign.
    if self.plan.indicator >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let indicator = slots[self.plan.indicator]
      guard indicator.kind == .string,
        let code = Self.indicator(UnsafeBufferPointer(rebasing: record[indicator.start..<indicator.end]))
      else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
      decoded.indicator = code
      if self.plan.amountIsMagnitude && code == .debit { amount = amount.negated }
    } else {
      decoded.indicator = amount.isNegative ? .debit : .credit
    }
    decoded.amount = amount

    // The state, written or the schema's default.
    guard let state = directRequired(slots, self.plan.state) else {
      return decodeFields(record, impliedState: impliedState, into: &decoded)
    }
    decoded.state = state

    // Optional strings are validated as strings (or null) but not decoded yet.
    guard let description = directOptional(slots, self.plan.description, in: record, allowInteger: false),
      let category = directOptional(slots, self.plan.category, in: record, allowInteger: true),
      let counterparty = directOptional(
        slots, decoded.indicator == .debit ? self.plan.counterpartyDebit : self.plan.counterparty, in: record,
        allowInteger: false)
    else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
    decoded.description = description
    decoded.category = category
    decoded.counterparty = counterparty

    if self.plan.account >= 0 {
      guard let account = directOptional(slots, self.plan.account, in: record, allowInteger: true),
        !self.plan.accountRequired || account.end > account.start
      else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
      decoded.account = account
    } else {
      decoded.account = .absent
    }

    if self.plan.fee >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let fee = slots[self.plan.fee]
      if Self.isAbsentOrNull(fee) {
        decoded.fee = nil
      } else {
        // Out of line: few schemas have a fee.
        var value = ExactDecimal.zero
        if let failure = parseOtherAmount(fee, slot: self.plan.fee, in: record, into: &value) { return failure }
        decoded.fee = value
      }
    } else {
      decoded.fee = nil
    }
    return nil
  }

  /// An optional string of the direct path: the value in `slots[slot]` when
  /// it is a string (or, with `allowInteger`, an integer written as a
  /// number) that decodes, `.absent` when it is absent or `null` or the
  /// schema lacks the field, and `nil` for anything the general path must
  /// judge.
  @inline(__always)
  func directOptional(
    _ slots: UnsafeMutablePointer<ValueRef>, _ slot: Int, in record: UnsafeBufferPointer<UInt8>, allowInteger: Bool
  ) -> ValueRef? {
    guard slot >= 0 else { return .absent }
    // Safe because a direct plan's slots are below the scanner's slot count.
    let value = slots[slot]
    if value.kind == .string { return value }
    if value.kind == .absent || value.kind == .null { return .absent }
    return isRareValid(value, in: record, allowInteger: allowInteger) ? value : nil
  }

  /// A required string field for the direct path (currency, state): the
  /// value when it is a non-empty string without escapes, `.absent` when the
  /// schema lacks the field (its default applies), and `nil` for anything the
  /// general path must judge.
  @inline(__always)
  func directRequired(_ slots: UnsafeMutablePointer<ValueRef>, _ slot: Int) -> ValueRef? {
    guard slot >= 0 else { return .absent }
    // Safe because a direct plan's slots are below the scanner's slot count.
    let value = slots[slot]
    return value.kind == .string && value.end > value.start ? value : nil
  }

  /// An amount out of line: short plain decimals eight bytes at a time
  /// (`DecimalParser.parseWord`) or, up to 18 bytes, through
  /// `DecimalParser.parsePlain`, as `parse` would take them, and anything
  /// else through `parseAmount`. For the amounts `decodeDirect` does not
  /// take in line, and for fees; so that it keeps no temporary buffer for
  /// escaped strings.
  @inline(never)
  func parseOtherAmount(
    _ ref: ValueRef, slot: Int, in record: UnsafeBufferPointer<UInt8>, into amount: inout ExactDecimal
  ) -> DecodeFailure? {
    if ref.kind == .string || ref.kind == .number {
      if let value = DecimalParser.parseWord(
        record, from: ref.start, to: ref.end, allowLeadingZeros: ref.kind == .string)
      {
        amount = value
        return nil
      }
      if ref.end - ref.start <= 18,
        let value = DecimalParser.parsePlain(
          UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]), allowLeadingZeros: ref.kind == .string)
      {
        amount = value
        return nil
      }
    }
    return parseAmount(ref, slot: slot, in: record, into: &amount)
  }

  /// True for a present value `decodeDirect` takes out of line: a string
  /// with escapes that decodes, or (with `allowInteger`) an integer written
  /// as a number. False for anything the general path would reject.
  @inline(never)
  func isRareValid(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>, allowInteger: Bool) -> Bool {
    switch value.kind {
    case .escapedString: return isDecodable(value, in: record)
    case .number: return allowInteger && Self.isInteger(value, in: record)
    default: return false
    }
  }
}
