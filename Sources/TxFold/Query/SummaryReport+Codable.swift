// The summary types encode to `SummaryRenderer`'s `json` format (the CLI's
// `summary --format json`), equal as JSON values, and decode from it. A key
// is written as its text (or `null`); the document's `by` says whether it is
// a day, a week, a month, a year or a text, so `SummaryReport` decodes its
// entries' keys by its dimension. A lone `SummaryEntry` (a `jsonl` line, which
// has no `by`) decodes its key by the dimension the decoder's `userInfo` names
// under `SummaryDimension.userInfoKey`, and as text (or `missing`) without one.

/// The dimension's name: `"category"`, `"day"`, …
extension SummaryDimension: Codable {
  /// The key of a decoder's `userInfo` that says which dimension a lone ``SummaryEntry`` —
  /// a line of `summary --format jsonl`, which does not name it — was summed by, so that its
  /// key decodes as the `json` document's does (`.day`, `.week`, `.month`, `.year`):
  ///
  /// ```swift
  /// let decoder = JSONDecoder()
  /// decoder.userInfo[SummaryDimension.userInfoKey] = SummaryDimension.day
  /// let entry = try decoder.decode(SummaryEntry.self, from: line)   // key: .day(2019-05-15)
  /// ```
  ///
  /// Without it an entry's key decodes as text, since a line alone cannot tell the day
  /// `2019-05-15` from a category of that name.
  public static let userInfoKey: CodingUserInfoKey = {
    guard let key = CodingUserInfoKey(rawValue: "TxFold.SummaryDimension") else {
      preconditionFailure("a key made from a constant name")
    }
    return key
  }()
}

/// `{"by":…,"entries":[…],"totals":[…],"stats":{…}}`.
extension SummaryReport: Codable {
  private enum CodingKeys: String, CodingKey { case by, entries, totals, stats }

  /// Decodes a summary's `json` document; each entry's key is read as the
  /// document's dimension writes it (`2019-05-17`, `2025-W01`, `2019-05`, `2019`, a text or
  /// `null`), and a key that does not fit it is a data-corrupted error.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let dimension: SummaryDimension = try container[.by]
    let entries = try container.decodeArray(forKey: .entries) { try SummaryEntry(from: $0, dimension: dimension) }
    self.init(dimension: dimension, entries: entries, totals: try container[.totals], stats: try container[.stats])
  }

  /// Encodes the report as the summary's `json` document.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self, [.by: dimension, .entries: entries, .totals: totals, .stats: stats])
  }
}

/// `{"account":…,"count":…,"by":…,"entries":[…],"totals":[…]}`: a line of `summary --per-account
/// --format jsonl`, and an element of the `json` document's `accounts`
/// (`PerAccountReport<AccountSummary>`) — the account's summary document without its `stats`,
/// which decode as empty (`RunStats()`; the run's are the document's).
extension AccountSummary: Codable {
  private enum CodingKeys: String, CodingKey { case account, count, by, entries, totals }

  /// Decodes one account's summary; each entry's key is read as `by` writes it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let dimension: SummaryDimension = try container[.by]
    let entries = try container.decodeArray(forKey: .entries) { try SummaryEntry(from: $0, dimension: dimension) }
    self.init(
      account: try container[.account], count: try container[.count],
      report: SummaryReport(dimension: dimension, entries: entries, totals: try container[.totals], stats: RunStats()))
  }

  /// Encodes the account's summary as its per-account object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self,
      [
        .account: account, .count: count, .by: report.dimension, .entries: report.entries,
        .totals: report.totals,
      ])
  }
}

/// `{"key":…,"count":…,"currencies":[…]}`, `key` the key's text or `null`.
extension SummaryEntry: Codable {
  private enum CodingKeys: String, CodingKey { case key, count, currencies }

  /// Decodes an entry, its key read as the dimension in the decoder's `userInfo` under
  /// ``SummaryDimension/userInfoKey`` writes it (a key that does not fit it is a data-corrupted
  /// error), or as a text (a category, counterparty or state) or `null` when none is named;
  /// `SummaryReport` decodes its entries by its own dimension.
  public init(from decoder: any Decoder) throws {
    let dimension = decoder.userInfo[SummaryDimension.userInfoKey] as? SummaryDimension
    try self.init(from: decoder, dimension: dimension ?? .category)
  }

  /// Decodes an entry, its key read as `dimension` writes it.
  init(from decoder: any Decoder, dimension: SummaryDimension) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let key: SummaryKey
    if let text: String = try container[ifPresent: .key] {
      guard let parsed = SummaryKey(text: text, dimension: dimension) else {
        throw DecodingError.dataCorruptedError(
          forKey: .key, in: container, debugDescription: "'\(text)' is not a key of the \(dimension) dimension")
      }
      key = parsed
    } else {
      key = .missing
    }
    self.init(key: key, count: try container[.count], currencies: try container[.currencies])
  }

  /// Encodes the entry as one key's object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self, [.key: key.text as any Encodable, .count: count, .currencies: currencies])
  }
}

/// `{"currency":…,"count":…,"income":…,"expense":…}`.
extension SummaryCurrencyTotals: Codable {
  private enum CodingKeys: String, CodingKey { case currency, count, income, expense }

  /// Decodes a currency's totals, amounts as decimal strings.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      currency: try container[.currency], count: try container[.count], income: try container[.income],
      expense: try container[.expense])
  }

  /// Encodes a currency's totals as the summary's object.
  public func encode(to encoder: any Encoder) throws {
    try encoder.encodeFields(
      keyedBy: CodingKeys.self, [.currency: currency, .count: count, .income: income, .expense: expense])
  }
}

extension SummaryKey {
  /// The key `text` names in `dimension` — the inverse of `SummaryKey.text`:
  /// `YYYY-MM-DD` for `day`, `YYYY-Www` for `week`, `YYYY-MM` for `month`,
  /// `YYYY` for `year`, the text itself otherwise; `nil` when `text` is not
  /// such a key (`2019-02-30`, `2019-13`, `2019-W54`).
  public init?(text: String, dimension: SummaryDimension) {
    // Dates are read as the day they print from (`CalendarDay(written:)`), so that a year outside
    // 0001–9999, which an app's own transactions grouped in a zone can reach, reads back as written.
    switch dimension {
    case .category, .counterparty, .state:
      self = .text(text)
    case .day:
      guard let day = CalendarDay(written: text) else { return nil }
      self = .day(day)
    case .year:
      guard let first = CalendarDay(written: text + "-01-01") else { return nil }
      self = .year(first.components.year)
    case .month:
      guard let first = CalendarDay(written: text + "-01") else { return nil }
      self = .month(year: first.components.year, month: first.components.month)
    case .week:
      // `YEAR-Www`: the year is all before the last four bytes.
      let bytes = Array(text.utf8)
      guard bytes.count > 4, bytes[bytes.count - 4] == UInt8(ascii: "-"), bytes[bytes.count - 3] == UInt8(ascii: "W"),
        let first = CalendarDay(written: String(decoding: bytes.dropLast(4), as: UTF8.self) + "-01-01")
      else { return nil }
      let digits = bytes.suffix(2)
      guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return nil
      }
      let week = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard (1...53).contains(week) else { return nil }
      self = .week(year: first.components.year, week: week)
    }
    guard self.text == text else { return nil }
  }
}
