// The report types encode to the `json` format of `ReportRenderer` (the
// CLI's `--format json`) and decode from it: equal as JSON values, not byte
// for byte (the renderer fixes the layout). Decoding mirrors the writers'
// keys exactly; amounts decode from their decimal strings, never through
// `Double`, and timestamps keep their written form. What a report holds
// beyond the format — a total's `count`, the run's byte counts, schema,
// hints and rejections per reason — decodes as unknown (`nil`, zero, empty)
// and is left out of `==` (see `RunStats` and `CurrencyTotal`), so
// `decode(encode(r)) == r` for every report `r`.

extension GroupReport: Codable {
  private enum CodingKeys: String, CodingKey { case sections, stats }

  /// Decodes a report from the `json` format's document (`sections` and `stats`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      sections: try container.decode([ReportSection].self, forKey: .sections),
      stats: try container.decode(RunStats.self, forKey: .stats))
  }

  /// Encodes the report as the `json` format's document.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sections, forKey: .sections)
    try container.encode(stats, forKey: .stats)
  }
}

/// `{"state":…,"groups":[…]}`; the groups leave out the state their section already names.
extension ReportSection: Codable {
  private enum CodingKeys: String, CodingKey { case state, groups }

  /// Decodes a section; its groups take the section's `state`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let state = try container.decode(String.self, forKey: .state)
    var groupsContainer = try container.nestedUnkeyedContainer(forKey: .groups)
    var groups: [TransactionGroup] = []
    while !groupsContainer.isAtEnd {
      groups.append(try TransactionGroup(from: try groupsContainer.superDecoder(), state: state))
    }
    self.init(state: state, groups: groups)
  }

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
extension TransactionGroup: Codable {
  private enum CodingKeys: String, CodingKey {
    case state, date, creditDebitIndicator, count, totals, latest, transactions
  }

  /// Decodes a group from a `jsonl` line's object, which names its `state`.
  public init(from decoder: any Decoder) throws { try self.init(from: decoder, state: nil) }

  /// Decodes a group; `state` is the enclosing section's (a group inside a
  /// section has no `state` of its own), or `nil` to read the group's key.
  init(from decoder: any Decoder, state: String?) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      state: try state ?? container.decode(String.self, forKey: .state),
      date: try container.decode(CalendarDay.self, forKey: .date),
      creditDebitIndicator: try container.decode(CreditDebitIndicator.self, forKey: .creditDebitIndicator),
      count: try container.decode(Int.self, forKey: .count),
      totals: try container.decode([CurrencyTotal].self, forKey: .totals),
      latest: try container.decode(Timestamp.self, forKey: .latest),
      transactions: try container.decode([GroupMember].self, forKey: .transactions))
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

/// `{"id":…,"description":…,"amount":…,"currency":…,"instant":…}`, `description` only when
/// present, `instant` as written in the input.
extension GroupMember: Codable {
  private enum CodingKeys: String, CodingKey { case id, description, amount, currency, instant }

  /// Decodes a member from the reports' member object.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(String.self, forKey: .id),
      description: try container.decodeIfPresent(String.self, forKey: .description),
      amount: try container.decode(ExactDecimal.self, forKey: .amount),
      currency: try container.decode(String.self, forKey: .currency),
      instant: try container.decode(Timestamp.self, forKey: .instant))
  }

  /// Encodes the member as the reports' member object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encode(amount, forKey: .amount)
    try container.encode(currency, forKey: .currency)
    try container.encode(instant, forKey: .instant)
  }
}

/// `{"lines":…,"accepted":…,"rejected":…,"duplicates":…}`, then `selected` (a `group` run with
/// a selection), `accounts` (a per-account run) and `changedAccounts` (`--changed-only`) when
/// they are set: every report's `stats`.
extension RunStats: Codable {
  private enum CodingKeys: String, CodingKey {
    case lines, accepted, rejected, duplicates, selected, accounts, changedAccounts
  }

  /// Decodes the accounting of a report's `stats`; what the format does not
  /// carry (byte counts, schema, hints, rejections per reason) is left empty.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    lines = try container.decode(Int.self, forKey: .lines)
    accepted = try container.decode(Int.self, forKey: .accepted)
    rejected = try container.decode(Int.self, forKey: .rejected)
    duplicates = try container.decode(Int.self, forKey: .duplicates)
    selected = try container.decodeIfPresent(Int.self, forKey: .selected)
    accounts = try container.decodeIfPresent(Int.self, forKey: .accounts)
    changedAccounts = try container.decodeIfPresent(Int.self, forKey: .changedAccounts)
    schema = ""
  }

  /// Encodes the accounting as every report's `stats` object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(lines, forKey: .lines)
    try container.encode(accepted, forKey: .accepted)
    try container.encode(rejected, forKey: .rejected)
    try container.encode(duplicates, forKey: .duplicates)
    try container.encodeIfPresent(selected, forKey: .selected)
    try container.encodeIfPresent(accounts, forKey: .accounts)
    try container.encodeIfPresent(changedAccounts, forKey: .changedAccounts)
  }
}

/// `{"account":…,"count":…,"sections":[…]}`: a line of `group --per-account --format jsonl`,
/// and an element of the `json` document's `accounts`.
extension AccountReport: Codable {
  private enum CodingKeys: String, CodingKey { case account, count, sections }

  /// Decodes one account's report.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      account: try container.decode(String.self, forKey: .account),
      count: try container.decode(Int.self, forKey: .count),
      sections: try container.decode([ReportSection].self, forKey: .sections))
  }

  /// Encodes the account's report as its per-account object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(account, forKey: .account)
    try container.encode(count, forKey: .count)
    try container.encode(sections, forKey: .sections)
  }
}
