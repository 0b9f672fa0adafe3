/// The `sum` of a list's `json` format (`ReportRenderer`, the CLI's `list --format
/// json`): an array with one object per currency. Decoding sets `count` to
/// the sum of the currencies' counts.
extension SelectionSum: Codable {
  /// Decodes the sum from its array of per-currency objects.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init()
    currencies = try container.decode([CurrencySum].self)
    count = currencies.reduce(0) { $0 + $1.count }
  }

  /// Encodes the sum as its array of per-currency objects.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(currencies)
  }
}

/// `{"currency":…,"count":…,"amount":…,"fees":…,"total":…}`. The format has
/// no `feeCount`: decoding sets it to `count` when `fees` is not zero, else
/// to 0, and `==` does not compare it.
extension CurrencySum: Codable {
  private enum CodingKeys: String, CodingKey { case currency, count, amount, fees, total }

  /// Decodes one currency's sums, amounts from their decimal strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let count: Int = try container[.count]
    let fees: ExactDecimal = try container[.fees]
    self.init(
      currency: try container[.currency], count: count, amount: try container[.amount], fees: fees,
      feeCount: fees == .zero ? 0 : count, total: try container[.total])
  }

  /// Encodes the currency's sums as the list format's object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self, [.currency: currency, .count: count, .amount: amount, .fees: fees, .total: total])
  }
}

/// The stable code, `"invalid-timestamp"`.
extension RejectReason: Codable {}
