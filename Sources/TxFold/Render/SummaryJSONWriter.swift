/// Writes `txfold summary`'s `json` and `jsonl` formats: locale-independent,
/// amounts as strings in canonical text.
///
/// **json** — one document, one entry per line in the summary's order:
///
/// ```
/// {
///   "by": "category",
///   "entries": [
///     {"key":"Rent","count":1,"currencies":[{"currency":"EUR","count":1,"income":"0.00","expense":"-5200.00"}]},
///     {"key":null,"count":2,"currencies":[{"currency":"EUR","count":2,"income":"12.50","expense":"0.00"}]}
///   ],
///   "totals": [{"currency":"EUR","count":3,"income":"12.50","expense":"-5200.00"}],
///   "stats": {"lines":3,"accepted":3,"rejected":0,"duplicates":0}
/// }
/// ```
///
/// - `key` is the canonical text: the category, counterparty or state as
///   written, `YYYY-MM-DD` for a day, `YYYY-MM` for a month; `null` for
///   transactions without one (the text format's `(none)`).
/// - `income` (zero or positive) and `expense` (zero or negative) are exact
///   sums of amounts, fees not included; `currencies` and `totals` are sorted
///   by currency code. An empty summary prints `"entries": [],`.
///
/// **jsonl** — one entry object per line and nothing else (the totals are in
/// `json`; the accounting goes to `--stats` and standard error), so every
/// line has one shape. Every line ends with `\n`.
enum SummaryJSONWriter {
  static func write(_ report: SummaryReport, lines: Bool, to out: inout [UInt8]) {
    if lines {
      for entry in report.entries {
        appendEntry(entry, to: &out)
        out.append(.newline)
      }
      return
    }
    out.append(contentsOf: "{\n  \"by\": \"\(report.dimension.rawValue)\",\n  \"entries\": [".utf8)
    for (index, entry) in report.entries.enumerated() {
      out.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
      appendEntry(entry, to: &out)
    }
    out.append(contentsOf: (report.entries.isEmpty ? "],\n" : "\n  ],\n").utf8)
    out.append(contentsOf: "  \"totals\": ".utf8)
    appendCells(report.totals, to: &out)
    out.append(contentsOf: ",\n  \"stats\": ".utf8)
    JSONReportWriter.appendStats(report.stats, to: &out)
    out.append(contentsOf: "\n}\n".utf8)
  }

  static func appendEntry(_ entry: SummaryEntry, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"key\":".utf8)
    if let key = entry.key.text {
      JSONEscaping.appendString(key, to: &out)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    out.append(contentsOf: ",\"count\":\(entry.count),\"currencies\":".utf8)
    appendCells(entry.currencies, to: &out)
    out.append(.closeBrace)
  }

  static func appendCells(_ cells: [SummaryCurrencyTotals], to out: inout [UInt8]) {
    ListJSONWriter.appendPerCurrency(cells, to: &out) { cell in
      (cell.currency, cell.count, ["income": cell.income, "expense": cell.expense])
    }
  }
}
