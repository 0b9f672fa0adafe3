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
    self.init(sections: try container[.sections], stats: try container[.stats])
  }

  /// Encodes the report as the `json` format's document.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(keyedBy: CodingKeys.self, [.sections: sections, .stats: stats])
  }
}

/// `{"state":…,"groups":[…]}`; the groups leave out the state their section already names.
extension ReportSection: Codable {
  private enum CodingKeys: String, CodingKey { case state, groups }

  /// Decodes a section; its groups take the section's `state`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let state: String = try container[.state]
    self.init(
      state: state, groups: try container.decodeArray(forKey: .groups) { try TransactionGroup(from: $0, state: state) })
  }

  /// Encodes the section as its state and its groups.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(keyedBy: CodingKeys.self, [.state: state, .groups: groups.map(GroupInSection.init)])
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
      state: try state ?? container[.state], date: try container[.date],
      creditDebitIndicator: try container[.creditDebitIndicator], count: try container[.count],
      totals: try container[.totals], latest: try container[.latest], transactions: try container[.transactions])
  }

  /// Encodes the group as a `jsonl` line's object, state included.
  public func encode(to encoder: any Encoder) throws { try encode(to: encoder, includingState: true) }

  func encode(to encoder: any Encoder, includingState: Bool) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [
        .state: includingState ? state : nil, .date: date, .creditDebitIndicator: creditDebitIndicator,
        .count: count, .totals: totals, .latest: latest, .transactions: transactions,
      ])
  }
}

/// `{"currency":"EUR","amount":"3839.90"}`, as the `json` format writes a total: without its
/// `count`, which decodes as `nil`.
extension CurrencyTotal: Codable {
  private enum CodingKeys: String, CodingKey { case currency, amount }

  /// Decodes a total from its `currency` and its amount as a decimal string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(currency: try container[.currency], amount: try container[.amount])
  }

  /// Encodes the total as `currency` and `amount`.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(keyedBy: CodingKeys.self, [.currency: currency, .amount: amount])
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
      id: try container[.id], description: try container[ifPresent: .description], amount: try container[.amount],
      currency: try container[.currency], instant: try container[.instant])
  }

  /// Encodes the member as the reports' member object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [.id: id, .description: description, .amount: amount, .currency: currency, .instant: instant])
  }
}

/// `{"lines":…,"accepted":…,"rejected":…,"duplicates":…}`, then `selected` (a `group` run with
/// a selection), `accounts` (a per-account run) and `changedAccounts` (`--changed-only`) when
/// they are set: every report's `stats`.
extension RunStats: Codable {
  private enum CodingKeys: String, CodingKey {
    case lines, accepted, rejected, duplicates, selected, accounts, changedAccounts
    // Only in the command line's `--stats` document, which a monitor decodes too.
    case rejectedByReason, schema, bytesRead, bytesInflated
  }

  /// Decodes the accounting of a report's `stats`, or of the command line's
  /// `--stats` document, which also carries the rejections per reason, the
  /// schema and the byte counts; what a document does not carry (a report's
  /// `stats` has none of them; hints are in neither) is left empty. A reason
  /// code this version does not know, from a later one, is left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    (lines, accepted) = (try container[.lines], try container[.accepted])
    (rejected, duplicates) = (try container[.rejected], try container[.duplicates])
    selected = try container[ifPresent: .selected]
    accounts = try container[ifPresent: .accounts]
    changedAccounts = try container[ifPresent: .changedAccounts]
    let byReason: [String: Int] = try container[ifPresent: .rejectedByReason] ?? [:]
    for (code, count) in byReason where count > 0 {
      if let reason = RejectReason(rawValue: code) { rejectedByReason[reason] = count }
    }
    schema = try container[ifPresent: .schema] ?? ""
    bytesRead = try container[ifPresent: .bytesRead] ?? 0
    bytesDecoded = try container[ifPresent: .bytesInflated] ?? 0
  }

  /// Encodes the accounting as every report's `stats` object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [
        .lines: lines, .accepted: accepted, .rejected: rejected, .duplicates: duplicates, .selected: selected,
        .accounts: accounts, .changedAccounts: changedAccounts,
      ])
  }
}

/// `{"account":…,"count":…,"sections":[…]}`: a line of `group --per-account --format jsonl`,
/// and an element of the `json` document's `accounts`.
extension AccountReport: Codable {
  private enum CodingKeys: String, CodingKey { case account, count, sections }

  /// Decodes one account's report.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(account: try container[.account], count: try container[.count], sections: try container[.sections])
  }

  /// Encodes the account's report as its per-account object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(keyedBy: CodingKeys.self, [.account: account, .count: count, .sections: sections])
  }
}
