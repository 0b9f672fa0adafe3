import Testing

@_spi(Benchmarks) @testable import TxFold

/// Decodes one record with `schema` and materialises it as a `Transaction`.
func decodeTransaction(
  _ text: String, schema: RecordSchema, implied: ImpliedState = .none, position: Int = 1
) -> Result<Transaction, DecodeFailure> {
  let decoder = RecordDecoder(schema: schema)
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { record in
    decoder.decode(record, impliedState: implied).map {
      decoder.transaction(from: $0, record: record, position: position)
    }
  }
}

/// The reason and field of a rejected record, or `nil` when it decodes.
func rejection(_ text: String, schema: RecordSchema) -> (RejectReason, String?)? {
  let decoder = RecordDecoder(schema: schema)
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { record in
    switch decoder.decode(record) {
    case .success: return nil
    case .failure(let failure): return (failure.reason, schema.fieldName(slot: failure.slot))
    }
  }
}

@Suite("Schemas")
struct SchemaTests {
  @Test("PAYBACK: reference kept as written, integer category as text, +0200 offset, PBP points")
  func payback() throws {
    let text = """
      {"partnerDisplayName":"REWE Group","alias":{"reference":"098193809705561"},"category":1,
       "transactionDetail":{"description":"Punkte sammeln","bookingDate":"2022-07-24T10:59:05+0200",
       "value":{"amount":124,"currency":"PBP"}}}
      """
    let transaction = try decodeTransaction(text, schema: .payback).get()
    #expect(transaction.id == "098193809705561")
    #expect(transaction.counterparty == "REWE Group")
    #expect(transaction.category == "1")
    #expect(transaction.description == "Punkte sammeln")
    #expect(transaction.instant.description == "2022-07-24T10:59:05+0200")
    #expect(transaction.amount.description == "124")
    #expect(transaction.currency == "PBP")
    #expect(transaction.creditDebitIndicator == .credit)
    #expect(transaction.state == "COMPLETED")
    #expect(transaction.fee == nil)
  }

  @Test("PAYBACK: a missing description is no description")
  func paybackWithoutDescription() throws {
    let text = """
      {"partnerDisplayName":"OTTO Group","alias":{"reference":"094844835601044"},"category":2,
       "transactionDetail":{"bookingDate":"2022-07-22T10:59:05+0200","value":{"amount":53,"currency":"PBP"}}}
      """
    let transaction = try decodeTransaction(text, schema: .payback).get()
    #expect(transaction.description == nil)
    #expect(transaction.category == "2")
  }

  @Test("Ledger: signed amount and fee, integer id, default currency, indicator from the sign")
  func ledger() throws {
    let text = #"{"id":4734,"date":"2018-07-11T22:49:24.000Z","amount":-193.38,"fee":-3.18,"description":"Lorem"}"#
    let transaction = try decodeTransaction(text, schema: .ledger).get()
    #expect(transaction.id == "4734")
    #expect(transaction.amount.description == "-193.38")
    #expect(transaction.fee?.description == "-3.18")
    #expect(transaction.currency == "EUR")
    #expect(transaction.creditDebitIndicator == .debit)
    #expect(transaction.state == "COMPLETED")
    var dollars = RecordSchema.ledger
    dollars.defaultCurrency = "USD"
    #expect(try decodeTransaction(text, schema: dollars).get().currency == "USD")
  }

