/// `"CRDT"` or `"DBIT"`.
extension CreditDebitIndicator: Codable {
  /// Decodes `CRDT` or `DBIT`; any other string is a data-corrupted error.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText(expected: "CRDT or DBIT") { CreditDebitIndicator(code: $0) }
  }

  /// Encodes the indicator as its code.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeText(code)
  }
}

/// The transaction object of a list's `json`/`jsonl` formats (`ReportRenderer`, the
/// CLI's `list --format json`): `id`, `instant` (as written), `date` (its
/// written day), `state`, `creditDebitIndicator`, `amount` (signed), `currency`,
/// `fee` (when it has one), `total` (`amount + fee`), then `description`,
/// `category`, `counterparty` when present, and `account` when it has one
/// (a per-account run's transactions). Amounts are strings.
///
/// Decoding reads the stored fields and `date` (the day the list dated it on,
/// `Transaction.date`) and ignores `total`, which follows from them, so a
/// transaction round-trips exactly.
extension Transaction: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, instant, date, state, creditDebitIndicator, amount, currency, fee, total
    case description, category, counterparty, account
  }

  /// Decodes a transaction from the list object: the stored fields and its `date`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container[.id], instant: try container[.instant], amount: try container[.amount],
      currency: try container[.currency], creditDebitIndicator: try container[.creditDebitIndicator],
      state: try container[.state], description: try container[ifPresent: .description],
      category: try container[ifPresent: .category], counterparty: try container[ifPresent: .counterparty],
      fee: try container[ifPresent: .fee], account: try container[ifPresent: .account])
    if let date: CalendarDay = try container[ifPresent: .date] { self.date = date }
  }

  /// Encodes the transaction as the list formats' object.
  public func encode(to encoder: any Encoder) throws {
    guard let total = fee.map({ amount.adding($0) }) ?? amount else {
      throw EncodingError.invalidValue(
        self, .init(codingPath: encoder.codingPath, debugDescription: "amount + fee overflows 128 bits"))
    }
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [
        .id: id, .instant: instant, .date: date, .state: state,
        .creditDebitIndicator: creditDebitIndicator, .amount: amount, .currency: currency, .fee: fee,
        .total: total, .description: description, .category: category, .counterparty: counterparty,
        .account: account,
      ])
  }
}
