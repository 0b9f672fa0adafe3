import Testing

@_spi(Benchmarks) @testable import TxFold

@Suite("DecodePlan")
struct DecodePlanTests {
  @Test("Schemas with one path per field decode directly; those with fallbacks do not")
  func directness() {
    for schema in [RecordSchema.backbase, .payback, .ledger, .swile] {
      #expect(RecordDecoder(schema: schema).plan.direct, "\(schema.name)")
    }
    #expect(!RecordDecoder(schema: .psd2).plan.direct)
    let repeated = RecordSchema.custom([(.instant, "a"), (.instant, "b"), (.amount, "c")])
    #expect(!RecordDecoder(schema: repeated).plan.direct)
  }

  /// The direct path's result, and the general path's on the same scan.
  static func bothPaths(_ text: String, schema: RecordSchema) -> (direct: String, general: String) {
    let decoder = RecordDecoder(schema: schema)
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      let record = UnsafeBufferPointer(buffer)
      var decoded = DecodedRecord()
      let direct = describe(decoder.decode(record, impliedState: .pending, into: &decoded), decoded)
      var again = DecodedRecord()
      let general: String
      if let failure = decoder.scanner.scan(record) {
        general = "scan \(failure)"
      } else {
        general = describe(decoder.decodeFields(record, impliedState: .pending, into: &again), again)
      }
      return (direct, general)
    }
  }

  static func describe(_ failure: DecodeFailure?, _ decoded: DecodedRecord) -> String {
    if let failure { return "\(failure)" }
    return "\(decoded.id) \(decoded.instant) \(decoded.day) \(decoded.amount) \(decoded.currency) "
      + "\(decoded.indicator) \(decoded.state) \(decoded.impliedState) \(decoded.description) "
      + "\(decoded.category) \(decoded.counterparty) \(String(describing: decoded.fee))"
  }

  @Test(
    "The direct path gives the general path's record or rejection",
    arguments: [
      backbaseRecord(), backbaseRecord(id: "42"), backbaseRecord(id: "4.2"), backbaseRecord(id: "1e3"),
      backbaseRecord(id: "null"), backbaseRecord(id: ""), backbaseRecord(id: #""a\u00e9""#),
      backbaseRecord(id: #""\ud800""#), backbaseRecord(id: "true"), backbaseRecord(id: "{}"),
      backbaseRecord(amount: #""-1""#), backbaseRecord(amount: "12.5"), backbaseRecord(amount: #""x""#),
      backbaseRecord(amount: ""), backbaseRecord(amount: "null"), backbaseRecord(amount: #""1\u0030""#),
      backbaseRecord(currency: #""""#), backbaseRecord(currency: ""), backbaseRecord(currency: "null"),
      backbaseRecord(currency: #""E\u0055R""#), backbaseRecord(currency: #""\udc00""#), backbaseRecord(currency: "1"),
      backbaseRecord(indicator: #""CRDT""#), backbaseRecord(indicator: #""crdt""#), backbaseRecord(indicator: ""),
      backbaseRecord(indicator: #""DBITX""#), backbaseRecord(indicator: #""\u0044BIT""#),
      backbaseRecord(indicator: "4"), backbaseRecord(time: #""2019-02-30T10:00:00""#), backbaseRecord(time: ""),
      backbaseRecord(time: "null"), backbaseRecord(time: "1"),
      backbaseRecord(time: #""2019-05-15T14:28:01\u002B01:00""#),
      backbaseRecord(state: #""""#), backbaseRecord(state: ""), backbaseRecord(state: "null"),
      backbaseRecord(state: #""P\u00c9""#), backbaseRecord(description: ""), backbaseRecord(description: "null"),
      backbaseRecord(description: "7"), backbaseRecord(description: #""caf\u00e9""#),
      backbaseRecord(description: #""\ud800x""#), backbaseRecord(description: "[]"),
      backbaseRecord(extra: #""category":"food""#), backbaseRecord(extra: #""category":12"#),
      backbaseRecord(extra: #""category":1.2"#), backbaseRecord(extra: #""category":null"#),
      backbaseRecord(extra: #""category":false"#), backbaseRecord(extra: #""category":"\udfff""#),
      backbaseRecord(extra: #""counterPartyName":"Shop""#), backbaseRecord(extra: #""counterPartyName":3"#),
      backbaseRecord(extra: #""counterPartyName":"\u0041""#), backbaseRecord(extra: #""counterPartyName":"\ud83d""#),
      backbaseRecord(indicator: #""CRDT""#, extra: #""counterPartyName":{}"#),
    ])
  func backbase(record: String) {
    let (direct, general) = Self.bothPaths(record, schema: .backbase)
    #expect(direct == general, "\(record)")
  }

  @Test(
    "Ledger: the fee and the position id on the direct path",
    arguments: [
      #"{"id":1,"date":"2019-01-01T00:00:00Z","amount":-3.5,"fee":0.0}"#,
      #"{"id":1,"date":"2019-01-01T00:00:00Z","amount":-3.5,"fee":"x"}"#,
      #"{"id":1,"date":"2019-01-01T00:00:00Z","amount":-3.5,"fee":null}"#,
      #"{"id":1,"date":"2019-01-01T00:00:00Z","amount":1e400}"#,
      #"{"date":"2019-01-01T00:00:00Z","amount":2}"#,
      #"{"id":null,"date":"2019-01-01T00:00:00Z","amount":2}"#,
    ])
  func ledger(record: String) {
    let (direct, general) = Self.bothPaths(record, schema: .ledger)
    #expect(direct == general, "\(record)")
  }
}
