extension RecordDecoder {
  /// Materialises a decoded record as a full `Transaction`, with the values
  /// its schema supplies filled in: the default currency, the implied or
  /// default state, and the position as id when the record has none.
  ///
  /// This allocates the transaction's strings; the group path folds straight
  /// from the bytes instead, and `list` and `summary` call this for the
  /// records they keep.
  ///
  /// - Parameters:
  ///   - decoded: what `decode(_:impliedState:)` returned for `record`.
  ///   - record: the same bytes that were decoded.
  ///   - position: the record's 1-based position in its input; the id of a
  ///     record without one.
  @_spi(Benchmarks) public func transaction(
    from decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int
  )
    -> Transaction
  {
    let id = Self.text(decoded.id, in: record) ?? String(position)
    let currency = Self.text(decoded.currency, in: record) ?? schema.defaultCurrency ?? RecordSchema.standardCurrency
    let state =
      Self.text(decoded.state, in: record) ?? decoded.impliedState.state ?? schema.defaultState
      ?? KnownState.completed
    // `Transaction.init` upper-cases the currency and the state, as the fold does.
    return Transaction(
      id: id, instant: decoded.instant, amount: decoded.amount, currency: currency,
      creditDebitIndicator: decoded.indicator, state: state, description: Self.text(decoded.description, in: record),
      category: Self.text(decoded.category, in: record), counterparty: Self.text(decoded.counterparty, in: record),
      fee: decoded.fee)
  }

  /// A value's text: a string decoded, a number as written, `nil` when absent.
  static func text(_ ref: ValueRef, in record: UnsafeBufferPointer<UInt8>) -> String? {
    switch ref.kind {
    case .string, .number:
      return String(decoding: UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]), as: UTF8.self)
    case .escapedString:
      // The decoder checked that it decodes; a lone surrogate cannot reach here.
      return StringDecoder.decodeToString(UnsafeBufferPointer(rebasing: record[ref.start..<ref.end]))
    default:
      return nil
    }
  }

}
