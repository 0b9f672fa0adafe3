/// `GroupOptions.filter` as a worker applies it: a decoded record's values
/// compared with the filter's where they lie in the record's bytes, with the
/// same rules as `TransactionFilter.matches(_:)` on the `Transaction` the
/// record would make (a test holds the two together), and without making one.
///
/// One per worker: the escaped or upper-cased text it compares goes through a
/// buffer it reuses, so a selection allocates nothing per record.
final class RecordSelection {
  let filter: TransactionFilter
  private var scratch: [UInt8] = []

  /// `nil` when the filter keeps everything, so the fold pays one test per record.
  init?(_ filter: TransactionFilter) {
    guard !filter.keepsEverything else { return nil }
    self.filter = filter
    scratch.reserveCapacity(256)
  }

  /// Whether the record passes every condition of the filter.
  ///
  /// - Parameters:
  ///   - state: the record's state when it has none written (implied or the schema's default), upper-cased.
  ///   - currency: the record's currency when it has none written (the schema's default), upper-cased.
  ///   - position: its position, its id when it has none.
  func matches(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, state: [UInt8], currency: [UInt8],
    position: Int
  ) -> Bool {
    if let since = filter.since, decoded.day < since { return false }
    if let until = filter.until, until < decoded.day { return false }
    if let states = filter.states {
      if decoded.state.kind == .absent || decoded.state.kind == .null {
        guard states.contains(state) else { return false }
      } else {
        guard text(decoded.state, record, upperCased: true), states.contains(scratch) else { return false }
      }
    }
    if let currencies = filter.currencies {
      if decoded.currency.kind == .absent || decoded.currency.kind == .null {
        guard currencies.contains(currency) else { return false }
      } else {
        guard text(decoded.currency, record, upperCased: true), currencies.contains(scratch) else { return false }
      }
    }
    if let categories = filter.categories {
      if text(decoded.category, record, upperCased: false), !scratch.isEmpty {
        guard categories.contains(scratch) else { return false }
      } else if !filter.keepsUncategorized {
        return false
      }
    }
    if filter.readsIDs {
      if !text(decoded.id, record, upperCased: false) {
        scratch.removeAll(keepingCapacity: true)
        RecordExtender.appendDecimal(position, to: &scratch)
      }
      if let onlyIDs = filter.onlyIDs, !onlyIDs.contains(scratch) { return false }
      if filter.excludedIDs.contains(scratch) { return false }
    }
    return true
  }

  /// `matches` for a record whose state, when it has none written, is the
  /// one its array implies, else `defaultState` (the schema's, upper-cased).
  @inline(__always)
  func matches(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, defaultState: [UInt8], currency: [UInt8],
    position: Int
  ) -> Bool {
    matches(
      decoded, record: record, state: decoded.impliedState.stateBytes(else: defaultState), currency: currency,
      position: position)
  }

  /// Puts a value's text in `scratch` (a string decoded, a number as
  /// written), as `RecordDecoder.text` gives it; `false` when the value has no text.
  private func text(_ ref: ValueRef, _ record: UnsafeBufferPointer<UInt8>, upperCased: Bool) -> Bool {
    switch ref.kind {
    case .string, .number, .escapedString: break
    default: return false
    }
    scratch.removeAll(keepingCapacity: true)
    GroupTable.withDecoded(ref, record) { scratch.append(contentsOf: $0) }
    if upperCased {
      for index in scratch.indices { scratch[index] = ByteStringInterner.upper(scratch[index]) }
    }
    return true
  }
}
