import Foundation
import Testing

@_spi(Benchmarks) @testable import TxFold

/// Decoding rules at the edges of the input: days outside years 1–9999,
/// repeated keys, empty ids.
@Suite("RecordDecoder edges")
struct RecordDecoderEdgeTests {
  /// The outcome of decoding `text` in `zone`: the day, or the reason code.
  static func outcome(_ text: String, zone: String? = nil, kernel: RecordScanner.Kernel = .best) -> String {
    let resolver = zone.flatMap { ZoneResolver(identifier: $0) } ?? .asWritten
    let decoder = RecordDecoder(schema: .backbase, zone: resolver)
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      switch decoder.decode(UnsafeBufferPointer(buffer)) {
      case .success(let decoded): return decoded.day.description
      case .failure(let failure): return failure.reason.code
      }
    }
  }

  @Test(
    "A day outside 0001-01-01...9999-12-31 is an invalid timestamp, after --timezone too",
    arguments: [
      ("0001-01-01T00:00:00+00:00", nil, "0001-01-01"),
      ("0001-01-01T00:00:00+00:00", "America/New_York", "invalid-timestamp"),
      ("0001-01-01T00:00:00+00:00", "Asia/Tokyo", "0001-01-01"),
      ("0001-01-01T12:00:00Z", "America/New_York", "0001-01-01"),
      ("0001-01-01", "America/New_York", "0001-01-01"),
      ("0000-12-31T23:00:00Z", nil, "invalid-timestamp"),
      ("0000-12-31T23:00:00Z", "Asia/Tokyo", "invalid-timestamp"),
      ("0000-06-01", nil, "invalid-timestamp"),
      ("9999-12-31T23:00:00Z", nil, "9999-12-31"),
      ("9999-12-31T23:00:00Z", "America/New_York", "9999-12-31"),
      ("9999-12-31T23:00:00Z", "Asia/Tokyo", "invalid-timestamp"),
      ("9999-12-31T10:00:00Z", "Pacific/Kiritimati", "invalid-timestamp"),
      ("9999-12-31T09:59:59Z", "Pacific/Kiritimati", "9999-12-31"),
      ("9999-12-31T23:59:59", "Pacific/Kiritimati", "9999-12-31"),
    ] as [(String, String?, String)])
  func yearRange(time: String, zone: String?, expected: String) {
    let record = backbaseRecord(time: "\"\(time)\"")
    #expect(Self.outcome(record, zone: zone) == expected, "\(time) in \(zone ?? "-")")
  }

  @Test("Days outside years 1-9999 print without stopping the process (values built by hand)")
  func calendarDayNeverTraps() {
    #expect(CalendarDay(year: 1, month: 1, day: 1) == CalendarDay.first)
    #expect(CalendarDay(year: 9999, month: 12, day: 31) == CalendarDay.last)
    #expect(CalendarDay(year: 0, month: 12, day: 31).description == "0000-12-31")
    #expect(CalendarDay(year: -1, month: 12, day: 31).description == "-0001-12-31")
    #expect(CalendarDay(year: 10000, month: 1, day: 1).description == "10000-01-01")
    #expect(!CalendarDay(daysSinceEpoch: Int32.min).description.isEmpty)
    #expect(!CalendarDay(daysSinceEpoch: Int32.max).description.isEmpty)
    #expect(!CalendarDay(year: 0, month: 12, day: 31).isInSupportedRange)
    #expect(!CalendarDay(year: 10000, month: 1, day: 1).isInSupportedRange)
    var stamp = Timestamp(
      year: -5, month: 1, day: 2, hour: 0, minute: 0, second: 0, fractionDigits: 0, style: .dateOnly,
      offsetNegative: false, nanosecond: 0, offsetMinutes: 0, epochSeconds: 0)
    #expect(stamp.description == "-0005-01-02")
    stamp._year = 12345
    #expect(stamp.description == "12345-01-02")
  }

  static let kernels: [RecordScanner.Kernel] = [.best, .byteAtATime]

  @Test(
    "A repeated key's last value wins as a whole, on both scanner paths",
    arguments: [
      // The second object has no currency: the first one's is not merged in.
      (
        #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED","transactionAmountCurrency":{"amount":"2.00"}}"#,
        "missing-field"
      ),
      (
        #"{"id":"1","transactionAmountCurrency":{"currencyCode":"USD"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED","transactionAmountCurrency":{"amount":"2.00","currencyCode":"EUR"}}"#,
        "2.00 EUR"
      ),
      (
        #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED","transactionAmountCurrency":null}"#,
        "missing-field"
      ),
      (
        #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED","transactionAmountCurrency":"x"}"#,
        "missing-field"
      ),
      (
        #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR","amount":"3.00"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED"}"#,
        "3.00 EUR"
      ),
      (
        #"{"id":"1","transactionAmountCurrency":{"amount":"1.00","currencyCode":"EUR"},"creditDebitIndicator":"CRDT","creationTime":"2019-05-15T10:00:00Z","state":"COMPLETED","x":{"transactionAmountCurrency":{}}}"#,
        "1.00 EUR"
      ),
    ] as [(String, String)])
  func repeatedKeys(record: String, expected: String) {
    for kernel in Self.kernels {
      let scanner = RecordScanner(trie: RecordSchema.backbase.trie, kernel: kernel)
      let decoder = RecordDecoder(schema: .backbase)
      var bytes = Array(record.utf8)
      let outcome = bytes.withUnsafeMutableBufferPointer { buffer -> String in
        let record = UnsafeBufferPointer(buffer)
        // The scanner under test, then the decoder's own (best kernel): both must agree.
        guard scanner.scan(record) == nil else { return "invalid" }
        let amount = scanner.value(RecordSchema.backbase.amountSlot)
        let currency = scanner.value(RecordSchema.backbase.currencySlot)
        let seen =
          amount.kind == .string && currency.kind == .string
          ? String(decoding: record[amount.start..<amount.end], as: UTF8.self) + " "
            + String(decoding: record[currency.start..<currency.end], as: UTF8.self) : "missing-field"
        switch decoder.decode(record) {
        case .success(let decoded):
          let code = String(decoding: record[decoded.currency.start..<decoded.currency.end], as: UTF8.self)
          #expect(seen == "\(decoded.amount) \(code)", "\(kernel)")
        case .failure(let failure):
          #expect(seen == failure.reason.code, "\(kernel)")
        }
        return seen
      }
      #expect(outcome == expected, "\(kernel)")
    }
  }

  @Test(
    "An empty id is invalid-field, as an empty state or currency is",
    arguments: [
      (#""""#, "invalid-field"),
      (#""7""#, "ok"),
      (#"7"#, "ok"),
      (#""\u0041""#, "ok"),
    ])
  func emptyID(id: String, expected: String) {
    let record = backbaseRecord(id: id)
    let outcome = Self.outcome(record)
    #expect((outcome == "invalid-field" ? "invalid-field" : "ok") == expected, "\(id): \(outcome)")
    // The general path (PSD2-like fallbacks are not needed: call it directly) agrees.
    let decoder = RecordDecoder(schema: .backbase)
    var bytes = Array(record.utf8)
    let general = bytes.withUnsafeMutableBufferPointer { buffer -> String in
      let record = UnsafeBufferPointer(buffer)
      _ = decoder.scanner.scan(record)
      var decoded = DecodedRecord()
      return decoder.decodeFields(record, impliedState: .none, into: &decoded).map { $0.reason.code } ?? "ok"
    }
    #expect(general == expected)
  }
}
