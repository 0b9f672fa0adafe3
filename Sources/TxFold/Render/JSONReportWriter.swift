/// Writes the `json` format: one locale-independent document (Documentation/Formats.md, "`group` reports").
///
/// The layout is fixed, so equal reports give equal bytes. The document's
/// skeleton is indented by two spaces, and each group is one compact line —
/// the same object `jsonl` prints, without `state` — so a large report diffs
/// and greps group by group:
///
/// ```
/// {
///   "sections": [
///     {
///       "state": "PENDING",
///       "groups": [
///         {"date":"2019-05-17","creditDebitIndicator":"CRDT","count":2,"totals":[{"currency":"EUR","amount":"3839.90"}],"latest":"2019-05-17T14:28:01","transactions":[{"id":"2","description":"Salary","amount":"1919.95","currency":"EUR"},{"id":"1","description":"Internet Banking","amount":"1919.95","currency":"EUR"}]}
///       ]
///     }
///   ],
///   "stats": {"lines":7,"accepted":7,"rejected":0,"duplicates":0}
/// }
/// ```
///
/// - Group keys, in order: `date` (`YYYY-MM-DD`), `creditDebitIndicator`
///   (`CRDT`/`DBIT`), `count`, `totals` (per currency, in the report's order),
///   `latest` (the timestamp as written), `transactions` (the kept members:
///   `id`, `description` only when present, `amount`, `currency`).
/// - Amounts are JSON strings in canonical text (`"3839.90"`, no grouping),
///   so no consumer reads them through binary floating point.
/// - A report with no sections prints `"sections": [],`.
/// - Strings are escaped by `JSONEscaping`: non-ASCII passes through as UTF-8.
/// - The document ends with a newline.
enum JSONReportWriter {
  /// Writes the whole document, handing full buffers to `flush`.
  static func write<E: Error>(
    _ report: GroupReport, to out: inout [UInt8], flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    if report.sections.isEmpty {
      out.append(contentsOf: "{\n  \"sections\": [],\n".utf8)
    } else {
      out.append(contentsOf: "{\n  \"sections\": [\n".utf8)
      for (sectionIndex, section) in report.sections.enumerated() {
        out.append(contentsOf: "    {\n      \"state\": ".utf8)
        JSONEscaping.appendString(section.state, to: &out)
        out.append(contentsOf: ",\n      \"groups\": [\n".utf8)
        for (groupIndex, group) in section.groups.enumerated() {
          out.append(contentsOf: "        ".utf8)
          try appendGroup(group, includingState: false, to: &out, flush: flush)
          if groupIndex < section.groups.count - 1 { out.append(.comma) }
          out.append(.newline)
        }
        out.append(contentsOf: "      ]\n    }".utf8)
        if sectionIndex < report.sections.count - 1 { out.append(.comma) }
        out.append(.newline)
      }
      out.append(contentsOf: "  ],\n".utf8)
    }
    out.append(contentsOf: "  \"stats\": ".utf8)
    appendStats(report.stats, to: &out)
    out.append(contentsOf: "\n}\n".utf8)
  }

  /// Appends one group as a compact JSON object, with `"state"` as its first
  /// key when `includingState` is true (the `jsonl` line).
  ///
  /// Checks the buffer after every member and at the end, so a group that
  /// keeps all its members (`--members all`) still streams.
  static func appendGroup<E: Error>(
    _ group: TransactionGroup, includingState: Bool, to out: inout [UInt8],
    flush: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    out.append(.openBrace)
    if includingState {
      out.append(contentsOf: "\"state\":".utf8)
      JSONEscaping.appendString(group.state, to: &out)
      out.append(.comma)
    }
    out.append(contentsOf: "\"date\":\"".utf8)
    group.date.appendText(to: &out)
    out.append(contentsOf: "\",\"creditDebitIndicator\":\"".utf8)
    out.append(contentsOf: group.creditDebitIndicator.code.utf8)
    out.append(contentsOf: "\",\"count\":".utf8)
    out.append(contentsOf: String(group.count).utf8)
    out.append(contentsOf: ",\"totals\":[".utf8)
    for (index, total) in group.totals.enumerated() {
      if index > 0 { out.append(.comma) }
      out.append(contentsOf: "{\"currency\":".utf8)
      JSONEscaping.appendString(total.currency, to: &out)
      out.append(contentsOf: ",\"amount\":\"".utf8)
      total.amount.appendText(to: &out)
      out.append(contentsOf: "\"}".utf8)
    }
    out.append(contentsOf: "],\"latest\":\"".utf8)
    group.latest.appendText(to: &out)
    out.append(contentsOf: "\",\"transactions\":[".utf8)
    for (index, member) in group.transactions.enumerated() {
      if index > 0 { out.append(.comma) }
      out.append(contentsOf: "{\"id\":".utf8)
      JSONEscaping.appendString(member.id, to: &out)
      if let description = member.description {
        out.append(contentsOf: ",\"description\":".utf8)
        JSONEscaping.appendString(description, to: &out)
      }
      out.append(contentsOf: ",\"amount\":\"".utf8)
      member.amount.appendText(to: &out)
      out.append(contentsOf: "\",\"currency\":".utf8)
      JSONEscaping.appendString(member.currency, to: &out)
      out.append(.closeBrace)
      try ReportRenderer.flushIfFull(&out, flush)
    }
    out.append(contentsOf: "]}".utf8)
    try ReportRenderer.flushIfFull(&out, flush)
  }

  /// Appends `{"lines":7,"accepted":7,"rejected":0,"duplicates":0}`.
  static func appendStats(_ stats: RunStats, to out: inout [UInt8]) {
    out.append(contentsOf: "{\"lines\":".utf8)
    out.append(contentsOf: String(stats.lines).utf8)
    out.append(contentsOf: ",\"accepted\":".utf8)
    out.append(contentsOf: String(stats.accepted).utf8)
    out.append(contentsOf: ",\"rejected\":".utf8)
    out.append(contentsOf: String(stats.rejected).utf8)
    out.append(contentsOf: ",\"duplicates\":".utf8)
    out.append(contentsOf: String(stats.duplicates).utf8)
    if let selected = stats.selected {
      out.append(contentsOf: ",\"selected\":".utf8)
      out.append(contentsOf: String(selected).utf8)
    }
    if let accounts = stats.accounts {
      out.append(contentsOf: ",\"accounts\":".utf8)
      out.append(contentsOf: String(accounts).utf8)
    }
    out.append(.closeBrace)
  }
}
