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
struct ListJSONWriter: ListFormatWriter {
  let lines: Bool
  let context: ListContext
  private var shown = 0

  init(lines: Bool, context: ListContext) {
    self.lines = lines
    self.context = context
  }

  func begin(to out: inout [UInt8]) {
    if !lines { out.append(contentsOf: "{\n  \"transactions\": [".utf8) }
  }

  mutating func append(_ transaction: Transaction, total: ExactDecimal, to out: inout [UInt8]) {
    if !lines { out.append(contentsOf: (shown == 0 ? "\n    " : ",\n    ").utf8) }
    shown += 1
    Self.appendTransaction(transaction, total: total, zone: context.zone, to: &out)
    if lines { out.append(.newline) }
  }

  /// Appends a transaction object already rendered (`ListRowRenderer`, `.json`).
  mutating func appendRendered(_ row: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    if !lines { out.append(contentsOf: (shown == 0 ? "\n    " : ",\n    ").utf8) }
    shown += 1
    out.append(contentsOf: row)
    if lines { out.append(.newline) }
  }

  func finish(sum: SelectionSum, to out: inout [UInt8]) {
    if lines { return }
    out.append(contentsOf: (shown == 0 ? "],\n" : "\n  ],\n").utf8)
    out.append(contentsOf: "  \"sum\": ".utf8)
    Self.appendSum(sum, to: &out)
    out.append(contentsOf: ",\n  \"page\": ".utf8)
    appendPage(to: &out)
    out.append(contentsOf: ",\n  \"stats\": ".utf8)
    JSONReportWriter.appendStats(context.stats, to: &out)
    out.append(contentsOf: "\n}\n".utf8)
  }

  /// `{"offset":0,"limit":null,"shown":2,"matched":2}`.
  private func appendPage(to out: inout [UInt8]) {
    out.append(contentsOf: "{\"offset\":\(context.page.offset),\"limit\":".utf8)
    out.append(contentsOf: (context.page.limit.map(String.init) ?? "null").utf8)
    out.append(contentsOf: ",\"shown\":\(shown),\"matched\":\(context.matched)}".utf8)
  }

  /// One transaction object (see the type's notes).
  static func appendTransaction(
    _ transaction: Transaction, total: ExactDecimal, zone: ZoneResolver, to out: inout [UInt8]
  ) {
    out.append(contentsOf: "{\"id\":".utf8)
    JSONEscaping.appendString(transaction.id, to: &out)
    out.append(contentsOf: ",\"instant\":\"".utf8)
    transaction.instant.appendText(to: &out)
    out.append(contentsOf: "\",\"date\":\"".utf8)
    zone.day(of: transaction.instant).appendText(to: &out)
    out.append(contentsOf: "\",\"state\":".utf8)
    JSONEscaping.appendString(transaction.state, to: &out)
    out.append(contentsOf: ",\"creditDebitIndicator\":\"".utf8)
    out.append(contentsOf: transaction.creditDebitIndicator.code.utf8)
    out.append(contentsOf: "\",\"amount\":\"".utf8)
    transaction.amount.appendText(to: &out)
    out.append(contentsOf: "\",\"currency\":".utf8)
    JSONEscaping.appendString(transaction.currency, to: &out)
    if let fee = transaction.fee {
      out.append(contentsOf: ",\"fee\":\"".utf8)
      fee.appendText(to: &out)
      out.append(.quote)
    }
    out.append(contentsOf: ",\"total\":\"".utf8)
    total.appendText(to: &out)
    out.append(.quote)
    for (key, value) in [
      ("description", transaction.description), ("category", transaction.category),
      ("counterparty", transaction.counterparty),
    ] {
      guard let value else { continue }
      out.append(contentsOf: ",\"\(key)\":".utf8)
      JSONEscaping.appendString(value, to: &out)
    }
    out.append(.closeBrace)
  }

  /// `[{"currency":"EUR","count":2,"amount":"…","fees":"…","total":"…"}]`.
  static func appendSum(_ sum: SelectionSum, to out: inout [UInt8]) {
    out.append(.openBracket)
    for (index, currency) in sum.currencies.enumerated() {
      if index > 0 { out.append(.comma) }
      out.append(contentsOf: "{\"currency\":".utf8)
      JSONEscaping.appendString(currency.currency, to: &out)
      out.append(contentsOf: ",\"count\":\(currency.count),\"amount\":\"".utf8)
      currency.amount.appendText(to: &out)
      out.append(contentsOf: "\",\"fees\":\"".utf8)
      currency.fees.appendText(to: &out)
      out.append(contentsOf: "\",\"total\":\"".utf8)
      currency.total.appendText(to: &out)
      out.append(contentsOf: "\"}".utf8)
    }
    out.append(.closeBracket)
  }
}
