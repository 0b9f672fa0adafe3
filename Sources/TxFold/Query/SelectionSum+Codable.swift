/// The `sum` of `ListRenderer`'s `json` format (the CLI's `list --format
/// json`): an array with one object per currency. Not `Decodable`: the
/// format has no `feeCount`.
extension SelectionSum: Encodable {
  /// Encodes the sum as its array of per-currency objects.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(currencies)
  }
}

/// `{"currency":…,"count":…,"amount":…,"fees":…,"total":…}`.
extension CurrencySum: Encodable {
  private enum CodingKeys: String, CodingKey { case currency, count, amount, fees, total }

  /// Encodes the currency's sums as the list format's object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(currency, forKey: .currency)
    try container.encode(count, forKey: .count)
    try container.encode(amount, forKey: .amount)
    try container.encode(fees, forKey: .fees)
    try container.encode(total, forKey: .total)
  }
}

/// The stable code, `"invalid-timestamp"`.
extension RejectReason: Codable {}