  @Test(
    "Ledger: fee 0.0 and missing, description null, empty and missing",
    arguments: [
      (#"{"id":1,"date":"2018-07-21","amount":37.74,"fee":0.0,"description":"x"}"#, "0.0", "x"),
      (#"{"id":1,"date":"2018-07-21","amount":37.74}"#, nil, nil),
      (#"{"id":1,"date":"2018-07-21","amount":37.74,"fee":null,"description":null}"#, nil, nil),
      (#"{"id":1,"date":"2018-07-21","amount":37.74,"description":""}"#, nil, ""),
    ] as [(String, String?, String?)])
  func ledgerOptional(text: String, fee: String?, description: String?) throws {
    let transaction = try decodeTransaction(text, schema: .ledger).get()
    #expect(transaction.fee?.description == fee)
    #expect(transaction.description == description)
    #expect(transaction.creditDebitIndicator == .credit)
  }

  @Test("Swile: no id, so the position; null message; +01:00 with milliseconds")
  func swile() throws {
    let text = """
      {"name":"Sushi WA","type":"meal_voucher","date":"2021-03-07T12:04:45.000+01:00","message":null,
       "amount":{"value":-18.63,"currency":{"iso_3":"EUR","symbol":"€","title":"Euro"}},
       "small_icon":{"url":null,"category":"meal_voucher"}}
      """
    let transaction = try decodeTransaction(text, schema: .swile, position: 7).get()
    #expect(transaction.id == "7")
    #expect(transaction.description == nil)
    #expect(transaction.counterparty == "Sushi WA")
    #expect(transaction.category == "meal_voucher")
    #expect(transaction.amount.description == "-18.63")
    #expect(transaction.creditDebitIndicator == .debit)
    #expect(transaction.currency == "EUR")
    #expect(transaction.instant.description == "2021-03-07T12:04:45.000+01:00")
  }

  static let psd2Debit = """
    {"transactionId":"2023111101697308-1","entryReference":"2023111101697308","bookingDate":"2023-11-08",
     "bookingDateTime":"2023-11-08T10:05:00Z","valueDate":"2023-11-10",
     "transactionAmount":{"amount":"-10.00","currency":"GBP"},"creditorName":"Alderaan Coffee",
     "debtorName":"Me","remittanceInformationUnstructured":"Alderaan Coffee - Alderaan"}
    """

  @Test("PSD2: signed string amount, creditor of a debit, the array's state")
  func psd2Debit() throws {
    let booked = try decodeTransaction(Self.psd2Debit, schema: .psd2, implied: .completed).get()
    #expect(booked.id == "2023111101697308-1")
    #expect(booked.amount.description == "-10.00")
    #expect(booked.creditDebitIndicator == .debit)
    #expect(booked.counterparty == "Alderaan Coffee")
    #expect(booked.description == "Alderaan Coffee - Alderaan")
    #expect(booked.instant.description == "2023-11-08T10:05:00Z")
    #expect(booked.state == "COMPLETED")
    let pending = try decodeTransaction(Self.psd2Debit, schema: .psd2, implied: .pending).get()
    #expect(pending.state == "PENDING")
    let unplaced = try decodeTransaction(Self.psd2Debit, schema: .psd2).get()
    #expect(unplaced.state == "COMPLETED")
  }

  @Test("PSD2: debtor of a credit; entryReference, bookingDate and valueDate stand in; else the position")
  func psd2Fallbacks() throws {
    let credit = """
      {"entryReference":"E1","bookingDate":"2021-11-19","valueDate":"2021-11-20","debtorName":"MON MOTHMA",
       "creditorName":"Me","transactionAmount":{"currency":"EUR","amount":"45.00"}}
      """
    let transaction = try decodeTransaction(credit, schema: .psd2).get()
    #expect(transaction.id == "E1")
    #expect(transaction.counterparty == "MON MOTHMA")
    #expect(transaction.creditDebitIndicator == .credit)
    #expect(transaction.instant.description == "2021-11-19")
    let bare = #"{"transactionId":null,"valueDate":"2021-11-19","transactionAmount":{"currency":"x","amount":"99.20"}}"#
    let pending = try decodeTransaction(bare, schema: .psd2, implied: .pending, position: 3).get()
    #expect(pending.id == "3")
    #expect(pending.instant.description == "2021-11-19")
    #expect(pending.counterparty == nil)
  }

  @Test(
    "Missing and invalid fields are rejected with the field at fault",
    arguments: [
      (
        RecordSchema.payback,
        #"{"alias":{},"transactionDetail":{"bookingDate":"2022-07-24","value":{"amount":1,"currency":"PBP"}}}"#,
        RejectReason.missingField, "alias.reference"
      ),
      (
        .payback, #"{"alias":{"reference":"1"},"transactionDetail":{"bookingDate":"2022-07-24","value":{"amount":1}}}"#,
        .missingField, "transactionDetail.value.currency"
      ),
      (
        .payback,
        #"{"alias":{"reference":"1"},"category":true,"transactionDetail":{"bookingDate":"2022-07-24","value":{"amount":1,"currency":"PBP"}}}"#,
        .invalidField, "category"
      ),
      (
        .payback,
        #"{"alias":{"reference":"1"},"category":1.5,"transactionDetail":{"bookingDate":"2022-07-24","value":{"amount":1,"currency":"PBP"}}}"#,
        .invalidField, "category"
      ),
      (.ledger, #"{"id":1,"date":"2018-07-30T19:36:60.000Z","amount":1}"#, .invalidTimestamp, "date"),
      (.ledger, #"{"id":1,"date":"2018--11T11:31:27.000Z","amount":1}"#, .invalidTimestamp, "date"),
      (.ledger, #"{"date":"2018-07-11","amount":1}"#, .missingField, "id"),
      (.ledger, #"{"id":1,"date":"2018-07-11","amount":1,"fee":"x"}"#, .invalidAmount, "fee"),
      (
        .swile, #"{"date":"2021-03-07","amount":{"value":"1e3","currency":{"iso_3":"EUR"}}}"#, .invalidAmount,
        "amount.value"
      ),
      (
        .swile, #"{"date":"2021-03-07","name":7,"amount":{"value":1,"currency":{"iso_3":"EUR"}}}"#, .invalidField,
        "name"
      ),
      (
        .psd2, #"{"transactionId":"1","transactionAmount":{"amount":"1","currency":"EUR"}}"#, .missingField,
        "bookingDateTime"
      ),
      (
        .psd2, #"{"transactionId":"1","bookingDate":"2021-02-30","transactionAmount":{"amount":"1","currency":"EUR"}}"#,
        .invalidTimestamp, "bookingDate"
      ),
      (
        .psd2, #"{"transactionId":"1","valueDate":"2021-02-03","transactionAmount":{"currency":"EUR"}}"#,
        .missingField, "transactionAmount.amount"
      ),
    ] as [(RecordSchema, String, RejectReason, String)])
  func rejected(schema: RecordSchema, text: String, reason: RejectReason, field: String) {
    let found = rejection(text, schema: schema)
    #expect(found?.0 == reason, "\(text)")
    #expect(found?.1 == field, "\(text)")
  }

  @Test("A missing field with alternatives names them all")
  func missingAlternatives() {
    let bytes = Array(#"{"transactionId":"1","transactionAmount":{"amount":"1","currency":"EUR"}}"#.utf8)
    let decoder = RecordDecoder(schema: .psd2)
    let message = bytes.withUnsafeBufferPointer { record -> String? in
      guard case .failure(let failure) = decoder.decode(record) else { return nil }
      return RejectionDescriber.rejection(for: failure, record: record, schema: .psd2, file: "f", line: 3).message
    }
    #expect(message == "Missing field 'bookingDateTime' (or 'bookingDate', 'valueDate') (f, line 3).")
  }

  @Test("A custom mapping: paths in order, a field named twice, defaults for the rest")
  func custom() throws {
    let schema = RecordSchema.custom(
      [
        (.amount, "value.amount"), (.instant, "bookedAt"), (.instant, "createdAt"), (.description, "note"),
        (.category, "kind"), (.id, "ref"),
      ], defaultCurrency: "CHF")
    #expect(schema.missingRequiredFields.isEmpty)
    let text = #"{"ref":"r-1","createdAt":"2020-01-02T03:04:05","value":{"amount":"-7.25"},"note":"Tea","kind":3}"#
    let transaction = try decodeTransaction(text, schema: schema).get()
    #expect(transaction.id == "r-1")
    #expect(transaction.instant.description == "2020-01-02T03:04:05")
    #expect(transaction.amount.description == "-7.25")
    #expect(transaction.currency == "CHF")
    #expect(transaction.creditDebitIndicator == .debit)
    #expect(transaction.state == "COMPLETED")
    #expect(transaction.description == "Tea")
    #expect(transaction.category == "3")
    // The id is mapped, so a record without it is rejected rather than numbered.
    #expect(rejection(#"{"createdAt":"2020-01-02","value":{"amount":"1"}}"#, schema: schema)?.0 == .missingField)
    #expect(RecordSchema.custom([(.id, "x")]).missingRequiredFields == [.instant, .amount])
  }

  @Test("A custom mapping with an indicator reads amounts as magnitudes, like Backbase")
  func customIndicator() throws {
    let schema = RecordSchema.custom([
      (.amount, "amt"), (.instant, "t"), (.indicator, "cd"), (.state, "st"), (.currency, "cur"),
    ])
    let text = #"{"amt":"12.00","t":"2020-01-02","cd":"DBIT","st":"pending","cur":"EUR"}"#
    let transaction = try decodeTransaction(text, schema: schema).get()
    #expect(transaction.amount.description == "-12.00")
    #expect(transaction.state == "PENDING")
    let negative = #"{"amt":"-1","t":"2020-01-02","cd":"DBIT","st":"x","cur":"EUR"}"#
    #expect(rejection(negative, schema: schema)?.0 == .invalidAmount)
  }

  @Test("Overriding a built-in schema replaces only the fields named")
  func overriding() throws {
    let schema = RecordSchema.backbase.overriding([(.description, "originalDescription")])
    #expect(schema.name == "backbase+fields")
    let text = backbaseRecord(extra: #""originalDescription":"ONLINE PAYMENT""#)
    let transaction = try decodeTransaction(text, schema: schema).get()
    #expect(transaction.description == "ONLINE PAYMENT")
    #expect(transaction.amount.description == "-12.50")
  }

  @Test("Two fields on one path both see its value")
  func sharedPath() throws {
    let schema = RecordSchema.custom([(.amount, "a"), (.instant, "t"), (.description, "n"), (.counterparty, "n")])
    let transaction = try decodeTransaction(#"{"a":1,"t":"2020-01-02","n":"Bob"}"#, schema: schema).get()
    #expect(transaction.description == "Bob")
    #expect(transaction.counterparty == "Bob")
  }

  @Test("Backbase materialises every field, the state upper-cased")
  func backbaseTransaction() throws {
    let text = backbaseRecord(
      state: #""pending""#, extra: #""category":"Food","counterPartyName":"Caf\u00e9 Bar""#)
    let transaction = try decodeTransaction(text, schema: .backbase).get()
    #expect(transaction.id == "1")
    #expect(transaction.state == "PENDING")
    #expect(transaction.category == "Food")
    #expect(transaction.counterparty == "Café Bar")
    #expect(transaction.currency == "EUR")
    #expect(transaction.amount.description == "-12.50")
  }

  @Test("Schemas by name, and field names")
  func names() {
    #expect(RecordSchema.builtIn.map(\.name) == ["backbase", "payback", "ledger", "swile", "psd2"])
    for schema in RecordSchema.builtIn { #expect(RecordSchema.named(schema.name)?.name == schema.name) }
    #expect(RecordSchema.named("custom") == nil)
    #expect(CanonicalField(name: "counterparty") == .counterparty)
    #expect(CanonicalField(name: "Amount") == nil)
    #expect(
      CanonicalField.allCases.map(\.name).joined(separator: ",")
        == "id,instant,amount,currency,indicator,state,description,category,counterparty,fee,account")
  }
}

@Suite("SchemaDetector")
struct SchemaDetectorTests {
  static func verdict(_ text: String) -> SchemaDetector.Verdict {
    let detector = SchemaDetector()
    return Array(text.utf8).withUnsafeBufferPointer { detector.verdict(for: $0) }
  }

  @Test(
    "The first valid record's keys choose the schema",
    arguments: [
      (backbaseRecord(), "backbase"),
      (#"{"partnerDisplayName":"x","alias":{"reference":"1"},"category":1,"transactionDetail":{}}"#, "payback"),
      (#"{"id":4734,"date":"2018-07-11T22:49:24.000Z","amount":-193.38,"fee":-3.18}"#, "ledger"),
      (#"{"id":3369,"date":"2018-07-19T21:33:19.000Z","amount":-38.67}"#, "ledger"),
      (#"{"name":"FNAC","type":"gift","date":"2021-03-07","message":null,"amount":{"value":-49.9}}"#, "swile"),
      (#"{"date":"2021-03-07","amount":{"value":1}}"#, "swile"),
      (#"{"transactionAmount":{"currency":"x","amount":"99.20"},"valueDate":"2021-11-19"}"#, "psd2"),
    ])
  func chooses(text: String, name: String) {
    guard case .schema(let index) = Self.verdict(text) else {
      Issue.record("no schema for \(text)")
      return
    }
    #expect(RecordSchema.builtIn[index].name == name)
  }

  @Test("Invalid records and objects that lack what every schema requires decide nothing")
  func undecided() {
    #expect(Self.verdict(#"{"id":"1","#) == .invalid)
    #expect(Self.verdict(#"[1,2]"#) == .invalid)
    #expect(Self.verdict(#"{"x":1,"items":[]}"#) == .unfit)
    #expect(Self.verdict(#"{}"#) == .unfit)
    // Some of Backbase's and the ledger's keys, but not all either requires.
    #expect(Self.verdict(#"{"id":"1","description":"x","category":"y"}"#) == .unfit)
    #expect(Self.verdict(#"{"amount":"1919.95","currencyCode":"EUR"}"#) == .unfit)
    // Swile's amount is an object; a scalar one is not Swile's.
    #expect(Self.verdict(#"{"date":"2021-03-07","amount":1}"#) == .unfit)
  }
}
