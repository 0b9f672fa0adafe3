/// `"CRDT"` or `"DBIT"`.
extension CreditDebitIndicator: Codable {
  /// Decodes `CRDT` or `DBIT`; any other string is a data-corrupted error.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let code = try container.decode(String.self)
    guard let indicator = CreditDebitIndicator(code: code) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(code)' is not CRDT or DBIT")
    }
    self = indicator
  }

  /// Encodes the indicator as its code.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(code)
  }
}

/// The transaction object of a list's `json`/`jsonl` formats (`ReportRenderer`, the
/// CLI's `list --format json`): `id`, `instant` (as written), `date` (its
/// written day), `state`, `creditDebitIndicator`, `amount` (signed), `currency`,
/// `fee` (when it has one), `total` (`amount + fee`), then `description`,
/// `category`, `counterparty` when present, and `account` when it has one
/// (a per-account run's transactions). Amounts are strings.
///
/// Decoding reads the stored fields and ignores `date` and `total`, which
/// follow from them, so a transaction round-trips exactly.
extension Transaction: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, instant, date, state, creditDebitIndicator, amount, currency, fee, total
    case description, category, counterparty, account
  }

  /// Decodes a transaction from the list object, reading only the stored fields.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      instant: try container.decode(Timestamp.self, forKey: .instant),
      amount: try container.decode(ExactDecimal.self, forKey: .amount),
      currency: try container.decode(String.self, forKey: .currency),
      creditDebitIndicator: try container.decode(CreditDebitIndicator.self, forKey: .creditDebitIndicator),
      state: try container.decode(String.self, forKey: .state),
      description: try container.decodeIfPresent(String.self, forKey: .description),
      category: try container.decodeIfPresent(String.self, forKey: .category),
      counterparty: try container.decodeIfPresent(String.self, forKey: .counterparty),
      fee: try container.decodeIfPresent(ExactDecimal.self, forKey: .fee),
      account: try container.decodeIfPresent(String.self, forKey: .account))
  }

  /// Encodes the transaction as the list formats' object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(instant, forKey: .instant)
    try container.encode(instant.writtenDay, forKey: .date)
    try container.encode(state, forKey: .state)
    try container.encode(creditDebitIndicator, forKey: .creditDebitIndicator)
    try container.encode(amount, forKey: .amount)
    try container.encode(currency, forKey: .currency)
    try container.encodeIfPresent(fee, forKey: .fee)
    guard let total = fee.map({ amount.adding($0) }) ?? amount else {
      throw EncodingError.invalidValue(
        self, .init(codingPath: container.codingPath, debugDescription: "amount + fee overflows 128 bits"))
    }
    try container.encode(total, forKey: .total)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encodeIfPresent(category, forKey: .category)
    try container.encodeIfPresent(counterparty, forKey: .counterparty)
    try container.encodeIfPresent(account, forKey: .account)
  }
}
