/// Gives a decoded record the values its schema supplies rather than its
/// bytes — the default currency, its position as id — by writing them after a
/// copy of the record, so the code that reads every value out of the record's
/// bytes (the group table, the dedupe table) needs no special case.
///
/// Example: a ledger record `{"id":7,"date":"2018-07-11","amount":-1.5}` has
/// no currency; the copy is `{"id":7,…,"amount":-1.5}EUR` and the decoded
/// record's currency points at the last three bytes.
///
/// Only records that lack such a value pay for the copy (a memcpy into a
/// buffer that is reused, so no allocation once it has grown): Backbase,
/// PAYBACK and PSD2 records with ids never do. One per worker.
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
