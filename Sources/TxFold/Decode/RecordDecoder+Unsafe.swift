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
  @inlinable
  func decodeDirect(
    _ record: UnsafeBufferPointer<UInt8>, impliedState: ImpliedState, into decoded: inout DecodedRecord
  ) -> DecodeFailure? {
    let slots = scanner.slots
    decoded.impliedState = impliedState

    // id: a string, or an integer written as a JSON number; or the position.
    decoded.id = .absent
    if self.plan.id >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count (`DecodePlan.init`).
      let id = slots[self.plan.id]
      if id.kind == .string {
        decoded.id = id
      } else if id.kind == .absent || id.kind == .null {
        if self.plan.idRequired { return decodeFields(record, impliedState: impliedState, into: &decoded) }
      } else if isRareValid(id, in: record, allowInteger: true) {
        decoded.id = id
      } else {
        return decodeFields(record, impliedState: impliedState, into: &decoded)
      }
    }

    // The instant and its day.
    // Safe because a direct plan has an instant slot below the scanner's slot count.
    let instant = slots[self.plan.instant]
    guard instant.kind == .string,
      let writtenDay = TimestampParser.parse(
        UnsafeBufferPointer(rebasing: record[instant.start..<instant.end]), into: &decoded.instant)
    else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
    decoded.day = datesAsWritten ? writtenDay : zone.resolve(&decoded.instant)

    // The amount, exact.
    // Safe because a direct plan has an amount slot below the scanner's slot count.
    let amountRef = slots[self.plan.amount]
    // Short plain decimals (a string without escapes, or a number) in line, as
    // `DecimalParser.parse` takes them; anything else through `parseAmount`.
    if amountRef.kind == .string || amountRef.kind == .number, amountRef.end - amountRef.start <= 18,
      let value = DecimalParser.parsePlain(
        UnsafeBufferPointer(rebasing: record[amountRef.start..<amountRef.end]),
        allowLeadingZeros: amountRef.kind == .string)
    {
      decoded.amount = value
    } else if let failure = parseAmount(amountRef, slot: self.plan.amount, in: record, into: &decoded.amount) {
      return failure
    }
    if self.plan.amountIsMagnitude && decoded.amount.isNegative {
      return DecodeFailure(.invalidAmount, slot: self.plan.amount, value: amountRef)
    }

    // The currency, written or the schema's default.
    decoded.currency = .absent
    if self.plan.currency >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let currency = slots[self.plan.currency]
      guard currency.kind == .string, currency.end > currency.start else {
        return decodeFields(record, impliedState: impliedState, into: &decoded)
      }
      decoded.currency = currency
    }

    // The indicator, written or from the sign.
    if self.plan.indicator >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let indicator = slots[self.plan.indicator]
      guard indicator.kind == .string,
        let code = Self.indicator(UnsafeBufferPointer(rebasing: record[indicator.start..<indicator.end]))
      else { return decodeFields(record, impliedState: impliedState, into: &decoded) }
      decoded.indicator = code
      if self.plan.amountIsMagnitude && code == .debit { decoded.amount = decoded.amount.negated }
    } else {
      decoded.indicator = decoded.amount.isNegative ? .debit : .credit
    }

    // The state, written or the schema's default.
    decoded.state = .absent
    if self.plan.state >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let state = slots[self.plan.state]
      guard state.kind == .string, state.end > state.start else {
        return decodeFields(record, impliedState: impliedState, into: &decoded)
      }
      decoded.state = state
    }

    // Optional strings are validated as strings (or null) but not decoded yet.
    decoded.description = .absent
    if self.plan.description >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let description = slots[self.plan.description]
      if description.kind == .string {
        decoded.description = description
      } else if description.kind != .absent && description.kind != .null {
        guard isRareValid(description, in: record, allowInteger: false) else {
          return decodeFields(record, impliedState: impliedState, into: &decoded)
        }
        decoded.description = description
      }
    }
    decoded.category = .absent
    if self.plan.category >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let category = slots[self.plan.category]
      if category.kind == .string {
        decoded.category = category
      } else if category.kind != .absent && category.kind != .null {
        guard isRareValid(category, in: record, allowInteger: true) else {
          return decodeFields(record, impliedState: impliedState, into: &decoded)
        }
        decoded.category = category
      }
    }
    decoded.counterparty = .absent
    let counterpartySlot = decoded.indicator == .debit ? self.plan.counterpartyDebit : self.plan.counterparty
    if counterpartySlot >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let counterparty = slots[counterpartySlot]
      if counterparty.kind == .string {
        decoded.counterparty = counterparty
      } else if counterparty.kind != .absent && counterparty.kind != .null {
        guard isRareValid(counterparty, in: record, allowInteger: false) else {
          return decodeFields(record, impliedState: impliedState, into: &decoded)
        }
        decoded.counterparty = counterparty
      }
    }

    decoded.fee = nil
    if self.plan.fee >= 0 {
      // Safe because a direct plan's slots are below the scanner's slot count.
      let fee = slots[self.plan.fee]
      if !Self.isAbsentOrNull(fee) {
        var value = ExactDecimal.zero
        if let failure = parseAmount(fee, slot: self.plan.fee, in: record, into: &value) { return failure }
        decoded.fee = value
      }
    }
    return nil
  }

  /// True for a present value `decodeDirect` takes out of line: a string
  /// with escapes that decodes, or (with `allowInteger`) an integer written
  /// as a number. False for anything the general path would reject.
  @usableFromInline @inline(never)
  func isRareValid(_ value: ValueRef, in record: UnsafeBufferPointer<UInt8>, allowInteger: Bool) -> Bool {
    switch value.kind {
    case .escapedString: return isDecodable(value, in: record)
    case .number: return allowInteger && Self.isInteger(value, in: record)
    default: return false
    }
  }
}
