import TxFold

/// The writers of the schemas other than Backbase (`txfold gen --schema`): each writes the
/// drawn `Draft` in its schema's field names and shapes, with the paths `RecordSchema` reads.
/// Their keys come in one fixed order, that of the schema's own exports; the separator style
/// (`spaced`) and the unknown field (`extra`) are the draft's, as in Backbase records. Amounts
/// are signed (a debit negative), as these schemas write them: the reader takes the indicator
/// from the sign.
extension RecordWriter {
  /// A PAYBACK item: `{"partnerDisplayName":…,"alias":{"reference":ID},"category":…,
  /// "transactionDetail":{"description":…,"bookingDate":…,"value":{"amount":-7.5,"currency":"EUR"}}}`.
  func appendPayback(_ draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    var first = true
    out.append(.openBrace)
    if draft.counterPartyName {
      appendMember(SchemaKeys.partnerDisplayName, first: &first, to: &out)
      Self.appendString(merchant.counterparty?.name ?? [], to: &out)
    }
    appendMember(SchemaKeys.alias, first: &first, to: &out)
    out.append(.openBrace)
    appendKey(SchemaKeys.reference, to: &out)
    Self.appendID(of: draft, to: &out)
    out.append(.closeBrace)
    if draft.category != .absent {
      appendMember(Corpus.keyCategory, first: &first, to: &out)
      Self.appendCategory(of: draft, merchant: merchant, to: &out)
    }
    appendExtra(of: draft, first: &first, to: &out)
    appendMember(SchemaKeys.transactionDetail, first: &first, to: &out)
    var inner = true
    out.append(.openBrace)
    appendDescription(of: draft, merchant: merchant, key: Corpus.keyDescription, first: &inner, to: &out)
    appendMember(SchemaKeys.bookingDate, first: &inner, to: &out)
    Self.appendQuotedTimestamp(of: draft, to: &out)
    appendMember(SchemaKeys.value, first: &inner, to: &out)
    out.append(.openBrace)
    appendKey(Corpus.keyAmount, to: &out)
    Self.appendSignedAmount(of: draft, to: &out)
    appendSeparator(.comma, to: &out)
    appendKey(SchemaKeys.currency, to: &out)
    Self.appendString(Corpus.currencies[draft.currency.rawValue], to: &out)
    out.append(.closeBrace)
    out.append(.closeBrace)
    out.append(.closeBrace)
  }

  /// A ledger entry: `{"id":ID,"date":…,"amount":-7.5,"description":…}`. The ledger has no
  /// currency, category or counterparty: the reader gives every amount `--currency`'s.
  func appendLedger(_ draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    var first = true
    out.append(.openBrace)
    appendMember(Corpus.keyID, first: &first, to: &out)
    Self.appendID(of: draft, to: &out)
    appendMember(SchemaKeys.date, first: &first, to: &out)
    Self.appendQuotedTimestamp(of: draft, to: &out)
    appendMember(Corpus.keyAmount, first: &first, to: &out)
    Self.appendSignedAmount(of: draft, to: &out)
    appendDescription(of: draft, merchant: merchant, key: Corpus.keyDescription, first: &first, to: &out)
    appendExtra(of: draft, first: &first, to: &out)
    out.append(.closeBrace)
  }

  /// A Swile transaction: `{"name":…,"type":…,"date":…,"message":…,
  /// "amount":{"value":-7.5,"currency":{"iso_3":"EUR"}}}`. Swile has no id: the reader
  /// numbers the records by their position.
  func appendSwile(_ draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    var first = true
    out.append(.openBrace)
    if draft.counterPartyName {
      appendMember(SchemaKeys.name, first: &first, to: &out)
      Self.appendString(merchant.counterparty?.name ?? [], to: &out)
    }
    if draft.category != .absent {
      appendMember(Corpus.keyType, first: &first, to: &out)
      Self.appendCategory(of: draft, merchant: merchant, to: &out)
    }
    appendMember(SchemaKeys.date, first: &first, to: &out)
    Self.appendQuotedTimestamp(of: draft, to: &out)
    appendDescription(of: draft, merchant: merchant, key: SchemaKeys.message, first: &first, to: &out)
    appendMember(Corpus.keyAmount, first: &first, to: &out)
    out.append(.openBrace)
    appendKey(SchemaKeys.value, to: &out)
    Self.appendSignedAmount(of: draft, to: &out)
    appendSeparator(.comma, to: &out)
    appendKey(SchemaKeys.currency, to: &out)
    out.append(.openBrace)
    appendKey(SchemaKeys.iso3, to: &out)
    Self.appendString(Corpus.currencies[draft.currency.rawValue], to: &out)
    out.append(.closeBrace)
    out.append(.closeBrace)
    appendExtra(of: draft, first: &first, to: &out)
    out.append(.closeBrace)
  }

