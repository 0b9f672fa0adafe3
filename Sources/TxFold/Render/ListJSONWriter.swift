/// Writes `txfold list`'s `json` and `jsonl` formats: locale-independent,
/// amounts as strings in canonical text (never through binary floating point).
///
/// One transaction object, keys in this order (the optional ones only when
/// the transaction has them):
///
/// ```
/// {"id":"t-2","instant":"2019-05-16T18:00:00+02:00","date":"2019-05-16","state":"COMPLETED","creditDebitIndicator":"DBIT","amount":"-120.00","currency":"EUR","fee":"-1.50","total":"-121.50","description":"Rent","category":"Housing","counterparty":"ACME"}
/// ```
///
/// `instant` is the timestamp as written, `date` its day (in `--timezone`
/// when given), `amount` and `fee` are signed, `total` is `amount + fee`
/// (the amount when there is no fee).
///
/// **json** — one document; one transaction per line, then the sum of the
/// transactions shown (per currency, sorted by code), the page, the accounting:
///
/// ```
/// {
///   "transactions": [
///     {…},
///     {…}
///   ],
///   "sum": [{"currency":"EUR","count":2,"amount":"-112.50","fees":"-1.50","total":"-114.00"}],
///   "page": {"offset":0,"limit":null,"shown":2,"matched":2},
///   "stats": {"lines":2,"accepted":2,"rejected":0,"duplicates":0}
/// }
/// ```
///
/// `fees` is `"0"` when no shown transaction had a fee; `limit` is `null`
/// without one; `matched` counts what passed dedupe and the filter before
/// paging. An empty list prints `"transactions": [],`.
///
/// **jsonl** — one transaction object per line and nothing else (the sum and
/// the page are in `json`; the accounting goes to `--stats` and standard
/// error), so every line has one shape. Every line ends with `\n`.
///
/// **per account** (`list --per-account`, `json` and `jsonl`) — one compact
/// object per account, the `json` document without its stats:
/// `{"account":"A1","count":N,"transactions":[…],"sum":[…],"page":{…}}`
/// (`count` is the account's matching transactions before paging, as
/// `page.matched`).
struct ListJSONWriter: ListFormatWriter {
  /// Where the transaction objects go.
  enum Layout {
    /// The `json` document.
    case document
    /// `jsonl`: one object per line.
    case lines
    /// One account's object in a per-account list.
    case account(String)
  }

  let layout: Layout
  let context: ListContext
  private var shown = 0

  init(layout: Layout, context: ListContext) {
    self.layout = layout
    self.context = context
  }

  func begin(to out: inout [UInt8]) {
    switch layout {
    case .document: out.appendLiteral("{\n  \"transactions\": [")
    case .lines: break
    case .account(let account):
      out.appendLiteral("{\"account\":")
      JSONEscaping.appendString(account, to: &out)
      out.appendLiteral(",\"count\":")
      out.appendDecimal(context.matched)
      out.appendLiteral(",\"transactions\":[")
    }
  }

  mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    appendSeparator(to: &out)
    Self.appendObject(TransactionListRow(transaction, total: total, zone: context.zone), to: &out)
    appendLineEnd(to: &out)
  }

  /// Appends a transaction object already rendered (`ListRowStyle.json`).
  mutating func appendRendered(_ row: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    appendSeparator(to: &out)
    out.append(contentsOf: row)
    appendLineEnd(to: &out)
  }

  /// What comes before a transaction object; counts it.
  private mutating func appendSeparator(to out: inout [UInt8]) {
    switch layout {
    case .document: out.appendLiteral(shown == 0 ? "\n    " : ",\n    ")
    case .lines: break
    case .account: if shown > 0 { out.append(.comma) }
    }
    shown += 1
  }

  private func appendLineEnd(to out: inout [UInt8]) {
    if case .lines = layout { out.append(.newline) }
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {
    switch layout {
    case .lines: return
    case .document:
      out.appendLiteral(shown == 0 ? "],\n" : "\n  ],\n")
      out.appendLiteral("  \"sum\": ")
      Self.appendSum(sum, to: &out)
      out.appendLiteral(",\n  \"page\": ")
      appendPage(to: &out)
      out.appendLiteral(",\n  \"stats\": ")
      JSONReportWriter.appendStats(context.stats, to: &out)
      out.appendLiteral("\n}\n")
    case .account:
      out.appendLiteral("],\"sum\":")
      Self.appendSum(sum, to: &out)
      out.appendLiteral(",\"page\":")
      appendPage(to: &out)
      out.append(.closeBrace)
    }
  }

  /// `{"offset":0,"limit":null,"shown":2,"matched":2}`.
  private func appendPage(to out: inout [UInt8]) {
    out.append(contentsOf: "{\"offset\":\(context.page.offset),\"limit\":".utf8)
    out.append(contentsOf: (context.page.limit.map(String.init) ?? "null").utf8)
    out.append(contentsOf: ",\"shown\":\(shown),\"matched\":\(context.matched)}".utf8)
  }

  /// One transaction object (see the type's notes).
  static func appendObject<Row: ListRowView>(_ row: Row, to out: inout [UInt8]) {
    out.appendLiteral("{\"id\":")
    Row.appendJSON(row.id, to: &out)
    out.appendLiteral(",\"instant\":\"")
    row.instant.appendText(to: &out)
    out.appendLiteral("\",\"date\":\"")
    row.day.appendText(to: &out)
    out.appendLiteral("\",\"state\":")
    Row.appendJSON(row.state, to: &out)
    out.appendLiteral(
      row.indicator == .credit
        ? ",\"creditDebitIndicator\":\"CRDT\",\"amount\":\"" : ",\"creditDebitIndicator\":\"DBIT\",\"amount\":\"")
    row.amount.appendText(to: &out)
    out.appendLiteral("\",\"currency\":")
    Row.appendJSON(row.currency, to: &out)
    if let fee = row.fee {
      out.appendLiteral(",\"fee\":\"")
      fee.appendText(to: &out)
      out.append(.quote)
    }
    out.appendLiteral(",\"total\":\"")
    row.total.appendText(to: &out)
    out.append(.quote)
    if let text = row.description {
      out.appendLiteral(",\"description\":")
      Row.appendJSON(text, to: &out)
    }
    if let text = row.category {
      out.appendLiteral(",\"category\":")
      Row.appendJSON(text, to: &out)
    }
    if let text = row.counterparty {
      out.appendLiteral(",\"counterparty\":")
      Row.appendJSON(text, to: &out)
    }
    out.append(.closeBrace)
  }

  /// `[{"currency":"EUR","count":2,"amount":"…","fees":"…","total":"…"}]`.
  static func appendSum(_ sum: SelectionSum, to out: inout [UInt8]) {
    appendPerCurrency(sum.currencies, to: &out) { currency in
      (currency.currency, currency.count, ["amount": currency.amount, "fees": currency.fees, "total": currency.total])
    }
  }

  /// `[{"currency":"EUR","count":2,"amount":"…",…}]`: one object per currency,
  /// its name and count, then the amounts `fields` names, in order, as
  /// strings — the list's sum and the summary's totals.
  static func appendPerCurrency<Row>(
    _ rows: [Row], to out: inout [UInt8],
    fields: (Row) -> (currency: String, count: Int, amounts: KeyValuePairs<String, ExactDecimal>)
  ) {
    out.append(.openBracket)
    for (index, row) in rows.enumerated() {
      if index > 0 { out.append(.comma) }
      let (currency, count, amounts) = fields(row)
      out.append(contentsOf: "{\"currency\":".utf8)
      JSONEscaping.appendString(currency, to: &out)
      out.append(contentsOf: ",\"count\":\(count)".utf8)
      for (name, amount) in amounts {
        out.append(contentsOf: ",\"\(name)\":\"".utf8)
        amount.appendText(to: &out)
        out.append(.quote)
      }
      out.append(.closeBrace)
    }
    out.append(.closeBracket)
  }
}
