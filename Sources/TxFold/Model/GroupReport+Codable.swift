// The report types encode to the `json` format of `ReportRenderer` (the
// CLI's `--format json`): equal as JSON values, not byte for byte (the
// renderer fixes the layout). That format leaves out what a `GroupReport`
// holds beyond it — a member's currency and instant, the run's byte counts
// and rejections per reason — so these types are `Encodable` only: decoding
// would have to invent those fields. `CurrencyTotal` is a plain value and
// also `Decodable`.

extension GroupReport: Encodable {
  private enum CodingKeys: String, CodingKey { case sections, stats }

  /// Encodes the report as the `json` format's document.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sections, forKey: .sections)
    try container.encode(stats, forKey: .stats)
  }
}

/// `{"state":…,"groups":[…]}`; the groups leave out the state their section already names.
extension ReportSection: Encodable {
  private enum CodingKeys: String, CodingKey { case state, groups }

  /// Encodes the section as its state and its groups.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
    try container.encode(groups.map(GroupInSection.init), forKey: .groups)
  }

  /// A group written inside its section, without `state`.
  private struct GroupInSection: Encodable {
    let group: TransactionGroup
    func encode(to encoder: any Encoder) throws { try group.encode(to: encoder, includingState: false) }
  }
}

/// The `jsonl` format's group line: `state`, `date`, `creditDebitIndicator`,
/// `count`, `totals`, `latest`, `transactions`.
extension TransactionGroup: Encodable {
  private enum CodingKeys: String, CodingKey {
    case state, date, creditDebitIndicator, count, totals, latest, transactions
  }

  /// Encodes the group as a `jsonl` line's object, state included.
  public func encode(to encoder: any Encoder) throws { try encode(to: encoder, includingState: true) }

  func encode(to encoder: any Encoder, includingState: Bool) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if includingState { try container.encode(state, forKey: .state) }
    try container.encode(date, forKey: .date)
    try container.encode(creditDebitIndicator, forKey: .creditDebitIndicator)
    try container.encode(count, forKey: .count)
    try container.encode(totals, forKey: .totals)
    try container.encode(latest, forKey: .latest)
    try container.encode(transactions, forKey: .transactions)
  }
}

/// `{"currency":"EUR","amount":"3839.90"}`, as the `json` format writes a total: without its
/// `count`, which decodes as `nil`.
extension CurrencyTotal: Codable {
  private enum CodingKeys: String, CodingKey { case currency, amount }

  /// Decodes a total from its `currency` and its amount as a decimal string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      currency: try container.decode(String.self, forKey: .currency),
      amount: try container.decode(ExactDecimal.self, forKey: .amount))
  }

  /// Encodes the total as `currency` and `amount`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(currency, forKey: .currency)
    try container.encode(amount, forKey: .amount)
  }
}

/// `{"id":…,"description":…,"amount":…,"currency":…}`, `description` only when present.
extension GroupMember: Encodable {
  private enum CodingKeys: String, CodingKey { case id, description, amount, currency }

  /// Encodes the member as the reports' member object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encode(amount, forKey: .amount)
    try container.encode(currency, forKey: .currency)
  }
}

/// `{"lines":…,"accepted":…,"rejected":…,"duplicates":…}`, as every report's `stats`.
extension RunStats: Encodable {
  private enum CodingKeys: String, CodingKey { case lines, accepted, rejected, duplicates }

  /// Encodes the accounting as every report's `stats` object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(lines, forKey: .lines)
    try container.encode(accepted, forKey: .accepted)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(duplicates, forKey: .duplicates)
  }
}
