/// One worker's side of tonight's records: each accepted record of tonight's
/// inputs, as a state record with its place (u64 place, u32 length, payload).
/// One worker's thread uses it, so its buffers skip the runtime's dynamic
/// exclusivity check (two calls per access, per record).
final class StateDelta {
  let state: NightlyState
  let firstInput: Int
  @exclusivity(unchecked) private var entries: [UInt8] = []
  @exclusivity(unchecked) private var scratch: [UInt8] = []

  init(state: NightlyState) {
    self.state = state
    firstInput = state.firstTonightInput
  }

  /// Adds an accepted record, read with `schema`, at `place`; a record without
  /// an id takes `position`, its position in its input, as its id.
  func add(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?,
    schema: RecordSchema, place: UInt64, position: Int
  ) {
    StateFile.appendU64(place, to: &entries)
    let lengthAt = entries.count
    StateFile.appendU32(0, to: &entries)
    let start = entries.count
    StateRecord.append(
      decoded, record: record, account: account, schema: schema,
      position: position,
      to: &entries, scratch: &scratch)
    let length = UInt32(truncatingIfNeeded: entries.count - start).littleEndian
    withUnsafeBytes(of: length) { bytes in
      for index in 0..<4 { entries[lengthAt + index] = bytes[index] }
    }
    if entries.count >= 1 << 20 { handOver() }
  }

  /// Hands what is buffered to the state.
  func handOver() {
    state.take(&entries)
  }
}

extension StateRecord {
  /// Appends the payload of an accepted record: its values as the report
  /// sees them, the schema's defaults filled in.
  static func append(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, account: UnsafeBufferPointer<UInt8>?,
    schema: RecordSchema, position: Int, to out: inout [UInt8], scratch: inout [UInt8]
  ) {
    func present(_ ref: ValueRef) -> Bool {
      ref.kind == .string || ref.kind == .escapedString || ref.kind == .number
    }
    var flags: Flags = []
    if account != nil { flags.insert(.hasAccount) }
    if present(decoded.description) { flags.insert(.hasDescription) }
    if present(decoded.category) { flags.insert(.hasCategory) }
    if present(decoded.counterparty) { flags.insert(.hasCounterparty) }
    if decoded.fee != nil { flags.insert(.hasFee) }
    if decoded.id.kind == .absent { flags.insert(.positionalID) }
    out.append(flags.rawValue)
    out.append(decoded.indicator == .debit ? 1 : 0)
    func field(_ write: (inout [UInt8]) -> Void) {
      scratch.removeAll(keepingCapacity: true)
      write(&scratch)
      StateFile.appendU32(UInt32(truncatingIfNeeded: scratch.count), to: &out)
      out.append(contentsOf: scratch)
    }
    func text(_ ref: ValueRef, otherwise: String) {
      if present(ref) {
        field { GroupTable.appendDecoded(ref, record, to: &$0) }
      } else {
        field { $0.append(contentsOf: otherwise.utf8) }
      }
    }
    text(decoded.id, otherwise: String(position))
    field { decoded.instant.appendText(to: &$0) }
    field { decoded.amount.appendText(to: &$0) }
    text(decoded.currency, otherwise: schema.defaultCurrency ?? RecordSchema.standardCurrency)
    text(decoded.state, otherwise: decoded.impliedState.state ?? schema.defaultState ?? KnownState.completed)
    if let account { field { $0.append(contentsOf: account) } }
    if present(decoded.description) { text(decoded.description, otherwise: "") }
    if present(decoded.category) { text(decoded.category, otherwise: "") }
    if present(decoded.counterparty) { text(decoded.counterparty, otherwise: "") }
    if let fee = decoded.fee { field { fee.appendText(to: &$0) } }
  }
}
