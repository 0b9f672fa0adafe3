/// One worker's side of tonight's records: each accepted record of tonight's
/// inputs, as a state record with its place (u64 place, u32 length, payload).
/// One worker's thread uses it, so its buffers skip the runtime's dynamic
/// exclusivity check (two calls per access, per record).
final class StateDelta {
  let state: NightlyState
  let firstInput: Int
  @exclusivity(unchecked) private var entries: [UInt8] = []

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
      to: &entries)
    let length = UInt32(truncatingIfNeeded: entries.count - start).littleEndian
    entries.withUnsafeMutableBytes { $0.storeBytes(of: length, toByteOffset: lengthAt, as: UInt32.self) }
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
    schema: RecordSchema, position: Int, to out: inout [UInt8]
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
    // Each field is written where it belongs, after room for its length, which is filled in
    // once the field is written: no copy through a scratch buffer, no `String` for a default.
    func field(_ write: (inout [UInt8]) -> Void) {
      let lengthAt = out.count
      StateFile.appendU32(0, to: &out)
      write(&out)
      let length = UInt32(truncatingIfNeeded: out.count - lengthAt - 4).littleEndian
      out.withUnsafeMutableBytes { $0.storeBytes(of: length, toByteOffset: lengthAt, as: UInt32.self) }
    }
    func text(_ ref: ValueRef) { field { GroupTable.appendDecoded(ref, record, to: &$0) } }
    if present(decoded.id) {
      text(decoded.id)
    } else {
      field { $0.appendDecimal(position) }
    }
    field { decoded.instant.appendText(to: &$0) }
    field { decoded.amount.appendText(to: &$0) }
    if present(decoded.currency) {
      text(decoded.currency)
    } else {
      field { $0.append(contentsOf: (schema.defaultCurrency ?? RecordSchema.standardCurrency).utf8) }
    }
    if present(decoded.state) {
      text(decoded.state)
    } else {
      field { $0.append(contentsOf: (decoded.impliedState.state ?? schema.defaultState ?? KnownState.completed).utf8) }
    }
    if let account { field { $0.append(contentsOf: account) } }
    if present(decoded.description) { text(decoded.description) }
    if present(decoded.category) { text(decoded.category) }
    if present(decoded.counterparty) { text(decoded.counterparty) }
    if let fee = decoded.fee { field { fee.appendText(to: &$0) } }
  }
}