  /// A Berlin Group transaction: `{"transactionId":ID,"bookingDateTime":…,
  /// "transactionAmount":{"amount":"-7.5","currency":"EUR"},"creditorName":…,
  /// "remittanceInformationUnstructured":…}`; a bare date is a `bookingDate`, and a credit's
  /// counterparty is its `debtorName`. No category; the state and the account belong to a
  /// report around the transactions, which a line has not.
  func appendPSD2(_ draft: Draft, merchant: Merchant, to out: inout [UInt8]) {
    var first = true
    out.append(.openBrace)
    appendMember(SchemaKeys.transactionID, first: &first, to: &out)
    Self.appendID(of: draft, to: &out)
    let dateKey = draft.timeStyle == .dateOnly ? SchemaKeys.bookingDate : SchemaKeys.bookingDateTime
    appendMember(dateKey, first: &first, to: &out)
    Self.appendQuotedTimestamp(of: draft, to: &out)
    appendMember(SchemaKeys.transactionAmount, first: &first, to: &out)
    out.append(.openBrace)
    appendKey(Corpus.keyAmount, to: &out)
    out.append(.quote)
    Self.appendSignedAmount(of: draft, to: &out)
    out.append(.quote)
    appendSeparator(.comma, to: &out)
    appendKey(SchemaKeys.currency, to: &out)
    Self.appendString(Corpus.currencies[draft.currency.rawValue], to: &out)
    out.append(.closeBrace)
    if draft.counterPartyName {
      appendMember(draft.credit ? SchemaKeys.debtorName : SchemaKeys.creditorName, first: &first, to: &out)
      Self.appendString(merchant.counterparty?.name ?? [], to: &out)
    }
    appendDescription(
      of: draft, merchant: merchant, key: SchemaKeys.remittanceInformation, first: &first, to: &out)
    appendExtra(of: draft, first: &first, to: &out)
    out.append(.closeBrace)
  }

  // MARK: Pieces

  /// `,"key":` — or `"key":` for the first member of an object.
  func appendMember(_ key: [UInt8], first: inout Bool, to out: inout [UInt8]) {
    if !first { appendSeparator(.comma, to: &out) }
    first = false
    appendKey(key, to: &out)
  }

  /// The description under `key`: the merchant's, `""`, or nothing, as drawn.
  func appendDescription(
    of draft: Draft, merchant: Merchant, key: [UInt8], first: inout Bool, to out: inout [UInt8]
  ) {
    guard draft.description != .absent else { return }
    appendMember(key, first: &first, to: &out)
    Self.appendString(draft.description == .merchant ? merchant.description : [], to: &out)
  }

  /// The drawn unknown field, key included, when there is one.
  func appendExtra(of draft: Draft, first: inout Bool, to out: inout [UInt8]) {
    guard let extra = draft.extra else { return }
    if !first { appendSeparator(.comma, to: &out) }
    first = false
    out.append(contentsOf: Corpus.extras[extra])
  }

  /// The amount with its sign: a debit's magnitude after a `-`.
  static func appendSignedAmount(of draft: Draft, to out: inout [UInt8]) {
    if !draft.credit { out.append(.minus) }
    appendMagnitude(of: draft, to: &out)
  }

  /// The record's timestamp as a JSON string, in its drawn style.
  static func appendQuotedTimestamp(of draft: Draft, to out: inout [UInt8]) {
    out.append(.quote)
    appendTimestamp(of: draft, to: &out)
    out.append(.quote)
  }
}

/// The keys of the other schemas, with their quotes (those shared with Backbase are in `Corpus`).
enum SchemaKeys {
  static let partnerDisplayName = Array(#""partnerDisplayName""#.utf8)
  static let alias = Array(#""alias""#.utf8)
  static let reference = Array(#""reference""#.utf8)
  static let transactionDetail = Array(#""transactionDetail""#.utf8)
  static let bookingDate = Array(#""bookingDate""#.utf8)
  static let value = Array(#""value""#.utf8)
  static let currency = Array(#""currency""#.utf8)
  static let date = Array(#""date""#.utf8)
  static let name = Array(#""name""#.utf8)
  static let message = Array(#""message""#.utf8)
  static let iso3 = Array(#""iso_3""#.utf8)
  static let transactionID = Array(#""transactionId""#.utf8)
  static let bookingDateTime = Array(#""bookingDateTime""#.utf8)
  static let transactionAmount = Array(#""transactionAmount""#.utf8)
  static let creditorName = Array(#""creditorName""#.utf8)
  static let debtorName = Array(#""debtorName""#.utf8)
  static let remittanceInformation = Array(#""remittanceInformationUnstructured""#.utf8)
}
