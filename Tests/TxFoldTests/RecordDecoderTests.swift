import Testing

@_spi(Benchmarks) @testable import TxFold

/// A valid Backbase record with one field replaced, for the tables below.
func backbaseRecord(
  id: String = #""1""#, amount: String = #""12.50""#, currency: String = #""EUR""#, indicator: String = #""DBIT""#,
  time: String = #""2019-05-15T14:28:01""#, state: String = #""PENDING""#, description: String = #""Coffee""#,
  extra: String = ""
) -> String {
  var fields: [String] = []
  if !id.isEmpty { fields.append(#""id":\#(id)"#) }
  if !description.isEmpty { fields.append(#""description":\#(description)"#) }
  var money: [String] = []
  if !amount.isEmpty { money.append(#""amount":\#(amount)"#) }
  if !currency.isEmpty { money.append(#""currencyCode":\#(currency)"#) }
  fields.append(#""transactionAmountCurrency":{\#(money.joined(separator: ","))}"#)
  if !indicator.isEmpty { fields.append(#""creditDebitIndicator":\#(indicator)"#) }
  if !time.isEmpty { fields.append(#""creationTime":\#(time)"#) }
  if !state.isEmpty { fields.append(#""state":\#(state)"#) }
  if !extra.isEmpty { fields.append(extra) }
  return "{" + fields.joined(separator: ",") + "}"
}

@Suite("RecordDecoder")
struct RecordDecoderTests {
  static func decode(_ text: String, trailingCommas: Bool = false) -> Result<Transaction, DecodeFailure> {
    let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: trailingCommas)
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      let record = UnsafeBufferPointer(buffer)
      return decoder.decode(record).map { decoded in
        let table = GroupTable(memberLimit: 1)
        _ = table.fold(decoded, record: record, defaultState: 0)
        let member = table.report(stats: RunStats()).sections[0].groups[0].transactions[0]
        return Transaction(
          id: member.id, instant: decoded.instant, amount: decoded.amount, currency: member.currency,
          creditDebitIndicator: decoded.indicator, state: table.report(stats: RunStats()).sections[0].state,
          description: member.description)
      }
    }
  }

  @Test("A valid record decodes with exact, signed values")
  func valid() throws {
    let transaction = try Self.decode(backbaseRecord()).get()
    #expect(transaction.id == "1")
    #expect(transaction.amount.description == "-12.50")
    #expect(transaction.currency == "EUR")
    #expect(transaction.creditDebitIndicator == .debit)
    #expect(transaction.state == "PENDING")
    #expect(transaction.description == "Coffee")
    #expect(transaction.instant.description == "2019-05-15T14:28:01")
  }

  @Test("Keys in any order, whitespace, unknown nested values skipped")
  func anyOrder() throws {
    let text = """
       { "state" : "completed" , "x":{"a":[1,{"b":"}\\"]"}],"c":null}, "creationTime":"2019-05-15",
      "transactionAmountCurrency" : { "currencyCode":"USD","junk":[[]],"amount":1919.95 },
      "creditDebitIndicator":"CRDT","id":4734,"description":"Caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ \\/" }\t
      """.replacingOccurrences(of: "\n", with: " ")
    let transaction = try Self.decode(text).get()
    #expect(transaction.id == "4734")
    #expect(transaction.state == "COMPLETED")
    #expect(transaction.amount.description == "1919.95")
    #expect(transaction.description == "Café 😀 \"q\" \\ /")
  }

  @Test(
    "Bad records are rejected with their reason and field",
    arguments: [
      ("not json", RejectReason.invalidJSON, nil as String?),
      (#"{"id":"1""#, .invalidJSON, nil),
      ("[1,2]", .notAnObject, nil),
      (#""text""#, .notAnObject, nil),
      ("42", .notAnObject, nil),
      (backbaseRecord() + "}", .invalidJSON, nil),
      (backbaseRecord(extra: #""x":tru"#), .invalidJSON, nil),
      (backbaseRecord(extra: #""x":01"#), .invalidJSON, nil),
      (backbaseRecord(extra: #""x":"\q""#), .invalidJSON, nil),
      (backbaseRecord(extra: "\"x\":\"a\u{01}b\""), .invalidJSON, nil),
      (backbaseRecord(extra: #""x":[1,]"#), .invalidJSON, nil),
      (backbaseRecord(extra: #""x":{"a":1,}"#), .invalidJSON, nil),
      (backbaseRecord(extra: #""x":"\u12G4""#), .invalidJSON, nil),
      (backbaseRecord(id: ""), .missingField, "id"),
      (backbaseRecord(id: "null"), .missingField, "id"),
      (backbaseRecord(id: "1.5"), .invalidField, "id"),
      (backbaseRecord(id: "true"), .invalidField, "id"),
      (backbaseRecord(amount: ""), .missingField, "transactionAmountCurrency.amount"),
      (backbaseRecord(amount: #""12,50""#), .invalidAmount, "transactionAmountCurrency.amount"),
      (backbaseRecord(amount: #""1e3""#), .invalidAmount, "transactionAmountCurrency.amount"),
      (backbaseRecord(amount: #""-12.50""#), .invalidAmount, "transactionAmountCurrency.amount"),
      (backbaseRecord(amount: "[1]"), .invalidAmount, "transactionAmountCurrency.amount"),
      (backbaseRecord(amount: #""0.0000000000000000001""#), .amountOutOfRange, "transactionAmountCurrency.amount"),
      (
        backbaseRecord(amount: String(repeating: "9", count: 40)), .amountOutOfRange, "transactionAmountCurrency.amount"
      ),
      (backbaseRecord(currency: ""), .missingField, "transactionAmountCurrency.currencyCode"),
      (backbaseRecord(currency: #""""#), .invalidField, "transactionAmountCurrency.currencyCode"),
      (backbaseRecord(indicator: #""CREDIT""#), .invalidIndicator, "creditDebitIndicator"),
      (backbaseRecord(indicator: #""crdt""#), .invalidIndicator, "creditDebitIndicator"),
      (backbaseRecord(indicator: ""), .missingField, "creditDebitIndicator"),
      (backbaseRecord(time: #""2019-02-30T10:00:00""#), .invalidTimestamp, "creationTime"),
      (backbaseRecord(time: #""2018--11T10:00:00""#), .invalidTimestamp, "creationTime"),
      (backbaseRecord(time: "1557930481"), .invalidTimestamp, "creationTime"),
      (backbaseRecord(time: ""), .missingField, "creationTime"),
      (backbaseRecord(state: ""), .missingField, "state"),
      (backbaseRecord(state: "7"), .invalidField, "state"),
      (backbaseRecord(description: "12"), .invalidField, "description"),
      (backbaseRecord(description: #""\ud800 lone""#), .invalidUTF8, "description"),
      (backbaseRecord(extra: #""x":"\udc00""#), nil, nil),
      (String(repeating: "[", count: 70) + String(repeating: "]", count: 70), .nestingTooDeep, nil),
      (
        backbaseRecord(extra: #""x":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64)),
        .nestingTooDeep, nil
      ),
      (
        backbaseRecord(extra: #""x":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63)),
        nil, nil
      ),
      ("", .invalidJSON, nil),
      ("   ", .invalidJSON, nil),
    ] as [(String, RejectReason?, String?)])
  func rejects(text: String, reason: RejectReason?, field: String?) {
    switch Self.decode(text) {
    case .success:
      #expect(reason == nil, "accepted: \(text)")
    case .failure(let failure):
      #expect(failure.reason == reason, "\(text)")
      #expect(RecordSchema.backbase.fieldName(slot: failure.slot) == field)
    }
  }

  @Test("Invalid UTF-8 bytes inside strings are rejected; valid multi-byte text is not")
  func utf8() {
    let cases: [([UInt8], RejectReason?)] = [
      (Array("\u{E9}\u{6771}\u{1F600}".utf8), nil),
      ([0xC3], .invalidUTF8),  // cut short
      ([0xC0, 0xAF], .invalidUTF8),  // overlong
      ([0xED, 0xA0, 0x80], .invalidUTF8),  // encoded surrogate
      ([0xF4, 0x90, 0x80, 0x80], .invalidUTF8),  // above U+10FFFF
      ([0xFF], .invalidUTF8),
      ([0x80], .invalidUTF8),
    ]
    for (bytes, expected) in cases {
      var record = Array(#"{"description":""#.utf8) + bytes + Array(#"","#.utf8)
      record += Array(backbaseRecord(description: "").dropFirst().utf8)
      let text = String(decoding: record, as: UTF8.self)
      _ = text
      let decoder = RecordDecoder(schema: .backbase)
      let result = record.withUnsafeBufferPointer { decoder.decode($0) }
      switch result {
      case .success: #expect(expected == nil, "\(bytes)")
      case .failure(let failure): #expect(failure.reason == expected, "\(bytes)")
      }
    }
  }

  @Test("Trailing commas only with the option")
  func trailingCommas() {
    let text =
      #"{"id":"1","transactionAmountCurrency":{"amount":"1","currencyCode":"EUR",},"#
      + #""creditDebitIndicator":"CRDT","creationTime":"2019-05-15","state":"PENDING",}"#
    #expect((try? Self.decode(text).get()) == nil)
    #expect((try? Self.decode(text, trailingCommas: true).get()) != nil)
  }

  @Test(
    "A bracket that closes the wrong container is named as such, never as a trailing comma",
    arguments: [
      (#"{"x":[1,}"#, false, #"Invalid JSON at byte 9: '}' does not close the '[' at byte 6"#),
      (#"{"x":[1,}"#, true, #"Invalid JSON at byte 9: '}' does not close the '[' at byte 6"#),
      (#"{"x":{"y":"[",}]}"#, true, #"Invalid JSON at byte 16: ']' does not close the '{' at byte 1"#),
      (#"{"x":[1]]"#, false, #"Invalid JSON at byte 9: ']' does not close the '{' at byte 1"#),
      (#"{"a":1}}"#, false, "Invalid JSON at byte 8: unexpected '}'"),
      (#"{"x":[1],}"#, false, "Invalid JSON at byte 10: trailing comma before '}' (allowTrailingCommas accepts it)"),
    ])
  func mismatchedBrackets(text: String, trailingCommas: Bool, detail: String) {
    let bytes = Array(text.utf8)
    let decoder = RecordDecoder(schema: .backbase, allowTrailingCommas: trailingCommas)
    let rejection: RecordRejection? = bytes.withUnsafeBufferPointer { record in
      guard case .failure(let failure) = decoder.decode(record) else { return nil }
      return RejectionDescriber.rejection(for: failure, record: record, schema: .backbase, file: "f", line: 1)
    }
    #expect(rejection?.message == detail + " (f, line 1).")
    #expect(rejection?.clue == (detail.contains("trailing comma") ? .trailingComma : RejectionClue.none))
  }

  @Test(
    "A negative Backbase amount is rejected saying that its amounts are unsigned; other invalid amounts are not",
    arguments: [
      (
        #""-12.50""#,
        "Invalid amount '-12.50' in field 'transactionAmountCurrency.amount': backbase amounts are unsigned, "
          + "the direction is 'creditDebitIndicator' (CRDT or DBIT)"
      ),
      (
        "-3",
        "Invalid amount '-3' in field 'transactionAmountCurrency.amount': backbase amounts are unsigned, "
          + "the direction is 'creditDebitIndicator' (CRDT or DBIT)"
      ),
      (#""-1e3""#, "Invalid amount '-1e3' in field 'transactionAmountCurrency.amount'"),
      (#""12,50""#, "Invalid amount '12,50' in field 'transactionAmountCurrency.amount'"),
    ])
  func unsignedAmount(amount: String, detail: String) {
    let bytes = Array(backbaseRecord(amount: amount).utf8)
    let decoder = RecordDecoder(schema: .backbase)
    let rejection: RecordRejection? = bytes.withUnsafeBufferPointer { record in
      guard case .failure(let failure) = decoder.decode(record) else { return nil }
      return RejectionDescriber.rejection(for: failure, record: record, schema: .backbase, file: "f", line: 1)
    }
    #expect(rejection?.reason == .invalidAmount)
    #expect(rejection?.message == detail + " (f, line 1).")
  }

  @Test("Duplicate keys: the last one wins")
  func duplicateKeys() throws {
    let text = backbaseRecord(extra: #""state":"COMPLETED","id":"2""#)
    let transaction = try Self.decode(text).get()
    #expect(transaction.state == "COMPLETED")
    #expect(transaction.id == "2")
  }

  @Test("Escaped keys and escaped indicator and timestamp values decode")
  func escapedKeys() throws {
    let text = backbaseRecord(indicator: #""\u0043RDT""#, time: #""2019\u002d05-15""#, extra: #""st\u0061te":"done""#)
    let transaction = try Self.decode(text).get()
    #expect(transaction.creditDebitIndicator == .credit)
    #expect(transaction.state == "DONE")
    #expect(transaction.instant.description == "2019-05-15")
  }

  @Test(
    "An object or array value is quoted alone, not to the end of the record",
    arguments: [
      (backbaseRecord(id: #"{"a":1}"#), #"{"a":1}"#, "id"),
      (backbaseRecord(time: #"["2019-05-15",{"z":"]}"}]"#), #"["2019-05-15",{"z":"]}"}]"#, "creationTime"),
      (backbaseRecord(amount: #"{"v":"1.00"}"#), #"{"v":"1.00"}"#, "transactionAmountCurrency.amount"),
      (backbaseRecord(currency: "[]"), "[]", "transactionAmountCurrency.currencyCode"),
      (backbaseRecord(indicator: #"{"d":"\"}"}"#), #"{"d":"\"}"}"#, "creditDebitIndicator"),
      (backbaseRecord(state: #"[ [1] , {} ]"#), #"[ [1] , {} ]"#, "state"),
      (backbaseRecord(extra: #""category":{"a":1},"counterPartyName":"Shop""#), #"{"a":1}"#, "category"),
      // Read only when a per-account run requires the account.
      (backbaseRecord(extra: #""arrangementId":[{"x":[2]}],"category":"y""#), #"[{"x":[2]}]"#, "arrangementId"),
    ])
  func objectValuesQuoted(text: String, value: String, field: String) {
    var bytes = Array(text.utf8)
    let schema = field == "arrangementId" ? RecordSchema.backbase.requiringAccount() ?? .backbase : .backbase
    let decoder = RecordDecoder(schema: schema)
    let message: String? = bytes.withUnsafeMutableBufferPointer {
      let record = UnsafeBufferPointer($0)
      guard case .failure(let failure) = decoder.decode(record) else { return nil }
      return RejectionDescriber.rejection(for: failure, record: record, schema: schema, file: "f", line: 1).message
    }
    #expect(message?.contains(" '\(value)' in field '\(field)'") == true, "\(message ?? "accepted")")
  }

  @Test("A long object value is cut at the quote limit, with an ellipsis")
  func longObjectValueQuoted() {
    let long = "{\"a\":\"" + String(repeating: "x", count: 200) + "\"}"
    var bytes = Array(backbaseRecord(extra: #""category":\#(long),"counterPartyName":"Shop""#).utf8)
    let decoder = RecordDecoder(schema: .backbase)
    let message: String? = bytes.withUnsafeMutableBufferPointer {
      let record = UnsafeBufferPointer($0)
      guard case .failure(let failure) = decoder.decode(record) else { return nil }
      return RejectionDescriber.rejection(for: failure, record: record, schema: .backbase, file: "f", line: 1).message
    }
    #expect(
      message == "Invalid value '\(long.prefix(RejectionDescriber.quoteLimit))…' in field 'category' (f, line 1).")
  }

  @Test("Rejection messages quote the value and say where")
  func messages() {
    var bytes = Array(backbaseRecord(time: #""2019-02-30T10:00:00""#).utf8)
    let decoder = RecordDecoder(schema: .backbase)
    let failure: DecodeFailure? = bytes.withUnsafeMutableBufferPointer {
      if case .failure(let failure) = decoder.decode(UnsafeBufferPointer($0)) { return failure }
      return nil
    }
    guard let failure else {
      Issue.record("accepted")
      return
    }
    let rejection = bytes.withUnsafeBufferPointer {
      RejectionDescriber.rejection(for: failure, record: $0, schema: .backbase, file: "dump.jsonl", line: 12)
    }
    #expect(
      rejection.message == "Invalid timestamp '2019-02-30T10:00:00' in field 'creationTime' (dump.jsonl, line 12).")
    #expect(rejection.raw == bytes)
  }
}
