/// The output formats of `txfold group` (`--format`, Documentation/Formats.md, "`group` reports").
///
/// Each format has one writer in `Render/` that documents its exact layout.
public enum ReportFormat: String, Sendable, CaseIterable {
  /// A human report: section headers, one block per group, amounts and dates
  /// formatted for a `ReportLocale`, optional ANSI colours (`TextReportWriter`).
  case text
  /// One locale-independent JSON document (`JSONReportWriter`).
  case json
  /// One JSON object per group and nothing else: rows only (`JSONLinesReportWriter`).
  case jsonl
  /// RFC 4180 CSV, one row per group and currency (`CSVReportWriter`).
  case csv
  /// One self-contained HTML page with cards and charts, localized like
  /// `text` (`HTMLReportWriter`, `HTMLListWriter`, `HTMLSummaryWriter`).
  case html
}
