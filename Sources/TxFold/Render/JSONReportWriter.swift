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
      out.appendLiteral("{\n  \"sections\": [],\n")
    } else {
      out.appendLiteral("{\n  \"sections\": [\n")
      for (sectionIndex, section) in report.sections.enumerated() {
        out.appendLiteral("    {\n      \"state\": ")
        JSONEscaping.appendString(section.state, to: &out)
        out.appendLiteral(",\n      \"groups\": [\n")
        for (groupIndex, group) in section.groups.enumerated() {
          out.appendLiteral("        ")
          try appendGroup(group, includingState: false, to: &out, flush: flush)
          if groupIndex < section.groups.count - 1 { out.append(.comma) }
          out.append(.newline)
        }
        out.appendLiteral("      ]\n    }")
        if sectionIndex < report.sections.count - 1 { out.append(.comma) }
        out.append(.newline)
      }
      out.appendLiteral("  ],\n")
    }
    out.appendLiteral("  \"stats\": ")
    appendStats(report.stats, to: &out)
    out.appendLiteral("\n}\n")
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
      out.appendLiteral("\"state\":")
      JSONEscaping.appendString(group.state, to: &out)
      out.append(.comma)
    }
    out.appendLiteral("\"date\":\"")
    group.date.appendText(to: &out)
    out.appendLiteral("\",\"creditDebitIndicator\":\"")
    out.appendLiteral(group.creditDebitIndicator == .credit ? "CRDT" : "DBIT")
    out.appendLiteral("\",\"count\":")
    out.appendDecimal(group.count)
    out.appendLiteral(",\"totals\":[")
    for (index, total) in group.totals.enumerated() {
      if index > 0 { out.append(.comma) }
      out.appendLiteral("{\"currency\":")
      JSONEscaping.appendString(total.currency, to: &out)
      out.appendLiteral(",\"amount\":\"")
      total.amount.appendText(to: &out)
      out.appendLiteral("\"}")
    }
    out.appendLiteral("],\"latest\":\"")
    group.latest.appendText(to: &out)
    out.appendLiteral("\",\"transactions\":[")
    for (index, member) in group.transactions.enumerated() {
      if index > 0 { out.append(.comma) }
      out.appendLiteral("{\"id\":")
      JSONEscaping.appendString(member.id, to: &out)
      if let description = member.description {
        out.appendLiteral(",\"description\":")
        JSONEscaping.appendString(description, to: &out)
      }
      out.appendLiteral(",\"amount\":\"")
      member.amount.appendText(to: &out)
      out.appendLiteral("\",\"currency\":")
      JSONEscaping.appendString(member.currency, to: &out)
      out.appendLiteral(",\"instant\":\"")
      member.instant.appendText(to: &out)
      out.appendLiteral("\"}")
      try ReportRenderer.flushIfFull(&out, flush)
    }
    out.appendLiteral("]}")
    try ReportRenderer.flushIfFull(&out, flush)
  }

  /// Appends `{"lines":7,"accepted":7,"rejected":0,"duplicates":0}`.
  static func appendStats(_ stats: RunStats, to out: inout [UInt8]) {
    out.appendLiteral("{\"lines\":")
    out.appendDecimal(stats.lines)
    out.appendLiteral(",\"accepted\":")
    out.appendDecimal(stats.accepted)
    out.appendLiteral(",\"rejected\":")
    out.appendDecimal(stats.rejected)
    out.appendLiteral(",\"duplicates\":")
    out.appendDecimal(stats.duplicates)
    if let selected = stats.selected {
      out.appendLiteral(",\"selected\":")
      out.appendDecimal(selected)
    }
    if let accounts = stats.accounts {
      out.appendLiteral(",\"accounts\":")
      out.appendDecimal(accounts)
    }
    if let changed = stats.changedAccounts {
      out.appendLiteral(",\"changedAccounts\":")
      out.appendDecimal(changed)
    }
    out.append(.closeBrace)
  }
}
