// The summary types encode to `SummaryRenderer`'s `json` format (the CLI's
// `summary --format json`), equal as JSON values. A key is written as its
// text (or `null`), which does not say whether it was a day, a month or a
// category, so `SummaryEntry` and `SummaryReport` are `Encodable` only;
// `SummaryDimension` and `SummaryCurrencyTotals` are plain values and `Codable`.

/// The dimension's name: `"category"`, `"day"`, …
extension SummaryDimension: Codable {}

/// `{"by":…,"entries":[…],"totals":[…],"stats":{…}}`.
extension SummaryReport: Encodable {
  private enum CodingKeys: String, CodingKey { case by, entries, totals, stats }

  /// Encodes the report as the summary's `json` document.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(dimension, forKey: .by)
    try container.encode(entries, forKey: .entries)
    try container.encode(totals, forKey: .totals)
    try container.encode(stats, forKey: .stats)
  }
}

/// `{"key":…,"count":…,"currencies":[…]}`, `key` the key's text or `null`.
extension SummaryEntry: Encodable {
  private enum CodingKeys: String, CodingKey { case key, count, currencies }

  /// Encodes the entry as one key's object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let text = key.text {
      try container.encode(text, forKey: .key)
    } else {
      try container.encodeNil(forKey: .key)
    }
    try container.encode(count, forKey: .count)
    try container.encode(currencies, forKey: .currencies)
  }
}

/// `{"currency":…,"count":…,"income":…,"expense":…}`.
extension SummaryCurrencyTotals: Codable {
  private enum CodingKeys: String, CodingKey { case currency, count, income, expense }

  /// Decodes a currency's totals, amounts as decimal strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      currency: try container.decode(String.self, forKey: .currency),
      count: try container.decode(Int.self, forKey: .count),
      income: try container.decode(ExactDecimal.self, forKey: .income),
      expense: try container.decode(ExactDecimal.self, forKey: .expense))
  }

  /// Encodes a currency's totals as the summary's object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(currency, forKey: .currency)
    try container.encode(count, forKey: .count)
    try container.encode(income, forKey: .income)
    try container.encode(expense, forKey: .expense)
  }
}
