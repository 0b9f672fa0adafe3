/// Gives a decoded record the values its schema supplies rather than its
/// bytes — its position as id, and then also the default currency — by
/// writing them after a copy of the record, so the code that reads a member's
/// id out of the record's bytes (the member heap, the dedupe table) needs no
/// special case.
///
/// Example: a ledger record `{"date":"2018-07-11","amount":-1.5}` has no id
/// and no currency; the copy is `{"date":…,"amount":-1.5}EUR3` (the record's
/// third position) and the decoded record's currency and id point after the record.
///
/// Only records without an id (and `--dedupe` runs) pay for the copy, a
/// memcpy into a buffer that is reused: a record with an id but no currency
/// (the ledger's usual case) goes to `GroupTable.fold(_:record:defaultState:suppliedCurrency:)`
/// with the default currency as it is. One per worker.
final class RecordExtender {
  private var buffer: [UInt8] = []

  init(recordCapacity: Int) {
    buffer.reserveCapacity(recordCapacity + 64)
  }

  /// Calls `body` with the record as it is, or with an extended copy when the
  /// schema supplies its currency or its id.
  @inline(__always)
  func withSuppliedValues<T>(
    _ decoded: DecodedRecord, record: UnsafeBufferPointer<UInt8>, position: Int, currency: [UInt8],
    _ body: (DecodedRecord, UnsafeBufferPointer<UInt8>) -> T
  ) -> T {
    let needsCurrency = decoded.currency.kind == .absent
    let needsID = decoded.id.kind == .absent
    if !needsCurrency && !needsID { return body(decoded, record) }
    var extended = decoded
    buffer.removeAll(keepingCapacity: true)
    buffer.append(contentsOf: record)
    if needsCurrency {
      let start = buffer.count
      buffer.append(contentsOf: currency)
      extended.currency = ValueRef(start: start, end: buffer.count, kind: .string)
    }
    if needsID {
      let start = buffer.count
      Self.appendDecimal(position, to: &buffer)
      extended.id = ValueRef(start: start, end: buffer.count, kind: .number)
    }
    return buffer.withUnsafeBufferPointer { body(extended, $0) }
  }

  /// Appends the decimal digits of a non-negative number without making a `String`.
  static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    var remaining = max(0, value)
    let start = out.count
    repeat {
      out.append(.zero + UInt8(remaining % 10))
      remaining /= 10
    } while remaining > 0
    out[start...].reverse()
  }
}
